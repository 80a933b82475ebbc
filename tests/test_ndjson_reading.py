"""An NDJSON file read a block at a time (batch/files.py) gives the lines a reader of one line at a time gives:
each line without its end (`\\n`, and any `\\r` before it), and of a line longer than a line may hold only its first
bytes, the rest read past, wherever the blocks happen to cut the lines."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.batch import files


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


@settings(max_examples=400, deadline=None)
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
