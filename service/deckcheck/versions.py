"""The version of what answers depend on: the data, the ruleset, the package and its code. Answers carry it
(Deckcheck-Data-Version), caches validate by it (ETags), and `deckcheck data status` prints it."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from deckcheck import __version__
from deckcheck.data import Data
from deckcheck.rules import RULES_ID

PACKAGE = Path(__file__).resolve().parent


def data_version(data: Data) -> str:
    """What answers depend on: the data files, the ruleset, the package's version and its code, as 16 hex digits.
    The code counts whole, not only its version number: a change that reorders search hits or rewords a message
    changes answers between two releases of one version, and a cache must not keep the old ones."""
    made_from = f"{data.digest}:{RULES_ID}:{__version__}:{code_digest(PACKAGE)}"
    return hashlib.sha256(made_from.encode()).hexdigest()[:16]


@functools.cache
def code_digest(package: Path) -> str:
    """SHA-256 of the files of the package at `package` (its modules, rule catalogue and anything else it serves),
    but not of the bundled data, which `Data.digest` covers, nor of compiled caches."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        inside = path.relative_to(package)
        if path.is_file() and inside.parts[0] != "bundled" and "__pycache__" not in inside.parts:
            digest.update(inside.as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
