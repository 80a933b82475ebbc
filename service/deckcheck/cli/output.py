"""What the `deckcheck` command writes for people: its own words in Japanese or English, tables aligned by display
width, and a quiet end when the reader of standard output goes away."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Literal, NoReturn

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from deckcheck.rules import PENALTIES
from deckcheck.sentences import SENTENCES, say

# The exit status of every command: 0 done (and every deck legal), 1 some deck illegal, 2 a usage or input error,
# 3 a command that could not be carried to its end (a recheck on Dask whose partition every worker that ran it died
# running, a reload no service took). A recheck carried to its end adds 4 when some of its lines were no deck it
# could check (each has its error line among the results): 4 every deck it checked legal, 5 some illegal.
EXIT_OK, EXIT_ILLEGAL, EXIT_ERROR, EXIT_FAILED, EXIT_UNCHECKED = 0, 1, 2, 3, 4
# The exit status of a command whose output pipe was closed early: what a shell reports for a process SIGPIPE ended
# (128 + 13), as it does for cat, grep or git in `… | head -1`, and apart from every status above.
EXIT_CLOSED_PIPE = 141
TABLE_WIDTH = 80  # the width of a table written anywhere but a terminal
NAME_WIDTH = 40  # the widest a left-justified column (card names) grows; past it, names wrap
_INDENT = "  "

# The penalties' names as the judge's answers give them (catalogues/judging.toml), in lower case inside English
# sentences.
_PENALTIES = {
    name: (SENTENCES["judging"][f"penalties.{name}"].one.lower(), SENTENCES["judging"][f"penalties.{name}"].ja)
    for name in PENALTIES
}


def words(lang: str, key: str, **fields: object) -> str:
    """The command's text `key` in `lang` (ja, else en), its fields filled in."""
    if key in _PENALTIES:
        return _PENALTIES[key][lang == "ja"]
    return say("cli", key, lang, **fields)


def table(
    rows: Sequence[Sequence[str | Padding]],
    justify: Sequence[Literal["left", "right"]],
    out: IO[str],
) -> list[str]:
    """The lines of a table for `out`, indented, its columns aligned by display width (East Asian wide characters
    take two columns). Left-justified columns wrap what is wider than NAME_WIDTH, or than the width of `out` allows
    (a terminal's, else TABLE_WIDTH), onto more lines, at spaces or else anywhere in a word, so nothing is cut;
    right-justified ones never wrap."""
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    for how in justify:
        right = how == "right"
        grid.add_column(justify=how, overflow="fold", no_wrap=right, max_width=None if right else NAME_WIDTH)
    for row in rows:
        grid.add_row(*(Text(cell) if isinstance(cell, str) else cell for cell in row))
    return [_INDENT + line.rstrip() for line in _render(grid, _width(out) - len(_INDENT)).splitlines()]


def indented(text: str) -> Padding:
    """A table cell set in by two columns, wrapped lines too."""
    return Padding(Text(text), (0, 0, 0, 2))


def _render(renderable: RenderableType, width: int) -> str:
    console = Console(
        file=io.StringIO(), width=width, force_terminal=False, color_system=None, highlight=False, emoji=False
    )
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def _width(out: IO[str]) -> int:
    """The columns of the terminal `out` writes to (a new terminal may say 0), else TABLE_WIDTH."""
    try:
        return (os.get_terminal_size(out.fileno()).columns if out.isatty() else 0) or TABLE_WIDTH
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return TABLE_WIDTH


def exit_quietly_on_closed_pipe(run: Callable[[], int]) -> NoReturn:
    """Exit with `run()`'s code; if the reader of standard output (or error) has gone, as `… | head -1` does, end at
    once with EXIT_CLOSED_PIPE and no traceback (the recipe of Python's note on SIGPIPE in the signal module)."""
    try:
        code = run()
        sys.stdout.flush()  # the last buffered output fails here, not at exit where nothing could catch it
    except BrokenPipeError:
        # Python flushes both streams again at exit: let that write go nowhere rather than fail once more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            os.dup2(devnull, stream.fileno())
        sys.exit(EXIT_CLOSED_PIPE)
    sys.exit(code)
