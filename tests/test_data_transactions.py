"""Data updates as transactions (issue 36), driven at random: sequences of `deckcheck data` commands (add a list,
add cards, remove either), some of them killed with SIGKILL at a random moment, and moves of the updates folder away
and back, against one running `deckcheck serve` watching the folder (tests/transactions.py). After each step the
service, reloaded, answers from a folder state that a completed command produced (after a kill: the state before the
command or the one it makes, nothing in between), the folder's record says the same, and the folder loads
(`deckcheck data status` and `deckcheck data check` pass). A folder moved away never makes the service answer from
the bundle alone.

A command writes 1-3 s after it starts on a two-core machine (most of it loading the data): a kill after a
delay draws it from 0-3 s, which straddles that time; a kill at the first to sixth change a look at the folder's
files finds steps through the writing itself (a lock taken, files written or staged, a record appended, a change put
in force, whatever the folder's layout). Each step costs seconds (a command, then a reload beside the two commands
that read the folder): hence the small budget. Hypothesis's first sequence is its simplest (the first rule,
`add_cards`, with the simplest kill, at the first change, five times), its second is empty; the rest are drawn.

The service and its folder outlive each sequence, and a kill leaves them one way or the other: so what a step draws
never depends on them, nothing is shrunk, and the first failure is reported with the steps that led to it (Hypothesis
runs a failing sequence again to report it, on a world the failure left, and the second run stops at once)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import traceback
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import ClassVar

import httpx
import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from tests import served
from tests.profiles import examples
from tests.transactions import (
    DAYS,
    STATUSES,
    Kill,
    KillAfter,
    KillAtChange,
    Reader,
    State,
    World,
    deckcheck,
    killed,
    probe_name,
)

pytestmark = [pytest.mark.server, pytest.mark.slow]

# Bundled cards the added lists limit: Pot of Greed, Premature Burial, Dark Magician, PSY-Framelord Omega, Elder
# Entity Norden and Ash Blossom & Joyous Spring.
LIST_CARDS = (55144522, 70828912, 46986414, 74586817, 17412721, 14558127)
CARD_HEADER = (
    "passcode,alias,official,name_ja,name_en,kind,extra_deck_type,pendulum,ocg,tcg,"
    "ja_first_print,ja_first_print_exact,tcg_first_print,tcg_first_print_exact"
)
SETTINGS = settings(
    max_examples=examples(4),
    stateful_step_count=6,  # the first step of each sequence is `begin`
    deadline=None,
    phases=[Phase.generate],
    database=None,  # a saved sequence meets another service, and other kill moments: none is replayed
    suppress_health_check=[HealthCheck.too_slow],
)
kills: st.SearchStrategy[Kill | None] = st.one_of(
    st.builds(KillAtChange, st.integers(1, 6)), st.builds(KillAfter, st.floats(0.0, 3.0)), st.none()
)
limits = st.dictionaries(st.sampled_from(LIST_CARDS), st.sampled_from(sorted(STATUSES.values())), min_size=1)
Step = Callable[..., None]


def recorded(step: Step) -> Step:
    """A step (called with its arguments by name) that the world records, and whose failure it keeps with the steps
    that led to it (the first failure only)."""

    @functools.wraps(step)
    def run(machine: DataCommands, **arguments: object) -> None:
        world = machine.world
        world.steps.append(f"{step.__name__}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})")
        try:
            step(machine, **arguments)
        except Exception:
            if world.failure is None:
                world.failure = "\n".join([*world.steps, traceback.format_exc()])
            raise

    return run


class DataCommands(RuleBasedStateMachine):
    """The steps, over one world (a subclass names it) that outlives each sequence."""

    world: ClassVar[World]

    @initialize()
    def begin(self) -> None:
        """A new sequence, from the state the one before left; none once one has failed."""
        assert self.world.failure is None, "a sequence failed before this one"
        self.world.steps = []

    def command(self, argv: Sequence[str], after: State, kill: Kill | None, *, refused: str | None = None) -> str:
        """Run `deckcheck data <argv> --wait 0`, which leaves the folder in state `after` when it completes, or as
        it was when it is `refused` (its one line of error then names `refused`); killed when `kill` says. Then
        settle, and hold the service and the folder to the states the command may have left: the one before it or
        `after` when the kill ended it, else the one its exit says. What happened, in a few words."""
        world, words = self.world, ["data", *argv, "--wait", "0"]
        before, after = world.state, world.state if refused else after.recorded(words)
        if kill is None:
            done = deckcheck(world.env, *words)
            assert done.returncode == (2 if refused else 0), (done.returncode, done.stdout[-2000:], done.stderr)
            if refused:
                assert (done.stderr.startswith("deckcheck: "), refused in done.stderr) == (True, True), done.stderr
            code = done.returncode
        else:
            code, errors = killed(world.env, words, world.folder, kill)
            assert code in (-signal.SIGKILL, 2 if refused else 0), f"deckcheck {' '.join(words)}: {code}, {errors}"
        taken = world.settle([before, after] if code == -signal.SIGKILL else [after])
        if code != -signal.SIGKILL:
            return "refused" if refused else "completed"
        return "killed, made" if taken == after != before else "killed, not made"

    @rule(count=st.integers(1, 2), kill=kills)
    @recorded
    def add_cards(self, count: int, kill: Kill | None) -> None:
        """A CSV of `count` cards no card had."""
        world = self.world
        passcodes = world.new_passcodes(count)
        rows = [f"{p},0,1,,{probe_name(p)},spell,none,0,1,0,2027-01-10,1,,0" for p in passcodes]
        given = world.source(".csv", "\n".join([CARD_HEADER, *rows]) + "\n")
        event(f"add-cards: {self.command(['add-cards', str(given)], world.state.with_cards(passcodes), kill)}")

    @rule(day=st.sampled_from(DAYS), limits=limits, replace=st.booleans(), kill=kills)
    @recorded
    def add_list(self, day: str, limits: dict[int, int], replace: bool, kill: Kill | None) -> None:
        """A list JSON added; refused when the folder holds the day's list already and --replace is not given."""
        world, list_id = self.world, f"ocg-{day}"
        body = {status: sorted(p for p, held in limits.items() if held == limit) for status, limit in STATUSES.items()}
        given = world.source(".json", json.dumps(body))
        argv = ["add-list", str(given), "--format", "ocg", "--from", day, *(["--replace"] if replace else [])]
        refused = "--replace" if not replace and list_id in world.state.held() else None
        event(f"add-list: {self.command(argv, world.state.with_list(list_id, limits), kill, refused=refused)}")

    @rule(pick=st.integers(0, 7), kill=kills)
    @recorded
    def remove(self, pick: int, kill: Kill | None) -> None:
        """Take out what the folder holds, or (when it holds nothing) a list it does not hold, which is refused."""
        world = self.world
        held = world.state.held()
        what = held[pick % len(held)] if held else f"ocg-{DAYS[pick % len(DAYS)]}"
        outcome = self.command(["remove", what], world.state.without(what), kill, refused=None if held else what)
        event(f"remove: {outcome}")

    @rule(by=st.sampled_from(["SIGHUP", "data reload"]), back=st.sampled_from(["moved", "copied"]))
    @recorded
    def move_away_and_back(self, by: str, back: str) -> None:
        """Move the folder away and make the service reload (`by` SIGHUP, or by `deckcheck data reload`, which may
        refuse a folder that is gone: SIGHUP then, as an operator would): it answers from the last state still,
        never from the bundle alone. Then the folder comes back, `moved` back or `copied` back (a deploy: new
        files, new times), and the service settles on the same state."""
        world = self.world
        away = world.folder.with_name(world.folder.name + "-moved-away")

        def reload() -> str:
            done = deckcheck(world.env, "data", "reload")
            event(f"move: data reload exits {done.returncode}")
            return "SIGHUP" if done.returncode == 0 else world.sighup()

        world.folder.rename(away)
        try:
            world.reload(world.sighup if by == "SIGHUP" else reload)
            view, _ = world.served()
            moved = f"{world.folder} moved away, the service answers from {view}, not from {world.state.view()}"
            assert view == world.state.view(), moved
        finally:
            if back == "moved":
                away.rename(world.folder)
            else:
                shutil.copytree(away, world.folder, symlinks=True, copy_function=shutil.copyfile)
                shutil.rmtree(away)
        world.settle([world.state])


def test_the_service_answers_from_a_state_a_completed_command_produced(tmp_path: Path) -> None:
    folder, sources = tmp_path / "updates", tmp_path / "sources"
    folder.mkdir()
    sources.mkdir()
    env = {"DECKCHECK_UPDATES_DIR": str(folder), "DECKCHECK_UPDATES_POLL": "0.2", "DECKCHECK_ACCESS_LOG": "false"}
    with (
        served.serving(tmp_path / "serve.log", env) as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
        closing(Reader({**os.environ, **env}, tmp_path / "reader.log")) as reader,
    ):
        baseline = client.get("/healthz").json()["imports"]
        made = World(server, client, folder, {**os.environ, **env}, sources, baseline, reader)

        class OverThisService(DataCommands):
            world = made

        try:
            run_state_machine_as_test(OverThisService, settings=SETTINGS)
        except Exception as exc:
            if made.failure is None:
                raise
            raise AssertionError(
                f"the first failing sequence, from the state the one before left:\n{made.failure}"
            ) from exc
