"""The events database (deckcheck.events): its schema as the migrations make it, staff tokens, registrations and
their versions under concurrent desks, the list of players, a change of list, deck checks and the deletion of an
event, each on SQLite and on a real PostgreSQL server; and what each backend keeps across its own failures."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import stat
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

from deckcheck import Data
from deckcheck.errors import InvalidInput, NotFound
from deckcheck.events import (
    NEW,
    STATUSES,
    DeckCheck,
    Event,
    EventStore,
    EventsUnavailable,
    ListChanged,
    NewRegistration,
    Registration,
    Staff,
    StaleVersion,
    judge,
)
from deckcheck.events.database import MIGRATIONS, engine_for
from deckcheck.events.tables import deck_checks, events, metadata, players, registrations, tokens
from tests.postgres import PostgresServer

pytestmark = pytest.mark.server

T = TypeVar("T")

# A deck as a desk gives it: three copies of one card and one of another in the main deck, one in the extra deck
# (real passcodes of the bundled data; far too few cards to be legal).
DECK: dict[str, Any] = {"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!viOnAg==!!"}
DAY = dt.date(2025, 7, 1)
# Threads that race for one player, each with a desk of its own: no more than the PostgreSQL pool's connections.
RACERS = 8
# Seconds a thread waits at the barrier for the others before the race is called off.
BARRIER_SECONDS = 60


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty events database: a SQLite file in the test's folder, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'events.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[EventStore]:
    """A store over the empty database, closed after the test."""
    opened = EventStore.open(store_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def event(store: EventStore) -> Event:
    """An OCG event on the store."""
    return store.create_event("Summer Regional", DAY, "ocg", None)


def new(name: str = "Yamada Taro", card_game_id: str | None = "0123456789", status: str = "legal") -> NewRegistration:
    """A registration of DECK by the desk."""
    return NewRegistration(name=name, card_game_id=card_game_id, deck=DECK, source="ydke", status=status)


def desk(store: EventStore, event: Event, label: str | None = None) -> Staff:
    """A new desk token at the event, as the store reads it back."""
    token, _ = store.issue_token(event.id, "desk", label)
    staff = staff_of(store, token)
    assert staff is not None
    return staff


def staff_of(store: EventStore, token: str) -> Staff | None:
    """Who the token is, as the store reads it with its event (which must be the token's)."""
    found = store.access(token)
    if found is None:
        return None
    staff, event = found
    assert event == store.event(staff.event)
    return staff


def race(count: int, work: Callable[[int], T]) -> list[T | Exception]:
    """`work(0)` … `work(count - 1)`, each in a thread of its own, all let go at once: what each returned or
    raised, in order."""
    barrier = threading.Barrier(count)

    def run(index: int) -> T:
        barrier.wait(timeout=BARRIER_SECONDS)
        return work(index)

    with ThreadPoolExecutor(count) as pool:
        futures = [pool.submit(run, index) for index in range(count)]
    outcomes: list[T | Exception] = []
    for future in futures:
        error = future.exception()
        if error is not None and not isinstance(error, Exception):
            raise error
        outcomes.append(future.result() if error is None else error)
    return outcomes


def count_rows(store: EventStore, table: sa.Table, **where: str) -> int:
    """How many rows of `table` have the given column values."""
    with store.engine.connect() as connection:
        query = sa.select(sa.func.count()).select_from(table)
        query = query.where(*(table.c[column] == value for column, value in where.items()))
        return int(connection.execute(query).scalar_one())


def rows_of_event(store: EventStore, event_id: str) -> dict[str, int]:
    """How many rows of each table belong to the event."""
    return {
        table.name: count_rows(store, table, **{"id" if table is events else "event_id": event_id})
        for table in metadata.sorted_tables
    }


def a_check(player: str, version: int, round_: int) -> DeckCheck:
    """A deck check of DECK, found legal."""
    return DeckCheck(
        player=player,
        version=version,
        round=round_,
        duel=1,
        phase="between_duels",
        deck=DECK,
        legal=True,
        penalty=None,
        codes=[],
    )


# The schema.


def test_the_migrations_make_exactly_the_tables_the_queries_describe(store: EventStore) -> None:
    store.schema.ensure()

    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)

    assert differences == []


def test_ensuring_the_schema_again_keeps_it_and_its_rows(store_url: str, store: EventStore, event: Event) -> None:
    """A second ensure() of the same store, and a first of another store over the migrated database, change
    nothing: the migration is recorded once and the event stays."""
    store.schema.ensure()
    store.schema.ensure()
    again = EventStore.open(store_url)
    try:
        again.schema.ensure()
        assert again.event(event.id) == event
    finally:
        again.close()

    with store.engine.connect() as connection:
        versions = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    assert versions == ["0002"]


def test_a_database_of_the_first_migration_gets_its_names_folded_for_the_search(store_url: str) -> None:
    """A database made before the names were folded (migration 0001) keeps its players, and the search finds them
    by their names after the next migration, as it finds players registered after it."""
    engine = engine_for(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        when = dt.datetime(2026, 12, 5, tzinfo=dt.UTC)
        connection.execute(
            events.insert().values(id="ev-0123456789", name="Old", date=DAY, format="ocg", created_at=when)
        )
        for player, name in (("A-1", "Émile Zola"), ("A-2", "ＹＡＭＡＤＡ Ｔａｒｏ"), ("A-3", "Suzuki Hanako")):
            row = {"version": 1, "name": name, "card_game_id": None, "status": "legal", "updated_at": when}
            connection.execute(sa.table("players", *map(sa.column, ["event_id", "player", *row])).insert().values(
                event_id="ev-0123456789", player=player, **row
            ))  # fmt: skip
    store = EventStore(engine)
    try:
        found = {query: [row.player for row in store.players("ev-0123456789", None, query, 0, 10)[0]]
                 for query in ("émile", "ｙａｍａｄａ", "hanako", "zz")}  # fmt: skip
        assert found == {"émile": ["A-1"], "ｙａｍａｄａ": ["A-2"], "hanako": ["A-3"], "zz": []}
    finally:
        store.close()


def test_two_stores_migrating_the_same_database_at_once_both_succeed(store_url: str) -> None:
    """Two servers starting on one new database at the same moment: one makes the schema, the other waits for
    its lock and finds it made."""
    stores = [EventStore.open(store_url), EventStore.open(store_url)]
    try:
        outcomes = race(2, lambda index: stores[index].schema.ensure())
        assert outcomes == [None, None]
        made = stores[0].create_event("Regional", DAY, "ocg", None)
        assert stores[1].event(made.id) == made
    finally:
        for opened in stores:
            opened.close()


# Events and staff tokens.


def test_an_event_reads_back_as_created(store: EventStore) -> None:
    made = store.create_event("Summer Regional", DAY, "tcg", "2025-04")

    assert store.event(made.id) == Event(made.id, "Summer Regional", DAY, "tcg", "2025-04")
    with pytest.raises(NotFound):
        store.event("ev-none")


def test_tokens_are_labelled_by_role_and_number_and_say_who_holds_them(store: EventStore, event: Event) -> None:
    first, first_label = store.issue_token(event.id, "desk")
    second, second_label = store.issue_token(event.id, "desk")
    judge_token, judge_label = store.issue_token(event.id, "judge")
    named, named_label = store.issue_token(event.id, "organiser", "Head organiser")

    assert (first_label, second_label, judge_label, named_label) == ("desk-1", "desk-2", "judge-1", "Head organiser")
    assert staff_of(store, first) == Staff(event.id, "desk", "desk-1")
    assert staff_of(store, second) == Staff(event.id, "desk", "desk-2")
    assert staff_of(store, judge_token) == Staff(event.id, "judge", "judge-1")
    assert staff_of(store, named) == Staff(event.id, "organiser", "Head organiser")
    assert staff_of(store, "dck_not-a-token") is None


def test_a_label_the_event_has_is_refused(store: EventStore, event: Event) -> None:
    store.issue_token(event.id, "desk")

    with pytest.raises(InvalidInput) as raised:
        store.issue_token(event.id, "judge", "desk-1")

    assert raised.value.errors[0]["type"] == "label_taken"
    assert count_rows(store, tokens, event_id=event.id) == 1


def test_the_same_label_at_another_event_is_allowed(store: EventStore, event: Event) -> None:
    other = store.create_event("Winter Regional", DAY, "ocg", None)
    store.issue_token(event.id, "desk")

    token, label = store.issue_token(other.id, "desk")

    assert label == "desk-1"
    assert staff_of(store, token) == Staff(other.id, "desk", "desk-1")


def test_a_numbered_label_skips_one_given_by_hand(store: EventStore, event: Event) -> None:
    """Tokens issued without a label are numbered past the labels the event has, even one an organiser chose
    that looks like a number of the role's, rather than refused for it."""
    store.issue_token(event.id, "desk", "desk-2")

    issued = [store.issue_token(event.id, "desk") for _ in range(3)]

    labels = [label for _, label in issued]
    assert len({"desk-2", *labels}) == 4
    assert all(label.startswith("desk-") and label.removeprefix("desk-").isdigit() for label in labels)
    assert [staff_of(store, token) for token, _ in issued] == [Staff(event.id, "desk", label) for label in labels]


def test_a_token_for_no_event_is_not_issued(store: EventStore) -> None:
    with pytest.raises(NotFound):
        store.issue_token("ev-none", "desk")


def test_a_revoked_token_is_no_one_and_the_others_stay(store: EventStore, event: Event) -> None:
    kept, _ = store.issue_token(event.id, "desk")
    ended, label = store.issue_token(event.id, "desk")

    store.revoke_token(event.id, label)

    assert staff_of(store, ended) is None
    assert staff_of(store, kept) == Staff(event.id, "desk", "desk-1")
    with pytest.raises(NotFound):
        store.revoke_token(event.id, label)


def test_a_token_is_kept_only_as_its_sha256(store: EventStore, event: Event) -> None:
    token, _ = store.issue_token(event.id, "organiser")

    with store.engine.connect() as connection:
        kept = [dict(row) for row in connection.execute(tokens.select()).mappings()]

    assert [row["digest"] for row in kept] == [hashlib.sha256(token.encode()).hexdigest()]
    assert not any(token in str(value) for row in kept for value in row.values())


# Registrations.


def test_each_registration_is_a_new_version_and_the_earlier_are_kept(store: EventStore, event: Event) -> None:
    staff = desk(store, event)

    first = store.register(staff, "p1", new("Yamada Taro", status="illegal"), NEW, event)
    second = store.register(staff, "p1", new("Yamada Taro", status="needs_review"), 1, event)
    third = store.register(staff, "p1", new("Yamada Tarou", "9876543210", "legal"), None, event)

    assert [first.version, second.version, third.version] == [1, 2, 3]
    assert store.registration(event.id, "p1") == third
    assert store.registration(event.id, "p1", 1) == first
    assert store.registration(event.id, "p1", 2) == second
    assert store.registration(event.id, "p1", 4) is None
    assert store.registration(event.id, "p2") is None
    assert first.deck == DECK
    assert first.registered_by == "desk-1"
    assert first.registered_at.tzinfo is not None
    assert count_rows(store, registrations, event_id=event.id) == 3
    [row], total = store.players(event.id, None, None, 0, 10)
    assert (total, row.version, row.name, row.card_game_id, row.status) == (1, 3, "Yamada Tarou", "9876543210", "legal")


def test_a_first_registration_of_a_registered_player_is_stale(store: EventStore, event: Event) -> None:
    store.register(desk(store, event), "p1", new("Yamada Taro"), NEW, event)

    with pytest.raises(StaleVersion) as raised:
        store.register(desk(store, event), "p1", new("Suzuki Hanako"), NEW, event)

    assert raised.value.current is not None
    assert (raised.value.current.version, raised.value.current.name) == (1, "Yamada Taro")
    assert raised.value.current.registered_by == "desk-1"
    assert count_rows(store, registrations, event_id=event.id) == 1


def test_a_registration_following_an_old_version_is_stale(store: EventStore, event: Event) -> None:
    staff = desk(store, event)
    store.register(staff, "p1", new(), NEW, event)
    winner = store.register(staff, "p1", new("Yamada Tarou"), 1, event)

    with pytest.raises(StaleVersion) as raised:
        store.register(staff, "p1", new("Yamada Taro"), 1, event)

    assert raised.value.current == winner
    assert store.registration(event.id, "p1") == winner


def test_a_registration_following_a_version_of_no_player_is_stale(store: EventStore, event: Event) -> None:
    with pytest.raises(StaleVersion) as raised:
        store.register(desk(store, event), "p1", new(), 1, event)

    assert raised.value.current is None
    assert count_rows(store, players, event_id=event.id) == 0


def test_desks_registering_one_new_player_at_once_make_one_registration(store: EventStore, event: Event) -> None:
    """RACERS desks register the same new player as their first at the same moment: one wins, the others are told
    it is stale and given the winner."""
    desks = [desk(store, event) for _ in range(RACERS)]

    outcomes = race(RACERS, lambda index: store.register(desks[index], "p1", new(f"Player {index}"), NEW, event))

    won = [outcome for outcome in outcomes if isinstance(outcome, Registration)]
    lost = [outcome for outcome in outcomes if isinstance(outcome, StaleVersion)]
    assert len(won) == 1
    assert len(lost) == RACERS - 1
    assert won[0].version == 1
    assert all(stale.current == won[0] for stale in lost)
    assert count_rows(store, registrations, event_id=event.id) == 1
    assert store.registration(event.id, "p1") == won[0]


def test_desks_registering_one_player_again_at_once_make_one_version(store: EventStore, event: Event) -> None:
    """RACERS desks each register version 2 of a player registered once: one wins, the others are stale."""
    desks = [desk(store, event) for _ in range(RACERS)]
    store.register(desks[0], "p1", new(), NEW, event)

    outcomes = race(RACERS, lambda index: store.register(desks[index], "p1", new(f"Player {index}"), 1, event))

    won = [outcome for outcome in outcomes if isinstance(outcome, Registration)]
    lost = [outcome for outcome in outcomes if isinstance(outcome, StaleVersion)]
    assert [registration.version for registration in won] == [2]
    assert len(lost) == RACERS - 1
    assert all(stale.current == won[0] for stale in lost)
    assert count_rows(store, registrations, event_id=event.id) == 2
    assert store.registration(event.id, "p1") == won[0]


def test_registrations_of_many_players_from_several_desks_are_all_kept(store: EventStore, event: Event) -> None:
    """200 players registered by 4 desks at once, 50 each: every one kept once."""
    desks = [desk(store, event) for _ in range(4)]

    def register_fifty(index: int) -> list[int]:
        return [
            store.register(desks[index], f"p{index}-{number:02}", new(f"Player {index}-{number}"), NEW, event).version
            for number in range(50)
        ]

    outcomes = race(4, register_fifty)

    assert outcomes == [[1] * 50] * 4
    listed, total = store.players(event.id, None, None, 0, 1000)
    assert total == 200
    assert sorted(row.player for row in listed) == sorted(f"p{i}-{n:02}" for i in range(4) for n in range(50))
    assert count_rows(store, registrations, event_id=event.id) == 200


# The list of players.


def registered_players(store: EventStore, event: Event, people: list[tuple[str, str, str | None, str]]) -> None:
    """Register each (player, name, CARD GAME ID, status)."""
    staff = desk(store, event)
    for player, name, card_game_id, status in people:
        store.register(staff, player, new(name, card_game_id, status), NEW, event)


def test_the_players_come_a_page_at_a_time_by_id(store: EventStore, event: Event) -> None:
    registered_players(store, event, [(f"p{n:02}", f"Player {n}", None, "legal") for n in range(12, 0, -1)])

    first, total = store.players(event.id, None, None, 0, 5)
    last, also_total = store.players(event.id, None, None, 10, 5)
    beyond, still_total = store.players(event.id, None, None, 20, 5)

    assert total == also_total == still_total == 12
    assert [row.player for row in first] == ["p01", "p02", "p03", "p04", "p05"]
    assert [row.player for row in last] == ["p11", "p12"]
    assert beyond == []


def test_the_players_of_one_status(store: EventStore, event: Event) -> None:
    statuses = [STATUSES[n % len(STATUSES)] for n in range(9)]
    registered_players(store, event, [(f"p{n}", f"Player {n}", None, status) for n, status in enumerate(statuses)])

    for status in STATUSES:
        listed, total = store.players(event.id, status, None, 0, 2)
        assert total == statuses.count(status)
        assert [row.status for row in listed] == [status, status]
    assert store.counts(event.id) == {status: statuses.count(status) for status in STATUSES}


def test_the_players_of_another_event_are_not_listed(store: EventStore, event: Event) -> None:
    other = store.create_event("Winter Regional", DAY, "ocg", None)
    registered_players(store, event, [("p1", "Yamada Taro", None, "legal")])
    registered_players(store, other, [("p1", "Suzuki Hanako", None, "legal"), ("p2", "Sato Jiro", None, "legal")])

    listed, total = store.players(event.id, None, None, 0, 10)

    assert total == 1
    assert [row.name for row in listed] == ["Yamada Taro"]


PEOPLE: list[tuple[str, str, str | None, str]] = [
    ("A-001", "Yamada Taro", "0000000001", "legal"),
    ("A-002", "山田 花子", "0000000002", "illegal"),
    ("A-003", "Suzuki Ichiro", None, "legal"),
    ("B-100", "100% Pure", "0000000100", "legal"),
    ("B-101", "1000 Pure", "0000000101", "legal"),
    ("B-102", "Mr_X", "0000000102", "legal"),
    ("B-103", "MrAX", "0000000103", "legal"),
    ("B-104", "Back\\slash", "0000000104", "legal"),
]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        pytest.param("a-00", ["A-001", "A-002", "A-003"], id="id, case folded"),
        pytest.param("YAMADA", ["A-001"], id="name, case folded"),
        pytest.param("yamada taro", ["A-001"], id="name with a space"),
        pytest.param("山田", ["A-002"], id="Japanese name"),
        pytest.param("0000000002", ["A-002"], id="CARD GAME ID"),
        pytest.param("00000001", ["A-001", "B-100", "B-101", "B-102", "B-103", "B-104"], id="CARD GAME ID part"),
        pytest.param("0%", ["B-100"], id="percent sign literally"),
        pytest.param("r_x", ["B-102"], id="underscore literally"),
        pytest.param("k\\s", ["B-104"], id="backslash literally"),
        pytest.param("%", ["B-100"], id="percent sign alone"),
        pytest.param("nobody", [], id="no match"),
    ],
)
def test_a_query_finds_players_by_id_name_or_card_game_id(
    store: EventStore, event: Event, query: str, found: list[str]
) -> None:
    registered_players(store, event, PEOPLE)

    listed, total = store.players(event.id, None, query, 0, 100)

    assert [row.player for row in listed] == found
    assert total == len(found)


def test_a_query_and_a_status_together(store: EventStore, event: Event) -> None:
    registered_players(store, event, PEOPLE)

    listed, total = store.players(event.id, "illegal", "a-", 0, 100)

    assert [row.player for row in listed] == ["A-002"]
    assert total == 1


@pytest.mark.parametrize(
    ("name", "query"),
    [
        pytest.param("Émile Zola", "Émile", id="accented capital, as written"),
        pytest.param("Émile Zola", "émile", id="accented capital, lower case"),
        pytest.param("ＹＡＭＡＤＡ Ｔａｒｏ", "ＹＡＭＡＤＡ", id="full-width letters, as written"),
        pytest.param("ＹＡＭＡＤＡ Ｔａｒｏ", "ｙａｍａｄａ", id="full-width letters, lower case"),
    ],
)
def test_a_query_folds_the_case_of_letters_beyond_ascii(store: EventStore, event: Event, name: str, query: str) -> None:
    """A name with capitals beyond ASCII (accented, or the full-width letters Japanese input gives) is found by
    the name as written and in lower case, as the list's search is documented to fold case."""
    registered_players(store, event, [("p1", name, None, "legal")])

    listed, total = store.players(event.id, None, query, 0, 10)

    assert [row.name for row in listed] == [name]
    assert total == 1


# A change of list.


def test_a_change_of_list_judges_every_player_again(store: EventStore, event: Event) -> None:
    """The judge's status replaces each player's; those whose status changed come back with the one before,
    and the registrations keep the status they were made with."""
    registered_players(store, event, [("p1", "Yamada Taro", None, "legal"), ("p2", "Suzuki Ichiro", None, "illegal")])
    text_deck = NewRegistration("Sato Jiro", None, {"text": "Pot of Greed"}, "text", "legal")
    store.register(desk(store, event), "p3", text_deck, NEW, event)
    judged: list[dict[str, Any]] = []

    def judge_deck(deck: dict[str, Any]) -> str:
        judged.append(deck)
        return "illegal" if deck == DECK else "needs_review"

    changed = store.change_list(event.id, "2025-04", judge_deck)

    assert sorted(judged, key=str) == sorted([DECK, DECK, {"text": "Pot of Greed"}], key=str)
    assert sorted((row.player, row.status, before) for row, before in changed) == [
        ("p1", "illegal", "legal"),
        ("p3", "needs_review", "legal"),
    ]
    listed, _ = store.players(event.id, None, None, 0, 10)
    assert [(row.player, row.status) for row in listed] == [
        ("p1", "illegal"),
        ("p2", "illegal"),
        ("p3", "needs_review"),
    ]
    assert store.event(event.id).banlist == "2025-04"
    registration = store.registration(event.id, "p1")
    assert registration is not None
    assert registration.status == "legal"


def test_a_change_of_list_with_the_real_judge(store: EventStore, event: Event, data: Data) -> None:
    """The verdicts' own judge finds DECK (five cards) illegal, whatever the desk kept."""
    registered_players(store, event, [("p1", "Yamada Taro", None, "legal")])

    changed = store.change_list(event.id, None, judge(event, data))

    assert [(row.player, row.status, before) for row, before in changed] == [("p1", "illegal", "legal")]


def test_a_registration_judged_under_the_list_before_a_change_is_refused(store: EventStore, event: Event) -> None:
    """A desk registers a deck it judged under the event's list while the organiser changes that list: the write
    waits for the change, then is refused (ListChanged) rather than keep a verdict of the list no longer in force;
    judged again under the new list, it is kept."""
    staff = desk(store, event)
    store.register(staff, "p1", NewRegistration("Yamada Taro", None, DECK, "ydke", "legal"), NEW, event)
    fixed = NewRegistration("Yamada Taro", None, {"text": "Pot of Greed"}, "text", "legal")

    with ThreadPoolExecutor(1) as pool:
        registering: list[Future[Registration]] = []

        def judge_deck(deck: dict[str, Any]) -> str:
            registering.append(pool.submit(store.register, staff, "p1", fixed, 1, event))
            return "illegal"

        store.change_list(event.id, "2025-04", judge_deck)
        with pytest.raises(ListChanged):
            registering[0].result()

    [row], _ = store.players(event.id, None, None, 0, 10)
    assert (row.version, row.status) == (1, "illegal")
    again = store.register(staff, "p1", fixed, 1, store.event(event.id))
    assert (again.version, again.status) == (2, "legal")


def test_a_change_of_list_of_no_event(store: EventStore) -> None:
    with pytest.raises(NotFound):
        store.change_list("ev-none", None, lambda deck: "legal")


# Deck checks.


def test_deck_checks_are_numbered_in_order_and_kept(store: EventStore, event: Event) -> None:
    staff = desk(store, event)
    store.register(staff, "p1", new(), NEW, event)
    store.register(staff, "p2", new(), NEW, event)
    judge_token, _ = store.issue_token(event.id, "judge")
    checker = staff_of(store, judge_token)
    assert checker is not None

    made = [store.record_check(checker, a_check(player, 1, round_)) for round_ in (1, 2) for player in ("p1", "p2")]

    ids = [made_id for made_id, _ in made]
    assert ids == sorted(ids)
    assert len(set(ids)) == 4
    times = [when for _, when in made]
    assert times == sorted(times)
    assert all(when.utcoffset() == dt.timedelta(0) for when in times)
    with store.engine.connect() as connection:
        row = connection.execute(deck_checks.select().where(deck_checks.c.id == ids[-1])).mappings().one()
    kept = {name: row[name] for name in ("player", "version", "round", "legal", "penalty", "codes", "checked_by")}
    assert kept == {
        "player": "p2",
        "version": 1,
        "round": 2,
        "legal": True,
        "penalty": None,
        "codes": "[]",
        "checked_by": "judge-1",
    }


def test_a_deck_check_of_no_player_is_refused(store: EventStore, event: Event) -> None:
    """The foreign key holds a deck check to a registered player, on SQLite as on PostgreSQL."""
    staff = desk(store, event)

    with pytest.raises(sa.exc.IntegrityError):
        store.record_check(staff, a_check("nobody", 1, 1))

    assert count_rows(store, deck_checks) == 0


# Deleting an event.


def fill(store: EventStore, event: Event) -> None:
    """Tokens, two players (one registered twice) and deck checks at the event."""
    staff = desk(store, event)
    store.issue_token(event.id, "judge")
    store.register(staff, "p1", new(), NEW, event)
    store.register(staff, "p1", new("Yamada Tarou"), 1, event)
    store.register(staff, "p2", new("Suzuki Ichiro"), NEW, event)
    store.record_check(staff, a_check("p1", 2, 1))
    store.record_check(staff, a_check("p2", 1, 1))


def test_deleting_an_event_removes_every_row_of_it_and_no_other(store: EventStore, event: Event) -> None:
    other = store.create_event("Winter Regional", DAY, "ocg", None)
    fill(store, event)
    fill(store, other)
    filled = {"events": 1, "tokens": 2, "players": 2, "registrations": 3, "deck_checks": 2}
    assert rows_of_event(store, event.id) == rows_of_event(store, other.id) == filled

    assert store.delete_event(event.id) == 2

    assert rows_of_event(store, event.id) == dict.fromkeys(filled, 0)
    assert rows_of_event(store, other.id) == filled
    with pytest.raises(NotFound):
        store.delete_event(event.id)
    with pytest.raises(NotFound):
        store.event(event.id)


def test_deleting_an_event_without_players(store: EventStore, event: Event) -> None:
    store.issue_token(event.id, "organiser")

    assert store.delete_event(event.id) == 0
    assert count_rows(store, tokens) == 0


# PostgreSQL's failures.


@contextmanager
def started_again(server: PostgresServer) -> Iterator[None]:
    """The server running again when the block ends, whatever happened in it, for the tests after it."""
    try:
        yield
    finally:
        if not server.running:
            server.start()


@pytest.fixture
def postgres_store(postgres_url: str) -> Iterator[EventStore]:
    """A store over a fresh PostgreSQL database."""
    opened = EventStore.open(postgres_url)
    try:
        yield opened
    finally:
        opened.close()


def desk_of(event: Event) -> Staff:
    """A desk at the event, without asking the database."""
    return Staff(event.id, "desk", "desk-1")


@pytest.mark.parametrize("failure", ["restart", "crash"])
def test_a_registration_survives_the_server_going_down(
    postgres_server: PostgresServer, postgres_store: EventStore, failure: str
) -> None:
    """A committed registration is there after the server restarts or crashes, through the same store (its
    pool replaces the connections the server dropped); while the server is down the store says it is
    unavailable, and works again once the server is back."""
    event = postgres_store.create_event("Summer Regional", DAY, "ocg", None)
    kept = postgres_store.register(desk(postgres_store, event), "p1", new(), NEW, event)
    with started_again(postgres_server):
        if failure == "restart":
            postgres_server.restart()
        else:
            postgres_server.kill()
            postgres_server.start()

        assert postgres_store.registration(event.id, "p1") == kept

        postgres_server.stop()
        with pytest.raises(EventsUnavailable):
            postgres_store.registration(event.id, "p1")
        with pytest.raises(EventsUnavailable):
            postgres_store.register(desk_of(event), "p2", new(), NEW, event)

        postgres_server.start()
        assert postgres_store.registration(event.id, "p1") == kept
        again = postgres_store.register(desk_of(event), "p1", new("Yamada Tarou"), 1, event)
        assert postgres_store.registration(event.id, "p1") == again


def test_a_store_opened_while_the_server_is_down_migrates_once_it_is_up(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    """The first use of a store whose server is stopped says it is unavailable rather than failing for good:
    the schema is made on the first use after the server is back."""
    opened = EventStore.open(postgres_url)
    try:
        with started_again(postgres_server):
            postgres_server.stop()
            with pytest.raises(EventsUnavailable):
                opened.create_event("Summer Regional", DAY, "ocg", None)
            postgres_server.start()
        made = opened.create_event("Summer Regional", DAY, "ocg", None)
        assert opened.event(made.id) == made
    finally:
        opened.close()


# SQLite's own file.


def test_the_default_file_is_the_users_alone_and_in_wal_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no URL the events go to events.sqlite3 in the user's data folder, readable by the user only (names
    and CARD GAME IDs), the write-ahead log with it, and written through that log."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = tmp_path / "data" / "deckcheck" / "events.sqlite3"

    opened = EventStore.open(None)
    try:
        event = opened.create_event("Summer Regional", DAY, "ocg", None)
        opened.register(desk(opened, event), "p1", new(), NEW, event)
        with opened.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar_one()
        assert mode == "wal"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        wal = path.with_name(path.name + "-wal")
        assert wal.exists()
        assert stat.S_IMODE(wal.stat().st_mode) == 0o600
    finally:
        opened.close()


def test_the_default_file_is_the_users_alone_whatever_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A permissive umask (000) does not open the file to others."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    old = os.umask(0)
    try:
        engine_for(None).dispose()
    finally:
        os.umask(old)

    assert stat.S_IMODE((tmp_path / "data" / "deckcheck" / "events.sqlite3").stat().st_mode) == 0o600


def test_a_deleted_event_leaves_no_copy_in_the_sqlite_files(tmp_path: Path) -> None:
    """Deleting an event overwrites its rows in the file and empties the write-ahead log, so a player's name is in
    neither file afterwards, while the service still has them open."""
    path = tmp_path / "events.sqlite3"
    opened = EventStore.open(f"sqlite:///{path}")
    try:
        event = opened.create_event("Summer Regional", DAY, "ocg", None)
        opened.register(desk(opened, event), "p1", new("Zenkichi Unusualname"), NEW, event)
        files = [path, path.with_name(path.name + "-wal")]
        assert any(b"Unusualname" in f.read_bytes() for f in files if f.exists())
        opened.delete_event(event.id)
        assert [f.name for f in files if f.exists() and b"Unusualname" in f.read_bytes()] == []
    finally:
        opened.close()
