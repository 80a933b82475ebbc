"""Settings, read once from the environment at start-up, with defaults that work out of the box."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data import DEFAULT_DATA_DIR

DEFAULT_MAX_BODY_BYTES = 1024 * 1024


class ConfigError(Exception):
    """An environment variable holds nonsense; start-up stops with this message."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the bundled data live and how large a request body may be."""

    data_dir: Path = DEFAULT_DATA_DIR
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """Read DECKCHECK_DATA_DIR and DECKCHECK_MAX_BODY_BYTES; refuse values that cannot work."""
        given = env.get("DECKCHECK_DATA_DIR")
        data_dir = DEFAULT_DATA_DIR if given is None else Path(given)
        if not (data_dir / "cards").is_dir() or not (data_dir / "banlists").is_dir():
            where = f"the bundled data folder {data_dir}" if given is None else f"DECKCHECK_DATA_DIR={data_dir}"
            raise ConfigError(f"{where} holds no cards/ and banlists/ folders")
        raw = env.get("DECKCHECK_MAX_BODY_BYTES", str(DEFAULT_MAX_BODY_BYTES))
        if not raw.isdigit() or not 1024 <= int(raw) <= 256 * 1024 * 1024:
            raise ConfigError(f"DECKCHECK_MAX_BODY_BYTES={raw!r} must be a whole number from 1024 to 268435456")
        return cls(data_dir=data_dir, max_body_bytes=int(raw))
