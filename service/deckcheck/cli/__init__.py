"""The `deckcheck` command: `run(argv, stdout, stderr) -> int` does the work, `main()` exits with its code."""

from deckcheck.cli.main import main, run

__all__ = ["main", "run"]
