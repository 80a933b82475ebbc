"""The answers about the service itself: the problem body of every error (RFC 9457), the rule catalogue of
GET /v1/rules, and liveness and readiness."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

import deckcheck.wire.answers.examples as ex
from deckcheck.wire.answers.events import RegistrationOut
from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import Penalty, PenaltyBasis, ReadinessReason, RuleCode

PROBLEM_TYPE = (
    "The kind of problem, as `urn:deckcheck:problem:<kind>`: what a client acts on (the title, the status's phrase, is "
    "for people)."
)


class FieldError(WireModel):
    """One thing wrong with the request: where, what, and which kind; line and column point into a .ydk or text
    source (or an lflist text)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.FIELD_ERROR]})

    loc: list[str | int] = Field(
        description="Where: the part of the request (body, query, path, header) then the path to the field; "
        '["body", "main", 0, "count"] is the count of the first main-deck entry, ["body", "ydk"] a .ydk source.',
        examples=[["body", "ydk"]],
    )
    msg: str = Field(
        description="What is wrong, in English; for contradictory_facts, in the language of Accept-Language (en or "
        "ja, said by Content-Language), in words that name the infraction by its summary.",
        examples=["'Pot of Greed' is not a passcode"],
    )
    type: str = Field(
        description="A stable machine-readable kind: pydantic's error types where the request does not fit the "
        "schema (missing, int_type, greater_than_equal, literal_error, extra_forbidden, ...), and the service's own, "
        "such as json_invalid, body_too_large, body_timeout, unknown_banlist, banlist_format_mismatch, "
        "invalid_banlist_entry, roster_required, not_a_passcode, bad_count, ydke_base64, too_many_entries, "
        "name_too_long, infraction_undetermined, impossible_match_state, contradictory_facts (a fact given to POST "
        "/v1/penalties/assess contradicts the infraction chosen: every one is named).",
        examples=["not_a_passcode"],
    )
    line: int | None = Field(
        default=None, description="The line (from 1) of the .ydk, text or lflist source; absent if none.", examples=[3]
    )
    column: int | None = Field(
        default=None,
        description="The column (from 1) on that line, for a .ydk or text source; absent otherwise.",
        examples=[1],
    )
    fields: list[list[str | int]] | None = Field(
        default=None,
        description="For contradictory_facts: every field the contradiction is between, as locs (the infraction's "
        "code, then the fact, which is `loc`); absent otherwise.",
        examples=[[["body", "code"], ["body", "minutes_late"]]],
    )


class Problem(WireModel):
    """RFC 9457 problem details: every error answer (application/problem+json) has this body, with the fields that
    are wrong and the id of the request."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PROBLEM]})

    type: str = Field(
        pattern=r"^urn:deckcheck:problem:[a-z0-9-]+$",
        description=PROBLEM_TYPE,
        examples=["urn:deckcheck:problem:invalid-request"],
    )
    title: str = Field(description="The HTTP status's reason phrase.", examples=["Unprocessable Entity"])
    status: int = Field(description="The HTTP status code, the same as the answer's.", examples=[422])
    detail: str = Field(
        description="What went wrong, in English; for facts that contradict the infraction given to POST "
        "/v1/penalties/assess, in the language of Accept-Language (said by Content-Language), as are its errors.",
        examples=["'Pot of Greed' is not a passcode"],
    )
    errors: list[FieldError] = Field(
        description="Each thing wrong with the request; empty when the problem is not about a field (404 for an "
        "unknown path, 405, 431, 500, 503).",
        examples=[[ex.FIELD_ERROR]],
    )
    request_id: str = Field(
        description="The request's id, the same as the X-Request-ID answer header: the client's own X-Request-ID "
        "when it sent one of 1–128 letters, digits and ._:/+=@-, else 32 hex digits; quote it when reporting.",
        examples=["739a52ec436a4761bcae8c26be9e1eb6"],
    )
    current: RegistrationOut | None = Field(
        default=None,
        description="For precondition-failed on a registration: the player's registration that is current, which "
        "another desk made; absent otherwise.",
        examples=[None],
    )


class RuleOut(WireModel):
    """One rule of the catalogue: its code, what it forbids, where the rules say it, its penalty and the remedy."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.RULE]})

    code: RuleCode = Field(description="The violation code.", examples=["forbidden_card"])
    summary: str = Field(
        description="What the rule forbids, in the language of Accept-Language (en or ja).",
        examples=[ex.RULE["summary"]],
    )
    rule: str = Field(
        description="Where the rules say it: TR (tournament rules) and PR (penalty regulations) citations, joined "
        "by `, `.",
        examples=["TR 3", "TR 2.D.8"],
    )
    penalty: Penalty = Field(description="The penalty the regulations mandate.", examples=["duel_forfeiture"])
    penalty_basis: PenaltyBasis = Field(
        description="explicit when the regulations name the violation, by analogy when they name the closest one.",
        examples=["explicit"],
    )
    penalty_ref: str = Field(description="The item of the penalty regulations.", examples=["PR 3.A.3"])
    remedy: str = Field(description="What the player must do, in the answer's language.", examples=[ex.REPLACE])


# GET /healthz, GET /readyz (data_version, version and the sizes change with the data and the code)
NEWEST_LISTS: list[ex.Example] = [
    {"format": f, "id": i, "name": n, "effective_from": d, "next_list_due": due, "may_be_outdated": old}
    for f, i, n, d, due, old in (
        ("ocg", "ocg-2026-10-01", "OCG 2026.10", "2026-10-01", "2027-01-01", False),
        ("tcg", "tcg-2026-05-18", "TCG 2026.05", "2026-05-18", "2026-11-14", True),
    )
]
LISTS_IN_FORCE: list[ex.Example] = [  # on 2026-12-01 the newest lists are the ones in force
    {key: value for key, value in newest.items() if key != "next_list_due"} for newest in NEWEST_LISTS
]
UPDATES_DIR = "/home/deckcheck/.local/share/deckcheck/updates"
WATCHED: ex.Example = {"updates_dir": UPDATES_DIR, "updates_poll_seconds": 2.0, "stale": None}
STALE: ex.Example = {"since": "2026-12-01T00:00:00Z", "problem": "is gone (moved, unmounted or removed)"}
STALE |= {"file": UPDATES_DIR, "entry": "folder"}
HEALTH: ex.Example = {
    "status": "ok",
    "cards": 14216,
    "banlists": 133,
    "imports": 1,
    "lists_in_force": LISTS_IN_FORCE,
    "newest_lists": NEWEST_LISTS,
    "printings_complete_until": "2025-11-15",
    "printings_may_be_missing": True,
    "data_version": "82e4c1430bb70274",
    "loaded": "2026-12-01T00:00:00Z",
    **WATCHED,
    "version": "0.1.0",
}
READINESS: ex.Example = {
    "status": "ready",
    "reasons": [],
    "checks": 0,
    "data_version": "82e4c1430bb70274",
    "newest_lists": NEWEST_LISTS,
    **WATCHED,
}


class NewestList(WireModel):
    """The list of a format that starts last, and whether a newer one may be in force by the usual cadence."""

    model_config = ConfigDict(json_schema_extra={"examples": [NEWEST_LISTS[0]]})

    format: Literal["ocg", "tcg"] = Field(description="The list's format.", examples=["ocg"])
    id: str = Field(description="The list's id.", examples=["ocg-2026-10-01"])
    name: str = Field(description="The list's name.", examples=["OCG 2026.10"])
    effective_from: str | None = Field(description="The day the list took effect.", examples=["2026-10-01"])
    next_list_due: str | None = Field(
        description="The first day a list after it may take effect, by the cadence in the settings "
        "(DECKCHECK_OCG_LIST_MONTHS, DECKCHECK_TCG_LIST_DAYS).",
        examples=["2027-01-01"],
    )
    may_be_outdated: bool = Field(
        description="Whether today is on or after next_list_due: a newer list than this one may be in force.",
        examples=[False],
    )


class ListInForce(WireModel):
    """The list of a format in force today, and whether a newer one than it may be in force by the usual cadence."""

    model_config = ConfigDict(json_schema_extra={"examples": [LISTS_IN_FORCE[0]]})

    format: Literal["ocg", "tcg"] = Field(description="The list's format.", examples=["ocg"])
    id: str = Field(description="The list's id.", examples=["ocg-2026-10-01"])
    name: str = Field(description="The list's name.", examples=["OCG 2026.10"])
    effective_from: str = Field(description="The day the list took effect.", examples=["2026-10-01"])
    may_be_outdated: bool = Field(
        description="Whether it is the newest list held and today is on or after the day a newer one was due.",
        examples=[False],
    )


class StaleData(WireModel):
    """Why the data served are not what the updates folder holds: a load of it failed (a reload, or this process's
    start, which then loaded the last good data kept on disk), and the data before were kept."""

    model_config = ConfigDict(json_schema_extra={"examples": [STALE]})

    since: str = Field(
        description="When the first load to fail since the last good one failed (UTC).", examples=[STALE["since"]]
    )
    problem: str = Field(description="What the last load to fail found wrong.", examples=[STALE["problem"]])
    file: str | None = Field(description="The file or folder at fault; null when not known.", examples=[UPDATES_DIR])
    entry: str | None = Field(description="The entry or key at fault; null when not known.", examples=["folder"])


class Watched(WireModel):
    """The updates folder a service reads, how often it looks at it, and whether the data served are stale."""

    updates_dir: str = Field(
        description="The updates folder whose lists and cards are laid over the bundled data "
        "(DECKCHECK_UPDATES_DIR, else the user's data folder).",
        examples=["/home/deckcheck/.local/share/deckcheck/updates"],
    )
    updates_poll_seconds: float = Field(
        description="Seconds between looks at the data files, a change reloading the data (DECKCHECK_UPDATES_POLL); "
        "0: only SIGHUP reloads.",
        examples=[2.0],
    )
    stale: StaleData | None = Field(
        default=None,
        description="null when the data served are those of the last load of the folder; else why they are not: "
        "the data loaded last with success are served until a reload succeeds (SIGHUP, or a change of the folder).",
        examples=[None, STALE],
    )


class Health(Watched):
    """Liveness: the process answers, with the size of its data and the versions every answer depends on."""

    model_config = ConfigDict(json_schema_extra={"examples": [HEALTH]})

    status: Literal["ok"] = Field(description="Always ok.", examples=["ok"])
    cards: int = Field(description="Canonical cards loaded.", examples=[14216])
    banlists: int = Field(description="Forbidden/Limited lists loaded, of both formats.", examples=[133])
    imports: int = Field(
        description="Imports recorded into the data and the updates folder (`deckcheck data`).", examples=[1]
    )
    lists_in_force: list[ListInForce] = Field(
        description="The list of each format in force today.", examples=[LISTS_IN_FORCE]
    )
    newest_lists: list[NewestList] = Field(description="The newest list of each format.", examples=[NEWEST_LISTS])
    printings_complete_until: str | None = Field(
        description="The day the card printings are complete until: a card first printed after it may be missing.",
        examples=["2025-11-15"],
    )
    printings_may_be_missing: bool = Field(
        description="Whether today is after printings_complete_until.", examples=[True]
    )
    loaded: str = Field(
        description="When the data were loaded (UTC), at start-up or by a reload.", examples=["2026-12-01T00:00:00Z"]
    )
    data_version: str = Field(
        pattern=r"^[0-9a-f]{16}$",
        description="16 hex digits hashing the bundled data, the ruleset, the package's version and its code: the "
        "value of the Deckcheck-Data-Version header and of every ETag. It changes whenever an answer may change.",
        examples=["82e4c1430bb70274"],
    )
    version: str = Field(description="The deckcheck package's version.", examples=["0.1.0"])


class Readiness(Watched):
    """Readiness: whether a new check would be admitted now (200), or why not (503, with Retry-After)."""

    model_config = ConfigDict(json_schema_extra={"examples": [READINESS]})

    status: Literal["ready", "not_ready"] = Field(description="ready (200) or not_ready (503).", examples=["ready"])
    reasons: list[ReadinessReason] = Field(
        description="Why it is not ready; empty when ready.", examples=[["saturated"]]
    )
    checks: int = Field(description="Checks running or waiting for a thread now.", examples=[0])
    data_version: str = Field(
        pattern=r"^[0-9a-f]{16}$", description="The data version served (as /healthz).", examples=["82e4c1430bb70274"]
    )
    newest_lists: list[NewestList] = Field(description="The newest list of each format.", examples=[NEWEST_LISTS])
