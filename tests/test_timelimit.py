"""TR 2.C 制限時間: every branch of 判定1–3, table-driven, with the sudden-death notes."""

from __future__ import annotations

import pytest

from deckcheck.rules.timelimit import DuelEnd, MatchState, Ruling, TimeLimitError, adjudicate


def _codes(ruling: Ruling) -> list[str]:
    return [f"{s.procedure}:{s.code}" + (f":{s.player}" if s.player else "") for s in ruling.steps]


def _next(ruling: Ruling) -> str | None:
    return None if ruling.next_step is None else f"{ruling.next_step.procedure}:{ruling.next_step.code}"


# (state, steps taken, next step, duels won after, match winner)
CASES = [
    # 判定3: 1–0 up before the second duel.
    (MatchState(wins=(1, 0), in_duel=False), ["判定3:one_win_decides:1", "判定3:match_decided:1"], None, (1, 0), 1),
    (MatchState(wins=(0, 1), in_duel=False), ["判定3:one_win_decides:2", "判定3:match_decided:2"], None, (0, 1), 2),
    # 判定2: between duels at 1–1 (or before any duel): an extra duel of four turns.
    (MatchState(wins=(1, 1), in_duel=False), [], "判定2:extra_duel", (1, 1), None),
    (MatchState(wins=(0, 0), in_duel=False), [], "判定2:extra_duel", (0, 0), None),
    (
        MatchState(wins=(1, 1), in_duel=False, extra_duel=DuelEnd(life_points=(3000, 8000))),
        ["判定2:extra_duel", "判定2:extra_duel_decided:2", "判定2:match_decided:2"],
        None,
        (1, 2),  # the extra duel counts
        2,
    ),
    (
        MatchState(wins=(1, 1), in_duel=False, extra_duel=DuelEnd(life_points=(4000, 4000))),
        ["判定2:extra_duel"],
        "判定2:sudden_death",
        (1, 1),
        None,
    ),
    (  # sudden death: paying life as a cost is a change; the player with more life points then wins
        MatchState(wins=(1, 1), in_duel=False, extra_duel=DuelEnd(life_points=(4000, 4000), sudden_death=(3000, 4000))),
        ["判定2:extra_duel", "判定2:sudden_death", "判定2:sudden_death_decided:2", "判定2:match_decided:2"],
        None,
        (1, 2),
        2,
    ),
    # 判定1: a duel in progress.
    (MatchState(wins=(0, 0), in_duel=True), ["判定1:finish_turn"], "判定1:extra_turns", (0, 0), None),
    (
        MatchState(wins=(0, 0), in_duel=True, duel=DuelEnd(turn_winner=2)),
        ["判定1:finish_turn", "判定1:turn_decided:2", "判定1:match_decided:2"],
        None,
        (0, 1),
        2,
    ),
    (
        MatchState(wins=(1, 0), in_duel=True, duel=DuelEnd(life_points=(6100, 2000))),
        ["判定1:finish_turn", "判定1:extra_turns", "判定1:extra_turns_decided:1", "判定1:match_decided:1"],
        None,
        (2, 0),
        1,
    ),
    (  # a life-point tie after the extra turns goes to sudden death
        MatchState(wins=(0, 1), in_duel=True, duel=DuelEnd(life_points=(500, 500))),
        ["判定1:finish_turn", "判定1:extra_turns"],
        "判定1:sudden_death",
        (0, 1),
        None,
    ),
    (
        MatchState(wins=(0, 1), in_duel=True, duel=DuelEnd(life_points=(500, 500), sudden_death=(500, 0))),
        [
            "判定1:finish_turn",
            "判定1:extra_turns",
            "判定1:sudden_death",
            "判定1:sudden_death_decided:1",
        ],
        "判定2:extra_duel",  # one each: 判定2 decides the match
        (1, 1),
        None,
    ),
    (  # 1–1 after the extra turns, then the extra duel and its own sudden death
        MatchState(
            wins=(1, 0),
            in_duel=True,
            duel=DuelEnd(life_points=(100, 200)),
            extra_duel=DuelEnd(life_points=(8000, 8000), sudden_death=(8000, 7000)),
        ),
        [
            "判定1:finish_turn",
            "判定1:extra_turns",
            "判定1:extra_turns_decided:2",
            "判定2:extra_duel",
            "判定2:sudden_death",
            "判定2:sudden_death_decided:1",
            "判定2:match_decided:1",
        ],
        None,
        (2, 1),
        1,
    ),
    (  # both lose the same life points at once: the rules do not decide it
        MatchState(wins=(0, 0), in_duel=True, duel=DuelEnd(life_points=(800, 800), sudden_death=(300, 300))),
        ["判定1:finish_turn", "判定1:extra_turns", "判定1:sudden_death"],
        "判定1:sudden_death_tied",
        (0, 0),
        None,
    ),
]


@pytest.mark.parametrize(("state", "steps", "next_step", "wins", "winner"), CASES)
def test_every_branch(
    state: MatchState, steps: list[str], next_step: str | None, wins: tuple[int, int], winner: int | None
) -> None:
    ruling = adjudicate(state)
    assert _codes(ruling) == steps
    assert _next(ruling) == next_step
    assert ruling.wins == wins
    assert ruling.match_winner == winner


def test_the_duel_winner_of_procedure_1() -> None:
    assert adjudicate(MatchState(wins=(0, 0), in_duel=True, duel=DuelEnd(turn_winner=1))).duel_winner == 1
    assert adjudicate(MatchState(wins=(1, 0), in_duel=True)).duel_winner is None
    assert adjudicate(MatchState(wins=(1, 1), in_duel=False)).procedures == ("判定2",)


@pytest.mark.parametrize(
    ("state", "field"),
    [
        (MatchState(wins=(2, 0), in_duel=False), "wins"),
        (MatchState(wins=(-1, 0), in_duel=False), "wins"),
        (MatchState(wins=(1, 1), in_duel=False, duel=DuelEnd(turn_winner=1)), "duel"),
        (MatchState(wins=(1, 0), in_duel=False, extra_duel=DuelEnd(life_points=(1, 2))), "extra_duel"),
        (MatchState(wins=(0, 0), in_duel=True, extra_duel=DuelEnd(life_points=(1, 2))), "extra_duel"),
        (MatchState(wins=(1, 1), in_duel=False, extra_duel=DuelEnd(turn_winner=1)), "extra_duel.turn_winner"),
        (
            MatchState(wins=(1, 1), in_duel=False, extra_duel=DuelEnd(life_points=(1, 2), sudden_death=(1, 0))),
            "extra_duel.sudden_death",
        ),
        (MatchState(wins=(1, 1), in_duel=False, extra_duel=DuelEnd(life_points=(-5, 2))), "extra_duel.life_points"),
        (MatchState(wins=(1, 0), in_duel=True, duel=DuelEnd(turn_winner=1, life_points=(0, 0))), "duel.turn_winner"),
        (  # no change of life points: sudden death goes on
            MatchState(wins=(0, 0), in_duel=True, duel=DuelEnd(life_points=(500, 500), sudden_death=(500, 500))),
            "duel.sudden_death",
        ),
    ],
)
def test_states_no_match_can_be_in(state: MatchState, field: str) -> None:
    with pytest.raises(TimeLimitError) as caught:
        adjudicate(state)
    assert caught.value.field == field
