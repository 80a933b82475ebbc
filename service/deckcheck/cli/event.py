"""`deckcheck event`: an organiser's commands for an event kept in the events database (DECKCHECK_EVENTS_DB, by default
a SQLite file in the user's data folder): `create` makes the event and one staff token per role, `tokens` issues
another or ends one, `delete` removes the event with every personal datum in it. A token is printed once, when it is
made; the database keeps only its SHA-256."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

import orjson

from deckcheck.cli.output import EXIT_ERROR, EXIT_OK
from deckcheck.config import Settings
from deckcheck.data import Data
from deckcheck.errors import Error
from deckcheck.events import ROLES
from deckcheck.wire.inputs import bundled_list

if TYPE_CHECKING:
    from deckcheck.events import EventStore


def add_event_parser(commands: Any, date: Callable[[str], Any]) -> None:
    """`deckcheck event create|tokens|delete …`."""
    event = commands.add_parser("event", help="create an event and its staff tokens, issue or end tokens, delete it")
    actions = event.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create an event; print its id and a token per role, once")
    create.add_argument("--name", required=True, help="the event's name")
    create.add_argument("--date", required=True, type=date, help="the event's day, YYYY-MM-DD")
    create.add_argument("--format", required=True, choices=("ocg", "tcg"), help="the event's format")
    create.add_argument("--banlist", help="a bundled list id (default: the format's list in force on the day)")
    tokens = actions.add_parser("tokens", help="issue another staff token of a role, or end one (--revoke LABEL)")
    tokens.add_argument("event", help="the event's id")
    which = tokens.add_mutually_exclusive_group(required=True)
    which.add_argument("--role", choices=ROLES, help="the role of the token to issue")
    which.add_argument("--revoke", metavar="LABEL", help="end the token of this label instead")
    tokens.add_argument("--label", help="the label of the token issued (default: the role numbered, desk-2)")
    delete = actions.add_parser("delete", help="delete an event with its tokens, registrations and deck checks")
    delete.add_argument("event", help="the event's id")
    for action in (create, tokens, delete):
        action.add_argument("--json", action="store_true", help="print JSON instead of lines of text")


def run_event(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck event …`; 0 when done, 2 with one line naming what is wrong."""
    from deckcheck.events import EventStore  # noqa: PLC0415 - SQLAlchemy only for the commands that need it

    try:
        store = EventStore.open(settings.events_db)
    except Error as exc:
        print(f"deckcheck event {args.action}: {exc}", file=stderr)
        return EXIT_ERROR
    try:
        answer = _ACTIONS[args.action](args, store, data)
    except Error as exc:
        print(f"deckcheck event {args.action}: {exc}", file=stderr)
        return EXIT_ERROR
    finally:
        store.close()
    if args.json:
        stdout.write(orjson.dumps(answer).decode() + "\n")
    else:
        stdout.writelines(f"{key}: {value}\n" for key, value in _lines(answer))
    return EXIT_OK


def _create(args: argparse.Namespace, store: EventStore, data: Data) -> dict[str, Any]:
    if args.banlist is not None:
        bundled_list(args.banlist, args.format, data, ["--banlist"])
    event = store.create_event(args.name, args.date, args.format, args.banlist)
    issued = {role: store.issue_token(event.id, role) for role in ROLES}
    return {
        "event": event.id,
        "tokens": {role: token for role, (token, _label) in issued.items()},
        "labels": {role: label for role, (_token, label) in issued.items()},
    }


def _tokens(args: argparse.Namespace, store: EventStore, data: Data) -> dict[str, Any]:
    if args.revoke is not None:
        store.revoke_token(args.event, args.revoke)
        return {"event": args.event, "revoked": args.revoke}
    token, label = store.issue_token(args.event, args.role, args.label)
    return {"event": args.event, "role": args.role, "label": label, "token": token}


def _delete(args: argparse.Namespace, store: EventStore, data: Data) -> dict[str, Any]:
    return {"event": args.event, "deleted": True, "players": store.delete_event(args.event)}


_ACTIONS: dict[str, Callable[[argparse.Namespace, EventStore, Data], dict[str, Any]]] = {
    "create": _create,
    "tokens": _tokens,
    "delete": _delete,
}


def _lines(answer: dict[str, Any]) -> list[tuple[str, Any]]:
    """The answer as `key: value` lines, a token a line with its label (which `--revoke` takes)."""
    tokens, labels = answer.get("tokens", {}), answer.get("labels", {})
    return [(key, value) for key, value in answer.items() if key not in ("tokens", "labels")] + [
        (f"token {role} ({labels[role]})", token) for role, token in tokens.items()
    ]
