"""Settings: one typed object, read once from DECKCHECK_* environment variables at start-up, with defaults that
work out of the box. docs/operators/service.md lists every one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from deckcheck.data import DEFAULT_DATA_DIR, Cadence, DataSource
from deckcheck.data.watchers import default_updates_dir
from deckcheck.errors import InvalidInput
from deckcheck.origins import parse_origins

Seconds = Annotated[float, Field(gt=0, le=3600)]
_MIB = 1024 * 1024


class ConfigError(InvalidInput):
    """An environment variable holds nonsense; start-up stops with this message."""


class Settings(BaseSettings):
    """Where the data live, what one request may cost, and how the server treats connections."""

    model_config = SettingsConfigDict(
        env_prefix="DECKCHECK_", frozen=True, extra="ignore", validate_default=True, use_attribute_docstrings=True
    )

    data_dir: Path = DEFAULT_DATA_DIR
    """The folder holding cards/ and banlists/ (default: the data bundled with the package), replaced whole."""
    updates_dir: Path | None = None
    """The folder of lists and cards added with `deckcheck data` and laid over the data (default: the user's data
    folder, ~/.local/share/deckcheck/updates on Linux, made when first used)."""
    updates_poll: Annotated[float, Field(ge=0, le=3600)] = 2.0
    """Seconds between looks at the sizes and times of the data files, each change reloading the data; 0: only
    SIGHUP."""
    ocg_list_months: Annotated[tuple[int, ...], NoDecode] = (1, 4, 7, 10)
    """Months on whose first day a new OCG list takes effect; an answer on a later day than the next of them after
    the newest OCG list says a newer one may be in force."""
    tcg_list_days: Annotated[int, Field(ge=1, le=3650)] = 180
    """Days after which a TCG list may have been followed by another; an answer past them says so."""
    max_body_bytes: Annotated[int, Field(ge=1024, le=256 * _MIB)] = _MIB
    """Largest request body in bytes; /v1/rechecks limits each line instead."""
    body_timeout: Seconds = 10.0
    """Seconds a request body may pause before the answer is 408; a body other than a recheck's must also arrive
    within three times this in all."""
    body_min_rate: Annotated[float, Field(ge=1, le=1024 * _MIB)] = 512.0
    """Bytes a second a recheck's body must arrive at, past its first body timeout, counting only the time spent
    waiting for it; slower, the recheck ends with an error line."""
    max_paper_bytes: Annotated[int, Field(ge=1024, le=256 * _MIB)] = 20 * _MIB
    """Largest photo, scan or PDF POST /v1/decks/read takes, in bytes; past it, 413."""
    paper_threads: Annotated[int, Field(ge=1, le=64)] = 1
    """Papers read at once in one process, on threads of their own, apart from the checks'."""
    paper_waiting: Annotated[int, Field(ge=0, le=1000)] = 4
    """Papers that may wait for a free reading thread; past that, 503."""
    paper_seconds: Annotated[float, Field(gt=0, le=600)] = 20.0
    """Seconds one paper may take to read, its wait for a thread aside; past them, 504."""
    check_threads: Annotated[int, Field(ge=1, le=64)] = 2
    """Checks that run at once in one process."""
    max_waiting: Annotated[int, Field(ge=0, le=10_000)] = 128
    """Checks that may wait for a free thread; past that, requests are refused with 503 by their head alone, before
    their bodies are read."""
    queue_seconds: Seconds = 10.0
    """Seconds an admitted check or paper may wait for a thread; past them it is refused with 503, not run after its
    client has likely stopped waiting."""
    max_rechecks: Annotated[int, Field(ge=1, le=1000)] = 4
    """Rechecks that may run at once in one process; past that, new ones are refused with 503."""
    max_held_bytes: Annotated[int, Field(ge=_MIB, le=1024 * 1024 * _MIB)] = 2 * 1024 * _MIB
    """Result bytes one recheck may keep on disk with Deckcheck-Hold-Results: 1; past it, 413."""
    retry_after: Annotated[int, Field(ge=1, le=3600)] = 1
    """Seconds a 503 asks the client to wait (Retry-After)."""
    inline_lag: Annotated[float, Field(ge=0, le=10)] = 0.002
    """Seconds a check of a small deck (api/validate.py) may find the event loop behind, its request having waited
    that long for it since its head was read, and still run on the loop; past them it waits for a check thread as
    any other, so that /healthz and the queue's bounds hold under a flood; 0: every check on a thread."""
    refusal_pause: Annotated[float, Field(ge=0, le=60)] = 1.0
    """Seconds a request refused for a full queue waits for its 503, spread over half to one and a half of them: a
    client that retries at once is held to this pace; 0: refuse at once."""
    refusal_rate: Annotated[float, Field(gt=0, le=100_000)] = 100.0
    """Refusals a second one process sends while many are held: past it, each waits longer than
    DECKCHECK_REFUSAL_PAUSE, up to 5 s at the middle of its spread, so that a flood of clients retrying at once costs
    the checks no more (up to 5 s times this many held; past that, every refusal waits 5 s on average)."""
    max_head_bytes: Annotated[int, Field(ge=8 * 1024, le=_MIB)] = 64 * 1024
    """Largest request head (request line and headers) in bytes; past it, 431."""
    max_connections: Annotated[int, Field(ge=2, le=100_000)] = 1000
    """Connections the server holds open; a new one past this closes the longest idle (as nginx reuses its idle
    keep-alive connections), and requests in progress past it are answered 503 at once."""
    head_timeout: Seconds = 5.0
    """Seconds a connection may take to send a whole request head, from its first byte or its opening; past them it
    is closed (408 if part of a head came)."""
    send_timeout: Seconds = 30.0
    """Seconds a client may read nothing of an answer that waits for it; past them the connection is dropped, and
    the request behind it (a recheck's slot) freed."""
    keep_alive_timeout: Annotated[int, Field(ge=1, le=3600)] = 5
    """Seconds an idle keep-alive connection is held open."""
    drain_seconds: Annotated[float, Field(ge=0, le=3600)] = 0.0
    """Seconds between SIGTERM and the server closing its port, while /readyz answers 503 shutting_down."""
    shutdown_timeout: Annotated[int, Field(ge=1, le=3600)] = 20
    """Seconds running requests get to finish after SIGTERM."""
    access_log: bool = True
    """One JSON line per request on stderr."""
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """The least severe log messages written."""
    cors_origins: Annotated[tuple[str, ...], NoDecode] = ("*",)
    """Origins whose pages may call the API from a browser, as a JSON list or separated by commas, each read as the
    scheme://host[:port] a browser sends (deckcheck/origins.py); ["*"]: any (the API has no cookies or credentials);
    [] or nothing: none."""
    cors_max_age: Annotated[int, Field(ge=0, le=86_400)] = 600
    """Seconds a browser may keep a preflight answer."""
    events_db: str | None = None
    """Where events are kept (deckcheck.events): postgresql://user:password@host/db for a server that several
    processes or machines share, or sqlite:///path for a file; default a SQLite file in the user's data folder
    (~/.local/share/deckcheck/events.sqlite3 on Linux), made when first used."""
    cache_max_age: Annotated[int, Field(ge=0, le=31_536_000)] = 3600
    """Seconds a client or shared cache may keep a card, list or rule answer (Cache-Control max-age)."""

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, origins: object) -> tuple[str, ...]:
        return parse_origins(origins)

    @field_validator("ocg_list_months", mode="before")
    @classmethod
    def _months(cls, months: object) -> object:
        if isinstance(months, str):
            return [month.strip() for month in months.split(",") if month.strip()]
        return months

    @field_validator("ocg_list_months")
    @classmethod
    def _real_months(cls, months: tuple[int, ...]) -> tuple[int, ...]:
        if not months or any(not 1 <= month <= 12 for month in months):
            raise ValueError("months are 1 to 12, at least one, separated by commas")
        return tuple(sorted(set(months)))

    def updates_folder(self, *, made: bool = True) -> Path:
        """The updates folder: DECKCHECK_UPDATES_DIR, which must be a folder unless `made` is False, else the
        default one, made when missing. A serving process asks with `made` False: a folder gone while the service
        runs fails its load, not its settings, and a process started then serves the last good data
        (api/live_data.py)."""
        if self.updates_dir is not None:
            if made and not self.updates_dir.is_dir():
                raise ConfigError(
                    f"DECKCHECK_UPDATES_DIR={self.updates_dir}: not a folder "
                    "(make it first: the commands of `deckcheck data` fill it)"
                )
            return self.updates_dir
        folder = default_updates_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(
                f"the default updates folder {folder} cannot be made ({exc.strerror}): set DECKCHECK_UPDATES_DIR"
            ) from None
        return folder

    def data_source(self, *, made: bool = True) -> DataSource:
        """Where the data are read from, and the cadence of new lists their answers are weighed by (`made`: as
        `updates_folder` takes it)."""
        folder = self.updates_folder(made=made)
        return DataSource(self.data_dir, folder, Cadence(self.ocg_list_months, self.tcg_list_days))

    @field_validator("data_dir")
    @classmethod
    def _holds_data(cls, data_dir: Path) -> Path:
        if not (data_dir / "cards").is_dir() or not (data_dir / "banlists").is_dir():
            raise ValueError("not a folder holding cards/ and banlists/")
        return data_dir


def load_settings() -> Settings:
    """The settings the environment gives; a ConfigError naming each variable that holds nonsense."""
    try:
        return Settings()
    except ValidationError as exc:
        problems = [
            f"DECKCHECK_{'_'.join(str(p) for p in e['loc']).upper()}={e.get('input')}: "
            + (str(e["ctx"]["error"]) if e["type"] == "value_error" else e["msg"])
            for e in exc.errors()
        ]
        raise ConfigError("; ".join(problems)) from None
