"""The package's modules, by dotted name, each with its file: what the tests of the package's shape (test_layout),
of its errors (test_errors) and of its imports (test_dependencies) walk."""

from __future__ import annotations

from pathlib import Path

import deckcheck

PACKAGE = Path(deckcheck.__file__).parent


def module_name(path: Path) -> str:
    """The dotted name of the module at `path` (a package by its `__init__.py`)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
