"""The stored form read a chunk at once (batch/stored.py) held to quick.quick line by line, and links read where
they stand in a chunk's bytes (chunk.read_links) held to links read alone (chunk.decode)."""

from __future__ import annotations

import json

import numpy as np
import orjson
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from deckcheck.batch.chunk import decode, read_links
from deckcheck.batch.files import MAX_LINE_BYTES
from deckcheck.batch.quick import quick
from deckcheck.batch.stored import stored_links
from deckcheck.limits import MAX_ID_CHARS
from deckcheck.wire.requests import MAX_SOURCE_CHARS
from tests.profiles import examples

LINK = "ydke://hpARA0M/TwRs2S4B!mg0ZAJoNGQA=!!"
ODD_TEXT = ["", " ", '"', "\\", "\t", "é", "\x7f", "!", "-", "ydke://", "\u3000", "\x00", "deck 1", "a" * MAX_ID_CHARS]


@pytest.mark.parametrize(
    ("line", "deck_id"),
    [
        (b'{"id":"deck-1","ydke":"%b"}', "deck-1"),  # orjson, JSON.stringify, Python's compact separators
        (b'{"id": "deck-1", "ydke": "%b"}', "deck-1"),  # Python's json by default
        (b'{"id":"deck-1", "ydke":"%b"}', "deck-1"),
        (b'{"id":"","ydke":"%b"}', ""),
        (b'{"id":12,"ydke":"%b"}', 12),
        (b'{"id": -9223372036854775808, "ydke": "%b"}', -(2**63)),
        (b'{"id":0,"ydke":"%b"}', 0),
    ],
)
def test_the_stored_forms(line: bytes, deck_id: str | int) -> None:
    """Each form a store writes is read at once, to the id and link quick reads, the id as orjson writes it."""
    raw = line % LINK.encode()
    stored = stored_links([raw])
    assert stored.rows == [0]
    assert stored.others == []
    assert stored.quick(0) == quick(raw)
    assert stored.heads() == ([0], [orjson.dumps(deck_id)], [deck_id], None)


@pytest.mark.parametrize(
    "line",
    [
        b'{"ydke":"%b","id":"deck-1"}',  # another order
        b'{"id" :"deck-1","ydke":"%b"}',
        b'{"id":"deck-1","ydke":"%b"} ',
        b'{"id":"deck-1","ydke":"%b" }',
        b'{"id":"deck-1","ydke":"%b"x}',
        b'{"id":1 ,"ydke":"%b"}',
        b'{"id":  1,"ydke":"%b"}',
        b' {"id":"deck-1","ydke":"%b"}',
        b'{"id":"deck-\\u0031","ydke":"%b"}',  # an escape
        b'{"id":"d\xc3\xa9ck","ydke":"%b"}',  # past ASCII
        b'{"id":-0,"ydke":"%b"}',
        b'{"id":01,"ydke":"%b"}',
        b'{"id":1.5,"ydke":"%b"}',
        b'{"id":9223372036854775808,"ydke":"%b"}',
        b'{"id":"deck-1","ydke":" %b"}',
        b'{"id":"deck-1","ydke":"%b","player":"A"}',
        b'{"id":"deck-1","ydke":"%b"}\r',
    ],
)
def test_other_forms_go_to_quick(line: bytes) -> None:
    """A line of any other form, however nearly the stored one, is left to quick, which reads it as ever."""
    raw = line % LINK.encode()
    stored = stored_links([raw, b'{"id":"deck-2","ydke":"%b"}' % LINK.encode()])
    assert stored.rows == [1]
    assert stored.others == [0]


@st.composite
def near_lines(draw: st.DrawFn) -> bytes:
    """A line of the stored form, or near it: ids and links of odd characters, other spacing, keys, orders and
    values, and bytes cut or added anywhere."""
    deck_id: object = draw(
        st.one_of(
            st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=12),
            st.integers(-(2**63), 2**63 - 1),
            st.sampled_from(ODD_TEXT),
            st.text(max_size=8),
            st.integers(-(2**64), 2**64),
            st.sampled_from([1.5, None, True, [], "a" * (MAX_ID_CHARS + 1)]),
        )
    )
    link = draw(st.sampled_from([LINK, LINK, LINK, LINK + " ", " " + LINK, "", "é", LINK * 2, "ydke://!!", "x"]))
    pairs = [("id", deck_id), ("ydke", link)]
    if draw(st.integers(0, 5)) == 0:
        pairs.reverse()
    if draw(st.integers(0, 5)) == 0:
        pairs.append((draw(st.sampled_from(["player", "id", "ydke", "main"])), "x"))
    separators = draw(st.sampled_from([(",", ":"), (", ", ": "), (",", ": "), (", ", ":"), (" ,", " :"), (",  ", ":")]))
    text = json.dumps(dict(pairs), separators=separators, ensure_ascii=draw(st.booleans()))
    if len(pairs) == 3 and pairs[2][0] in ("id", "ydke"):  # a key given twice: json keeps the last; write both
        text = text[:-1] + separators[0] + json.dumps(pairs[2][0]) + separators[1] + '"x"}'
    raw = text.encode()
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2]))):
        at = draw(st.integers(0, len(raw)))
        odd = draw(st.sampled_from([b" ", b'"', b"\\", b"}", b"{", b",", b":", b"0", b"-", b"\xc3\xa9", b"\r", b""]))
        raw = raw[:at] + odd + raw[at + draw(st.integers(0, 1)) :]
    return raw


@pytest.mark.slow
@settings(max_examples=examples(1000), deadline=None)
@given(lines=st.lists(near_lines(), max_size=6))
def test_stored_lines_read_as_quick_reads_them(lines: list[bytes]) -> None:
    """Every line read at once is a plain link that quick reads the same, to its id (written as orjson writes it)
    and link; every line quick reads as a plain link with nothing else and no escape is read at once."""
    stored = stored_links(lines)
    assert sorted(stored.rows + stored.others) == list(range(len(lines)))
    heads = stored.heads()
    assert heads.fields is None
    event(f"lines read at once: {min(len(stored.rows), 2)}")
    for at, row in enumerate(stored.rows):
        plain = quick(lines[row]) if len(lines[row]) <= MAX_LINE_BYTES else None
        assert plain is not None
        assert stored.quick(at) == plain
        assert (heads.members[at], heads.json[at], heads.ids[at]) == (row, orjson.dumps(plain.id), plain.id)
    for row in stored.others:
        plain = quick(lines[row])
        event(f"left to quick: {'plain' if plain else 'not plain'}")
        if plain is None or plain.fields is not None or not isinstance(plain.deck, str):
            continue
        # A plain link left to quick is written otherwise than orjson writes it, or holds an escape or a space at
        # either end of its link.
        simple = lines[row] == orjson.dumps({"id": plain.id, "ydke": plain.deck})
        spaced = plain.deck.strip(" ") != plain.deck
        assert not (simple and _unescaped(plain.id) and _unescaped(plain.deck) and not spaced and plain.deck != "")


def _unescaped(text: str | int) -> bool:
    """Written by orjson with no escape, in printable ASCII."""
    return isinstance(text, int) or (text.isascii() and text.isprintable() and '"' not in text and "\\" not in text)


def test_a_line_holding_a_line_end_is_no_stored_line() -> None:
    """An item holding a line's end (never one cut from a file) leaves every line of the chunk to quick."""
    good = b'{"id":"deck-1","ydke":"%b"}' % LINK.encode()
    stored = stored_links([good, good + b"\n" + good])
    assert (stored.rows, stored.others) == ([], [0, 1])
    assert stored_links([]).rows == []
    assert stored_links([]).heads() == ([], [], [], None)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(
    links=st.lists(
        st.sampled_from([LINK, LINK[:-3], "ydke://!!", "ydke://A!B!", "ydke:/x", "", LINK + "!"]), max_size=6
    ),
    gaps=st.lists(st.sampled_from(["", "!", "ydke://", "AAAA", '","id":"!', "=", "é"]), min_size=6, max_size=6),
)
def test_links_read_where_they_stand(links: list[str], gaps: list[str]) -> None:
    """Links read where they stand among other bytes (`!`, base64 and a prefix among them) read as they do alone."""
    raw, starts, ends = b"", [], []
    for link, gap in zip(links, gaps, strict=False):
        raw += gap.encode()
        starts.append(len(raw))
        raw += link.encode()
        ends.append(len(raw))
    raw += gaps[-1].encode()
    got = read_links(raw, np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64))
    alone = decode(links)
    assert got.readable.tolist() == alone.readable.tolist()
    assert got.lengths.tolist() == alone.lengths.tolist()
    assert got.codes.tolist() == alone.codes.tolist()


def test_the_bounds_of_a_stored_line() -> None:
    """An id of MAX_ID_CHARS and a link of MAX_SOURCE_CHARS are read at once; one character more goes to quick,
    which reads no plain line of it, as the models refuse it."""
    link = (LINK * (MAX_SOURCE_CHARS // len(LINK) + 1))[:MAX_SOURCE_CHARS]
    lines = [
        b'{"id":"%b","ydke":"%b"}' % (b"i" * MAX_ID_CHARS, link.encode()),
        b'{"id":"%b","ydke":"%b"}' % (b"i" * (MAX_ID_CHARS + 1), link.encode()),
        b'{"id":"%b","ydke":"%b"}' % (b"i" * MAX_ID_CHARS, link.encode() + b"A"),
    ]
    stored = stored_links(lines)
    assert (stored.rows, stored.others) == ([0], [1, 2])
    assert [quick(line) is not None for line in lines] == [True, False, False]
