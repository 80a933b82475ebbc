"""An NDJSON file read a block at a time (batch/files.py) gives the lines a reader of one line at a time gives:
each line without its end (`\\n`, and any `\\r` before it), and of a line longer than a line may hold only its first
bytes, the rest read past, wherever the blocks happen to cut the lines."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.batch import files
from tests.profiles import examples


def _by_line(data: bytes, kept: int) -> list[bytes]:
    """The lines of `data` read line by line, at most `kept` bytes of each (the reader before block reading)."""
    f, lines = io.BytesIO(data), []
    while raw := f.readline(kept):
        if raw.endswith(b"\n") or len(raw) < kept:
            lines.append(raw.rstrip(b"\r\n"))
            continue
        while (rest := f.readline(1)) and not rest.endswith(b"\n"):
            pass
        lines.append(raw)
    return lines


@settings(max_examples=examples(400), deadline=None)
@given(
    data=st.binary(max_size=80).map(lambda raw: bytes(b"ab\r\n"[byte % 4] for byte in raw)),
    most=st.integers(1, 12),
    block=st.integers(1, 20),
)
def test_blocks_give_the_lines_one_at_a_time_gives(data: bytes, most: int, block: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "_KEPT", most + 2)
        patch.setattr(files, "_BLOCK", block)
        assert list(files._ndjson_lines(io.BytesIO(data))) == _by_line(data, most + 2)


def test_a_line_past_the_bound_is_kept_short_and_the_next_read_whole() -> None:
    long = b"x" * (3 * files._BLOCK)
    lines = list(files._ndjson_lines(io.BytesIO(b'{"id":1}\r\n' + long + b"\n\n" + b'{"id":2}')))
    assert lines == [b'{"id":1}', long[: files._KEPT], b"", b'{"id":2}']


def _parts_lines(paths: list[Path], size: int, *, spans: bool = True) -> list[bytes | files.Decoded | files.Unread]:
    """The lines of deck_parts' parts, each span read as a worker reads it."""
    lines: list[bytes | files.Decoded | files.Unread] = []
    for part in files.deck_parts(paths, size, spans=spans):
        assert spans or isinstance(part, list)
        got = files.span_lines(part) if isinstance(part, files.Span) else part
        if isinstance(got, files.Joined):  # a span as it stands in the file, read as a worker cuts it
            got = got.lines_at(range(got.lines))
        assert 0 < len(got) <= size
        assert len(got) == (part.lines if isinstance(part, files.Span) else len(part))
        lines.extend(got)
    return lines


@settings(max_examples=examples(300), deadline=None)
@given(
    data=st.lists(st.binary(max_size=60).map(lambda raw: bytes(b"ab\r\n"[byte % 4] for byte in raw)), max_size=3),
    most=st.integers(1, 12),
    block=st.integers(1, 20),
    size=st.integers(1, 7),
    whole=st.sampled_from([0, files.MAX_JOINED_BYTES]),
)
def test_spans_hold_the_lines_the_reader_gives(data: list[bytes], most: int, block: int, size: int, whole: int) -> None:
    """Cut into spans of `size` lines (wherever the blocks of the cut and of the reading fall), files give the
    lines, in order, that reading them whole gives, a span's count its own lines: a span read whole (`whole`
    bytes at most) as one read from the file."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "_KEPT", most + 2)
        patch.setattr(files, "_BLOCK", block)
        patch.setattr(files, "MAX_JOINED_BYTES", whole)
        paths = [Path(folder, f"{n}.ndjson") for n in range(len(data))]
        for path, content in zip(paths, data, strict=True):
            path.write_bytes(content)
        assert _parts_lines(paths, size) == list(files.deck_lines(paths))
        assert _parts_lines(paths, size, spans=False) == list(files.deck_lines(paths))


def test_a_folder_gives_its_files_in_order_in_spans_and_lists(tmp_path: Path) -> None:
    (tmp_path / "a.ndjson").write_bytes(b'{"id":1}\n{"id":2}\n{"id":3}')
    (tmp_path / "b.ydk").write_text("#main\n89631139\n")
    (tmp_path / "c.jsonl").write_bytes(b'{"id":4}\n')
    parts = list(files.deck_parts([tmp_path], 2, spans=True))
    assert [type(part) for part in parts] == [files.Span, files.Span, list, files.Span]
    assert [part.lines for part in parts if isinstance(part, files.Span)] == [2, 1, 1]
    assert _parts_lines([tmp_path], 2) == list(files.deck_lines([tmp_path]))


def test_a_span_comes_as_it_stands_unless_a_line_ends_in_a_return(tmp_path: Path) -> None:
    """A span of lines ended by `\n` alone comes whole, as the file holds it (its last line given an end); one
    with a `\r` comes cut into lines, which drop it."""
    (tmp_path / "a.ndjson").write_bytes(b'{"id":1}\n\n{"id":2}')
    (tmp_path / "b.ndjson").write_bytes(b'{"id":1}\r\n{"id":2}\n')
    a, b = (
        files.span_lines(span) for path in ("a", "b") for span in files.ndjson_spans(tmp_path / f"{path}.ndjson", 5)
    )
    assert a == files.Joined(b'{"id":1}\n\n{"id":2}\n', 3)
    assert isinstance(a, files.Joined)
    assert a.lines_at([2, 0]) == [b'{"id":2}', b'{"id":1}']
    assert b == [b'{"id":1}', b'{"id":2}']


def test_a_span_of_a_file_changed_since_it_was_cut_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "decks.ndjson"
    path.write_bytes(b'{"id":1}\n{"id":2}\n')
    [span] = files.deck_parts([path], 10, spans=True)
    assert isinstance(span, files.Span)
    path.write_bytes(b'{"id":1}\n')
    with pytest.raises(OSError, match="changed while it was read"):
        files.span_lines(span)
