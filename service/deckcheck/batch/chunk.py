"""Chunks of decks as flat arrays, the input of the columnar verdict (columnar.py): ydke links read at once in numpy,
and decks given as entries.

`decode` joins the chunk's links into one buffer and reads every link in a handful of vector operations: a 256-entry
table maps each byte to its base64 value (standard and url-safe alphabets) or marks it as padding or as no base64
at all; the few bytes that are not plain base64 (the `!` separators, `=` padding, url-safe characters, anything
else) are located once and tell each link's sections and whether each section reads; the characters of every
readable section are gathered (the prefix and the `!` left out), every 4-character group becomes a 24-bit word, and
every four words of a section, 12 bytes, three little-endian uint32 passcodes, by shifts.

A link reads exactly where `ydke_copies` (formats/ydke.py) reads it: the `ydke://` prefix after stripping
whitespace, three sections (a fourth, empty one allowed), each section standard base64 as `binascii.a2b_base64`
reads it in strict mode, or base64 of either alphabet with at most two `=` whose data characters are not one past a
multiple of 4, and a whole number of passcodes in each section.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from deckcheck.formats.ydke import YDKE_PREFIX

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]
Words = npt.NDArray[np.uint32]

_STANDARD = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_URL_SAFE = 64  # added to the value of `-` and `_`: the value is the byte's low 6 bits
_PADDING = 128  # `=`
_NOT_BASE64 = 129  # anything else, `!` included: this value or one above it
# Among the bytes of no base64, those by which stored.py finds the lines of the stored form: `"`, a line's end, and
# those no JSON string of printable ASCII without an escape holds.
QUOTE, LINE_END, NO_TEXT = 253, 254, 255
_TABLE = bytearray([_NOT_BASE64]) * 256
for _byte in (*range(0x20), *range(0x7F, 0x100), ord("\\")):
    _TABLE[_byte] = NO_TEXT
_TABLE[ord('"')], _TABLE[ord("\n")] = QUOTE, LINE_END
for _value, _char in enumerate(_STANDARD):
    _TABLE[_char] = _value
_TABLE[ord("-")], _TABLE[ord("_")], _TABLE[ord("=")] = 62 + _URL_SAFE, 63 + _URL_SAFE, _PADDING
_PREFIX = np.frombuffer(YDKE_PREFIX.encode("ascii"), dtype=np.uint8)
_BANG = ord("!")


@dataclass(frozen=True, slots=True)
class Chunk:
    """A chunk of decks as flat arrays: `codes` holds every passcode (one per copy), deck by deck, main, extra
    then side; `lengths[3 * d + s]` is the number of copies in section s of deck d. `readable` is False for a
    deck that could not be read, or holds what only the engine can judge (its sections are empty). `languages`,
    where the decks give languages, holds each copy's printed language as an index into `tags` (None: the
    default language); without it every copy stands in the default language. `entries`, for decks given as
    entries, holds the copies of each entry in turn (their copies stand one after the other in `codes`); without it,
    as for a ydke link, a section's entries are its cards, in the order of each card's first copy."""

    codes: npt.NDArray[np.uint32]
    lengths: Ints
    readable: Bools
    languages: npt.NDArray[np.uint16] | None = None
    tags: tuple[str | None, ...] = ()
    entries: Ints | None = None

    @property
    def decks(self) -> int:
        return len(self.readable)


def decode(links: Sequence[str]) -> Chunk:
    """Read a chunk of ydke links into flat arrays, every link at once."""
    count = len(links)
    text = [link.strip() for link in links]
    ascii_only = None
    joined = "".join(text)
    if not joined.isascii():  # a link with a character past ASCII does not read: no section may hold one
        ascii_only = np.fromiter((t.isascii() for t in text), dtype=np.bool_, count=count)
        text = [t if ok else "" for t, ok in zip(text, ascii_only, strict=True)]
        joined = "".join(text)
    size = np.fromiter(map(len, text), dtype=np.int64, count=count)
    end = np.cumsum(size)
    return read_links(joined.encode("ascii"), end - size, end, ascii_only=ascii_only)


def values(raw: bytes) -> Bytes:
    """Each byte's value in base64 (`-` and `_` with _URL_SAFE added), or what else it is (_PADDING, _NOT_BASE64 and
    above)."""
    return np.frombuffer(raw.translate(_TABLE), dtype=np.uint8)


def read_links(
    raw: bytes, start: Ints, end: Ints, value: Bytes | None = None, ascii_only: Bools | None = None
) -> Chunk:
    """Read the ydke links that stand, stripped of whitespace, from `start` to `end` in `raw`, in order and apart,
    into flat arrays, every link at once; what stands around them is not read. `value` is `values(raw)`, where the
    caller has it; `ascii_only` is False for a link that held a character past ASCII (and stands empty), by default
    True for every link."""
    count = len(start)
    size = end - start
    value = values(raw) if value is None else value
    chars = np.frombuffer(raw, dtype=np.uint8)
    prefixed = size >= len(_PREFIX) if ascii_only is None else ascii_only & (size >= len(_PREFIX))
    heads = np.minimum(start[:, None] + np.arange(len(_PREFIX)), max(len(raw) - 1, 0))
    prefixed &= (chars[heads] == _PREFIX).all(axis=1) if len(raw) else False
    inside = _within(len(raw), start, end)
    odd = np.flatnonzero(value >= _URL_SAFE)  # every byte that is not standard base64: few in a link
    odd = odd[inside[odd]]
    is_bang = chars[odd] == _BANG
    bang = odd[is_bang]
    split, starts, ends = _sections(bang, start, end, prefixed)
    read, data = _sections_read(odd[~is_bang], value, starts, ends)
    readable = np.asarray((split & read).reshape(count, 3).all(axis=1), dtype=np.bool_)
    keep = inside if readable.all() else _within(len(raw), start[readable], end[readable])
    keep[(start[readable, None] + np.arange(len(_PREFIX))).ravel()] = False
    keep[bang] = False
    sections = np.repeat(readable, 3)
    return _passcodes(value[keep], np.where(sections, ends - starts, 0), np.where(sections, data, 0), readable)


def _within(size: int, start: Ints, end: Ints) -> Bools:
    """Over `size` bytes, True from each `start` to its `end` (in order, apart), False elsewhere."""
    bounds = np.empty(2 * len(start) + 2, dtype=np.int64)
    bounds[0], bounds[1:-1:2], bounds[2:-1:2], bounds[-1] = 0, start, end, size
    inside: Bools = np.repeat(np.tile(np.array([False, True]), len(start) + 1)[:-1], np.diff(bounds))
    return inside


def _sections(bang: Ints, start: Ints, end: Ints, prefixed: Bools) -> tuple[Bools, Ints, Ints]:
    """Whether each link splits into three sections (the same for its three), and each section's start and end in
    the buffer, deck by deck; a link that does not split gets three empty sections at its start."""
    count = len(start)
    bangs = np.bincount(np.searchsorted(end, bang, side="right"), minlength=count)
    at = np.cumsum(bangs) - bangs  # each link's first `!` in `bang`
    padded = np.append(bang, np.full(3, -1, dtype=np.int64))
    last = padded[at + 2] == end - 1
    split = prefixed & ((bangs == 2) | ((bangs == 3) & last))
    one, two = np.where(split, padded[at], start), np.where(split, padded[at + 1], start)
    starts = np.stack([np.where(split, start + len(_PREFIX), start), one + split, two + split], axis=1)
    ends = np.stack([one, two, np.where(split, end - (bangs == 3), start)], axis=1)
    return np.repeat(split, 3), starts.ravel(), ends.ravel()


def _sections_read(odd: Ints, value: Bytes, starts: Ints, ends: Ints) -> tuple[Bools, Ints]:
    """Whether each section reads, and its data characters (before its padding), from the positions of the bytes
    that are not standard base64, `!` aside. Only those inside a section count: the prefix lies outside."""
    sections = len(starts)
    part = np.searchsorted(starts, odd, side="right") - 1
    inside = (part >= 0) & (odd < ends[np.maximum(part, 0)])
    odd, part = odd[inside], part[inside]
    kind = value[odd]
    is_pad = kind == _PADDING
    padding = np.bincount(part[is_pad], minlength=sections)
    url_safe = np.bincount(part[kind < _PADDING], minlength=sections) > 0
    data = ends - starts - padding
    # Padding anywhere but at the end, and bytes of no base64, spoil a section.
    spoilt = (is_pad & (odd < starts[part] + data[part])) | (kind >= _NOT_BASE64)
    rest = data % 4
    ok = (rest != 1) & (np.bincount(part[spoilt], minlength=sections) == 0)
    ok &= (padding <= 2) | ((rest == 0) & (data > 0) & ~url_safe)  # more padding only as a2b_base64 reads it
    return ok & (_byte_count(data) % 4 == 0), data


def _byte_count(data: Ints) -> Ints:
    """The bytes that `data` base64 characters (no padding) stand for."""
    return 3 * (data // 4) + np.maximum(data % 4 - 1, 0)


def _passcodes(chars: Bytes, lengths: Ints, data: Ints, readable: Bools) -> Chunk:
    """Decode the characters of every readable section, one after the other (`lengths` of each, of which `data`
    before the padding; 0 for the others), and read the bytes as little-endian passcodes. 16 characters are 12
    bytes, 3 passcodes: each section is padded to whole blocks of 16, each block's four 4-character groups become
    four 24-bit words, and their bytes three passcodes, by shifts."""
    groups = (lengths + 3) // 4
    slots = _heads(groups * 4, lengths)
    if slots is not None:  # unpadded sections: each section's characters in whole groups
        spread = np.zeros(len(slots), dtype=np.uint8)
        spread[slots] = chars
        chars = spread
    quads = chars.view(">u4").astype(np.uint32)  # a group's characters, first in the high byte
    quads &= np.uint32(0x3F3F3F3F)  # each character's value: its low 6 bits (`=` counts 0, its bytes go)
    halves = (quads & np.uint32(0x003F003F)) | ((quads >> 2) & np.uint32(0x0FC00FC0))  # two 12-bit halves
    word: Words = ((halves & np.uint32(0xFFF)) | ((halves >> 4) & np.uint32(0xFFF000))).astype(np.uint32, copy=False)
    blocks = (groups + 3) // 4
    slots = _heads(blocks * 4, groups)
    if slots is not None:  # each section's words in whole blocks of four
        spread_words = np.zeros(len(slots), dtype=np.uint32)
        spread_words[slots] = word
        word = spread_words
    w = word.reshape(-1, 4)
    codes = np.empty((len(w), 3), dtype=np.uint32)  # each passcode's 4 bytes read big-endian, then swapped
    codes[:, 0] = (w[:, 0] << 8) | (w[:, 1] >> 16)
    codes[:, 1] = (w[:, 1] << 16) | (w[:, 2] >> 8)
    codes[:, 2] = (w[:, 2] << 24) | w[:, 3]
    wanted = _byte_count(data) // 4
    flat = codes.byteswap().ravel()
    kept = _heads(blocks * 3, wanted)
    return Chunk(flat if kept is None else flat[kept], wanted, readable)


def _heads(sizes: Ints, heads: Ints) -> Bools | None:
    """Over segments of `sizes` one after the other, True on the first `heads` of each; None if that is all."""
    tails = _tails(sizes, heads)
    if len(tails) == 0:
        return None
    mask = np.ones(int(sizes.sum()), dtype=np.bool_)
    mask[tails] = False
    return mask


def _tails(sizes: Ints, heads: Ints) -> Ints:
    """Over segments of `sizes` one after the other, the positions past the first `heads` of each."""
    tails = sizes - heads
    within = np.arange(int(tails.sum())) - np.repeat(np.cumsum(tails) - tails, tails)
    positions: Ints = np.repeat(np.cumsum(sizes), tails) - 1 - within
    return positions
