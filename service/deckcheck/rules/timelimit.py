"""A match whose 40 minutes run out (TR 2.C 制限時間): which procedure applies, the next step, and the decision once
the state given settles it.

TR 2.C: when time is called and the match is not won, the duels are decided by these procedures and the match goes
to the player with more duels won.
- 判定1, a duel in progress: finish the turn; if the duel is not decided by its end, three extra turns counted from
  the opponent's turn; then the player with more life points wins the duel; equal life points go on to sudden death,
  where the duel ends as soon as life points change (paying life as a cost counts) and the player with more wins. If
  the duels won are then one each, 判定2 decides the match.
- 判定2, between duels (during deck adjustment): an extra duel of four turns from 8000 life points; then the player
  with more life points wins; equal life points go on to sudden death as above.
- 判定3, one player 1–0 up before the second duel: that player wins the match.

`adjudicate(state)` takes the state as far as the procedure has gone and answers every step taken, the next step if
the state does not settle the match, and the winners settled. Players are 1 and 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from deckcheck.errors import InvalidInput

Player = Literal[1, 2]
Procedure = Literal["判定1", "判定2", "判定3"]
StepCode = Literal[
    "finish_turn",  # 判定1.1: the turn in progress is played to its end
    "turn_decided",  # 判定1.1–2: the duel was won by the end of that turn
    "extra_turns",  # 判定1.2–3: three extra turns, counted from the opponent's turn
    "extra_turns_decided",  # 判定1.4: more life points after the extra turns
    "extra_duel",  # 判定2.1: an extra duel of four turns from 8000 life points
    "extra_duel_decided",  # 判定2.1 ※: more life points after the four turns
    "sudden_death",  # 判定1.5, 判定2.2: equal life points: play on until life points change
    "sudden_death_decided",  # ※: the first change of life points ends the duel; more life points wins
    "sudden_death_tied",  # life points still equal after the change: the rules do not say; the referee decides
    "one_win_decides",  # 判定3: 1–0 before the second duel
    "match_decided",  # the player with more duels won wins the match
]
EXTRA_DUEL_LIFE_POINTS = 8000


class TimeLimitError(InvalidInput):
    """A state no match can be in when time is called; `field` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True, kw_only=True)
class DuelEnd:
    """How a duel under a procedure has gone so far: its winner by the end of the turn in progress (判定1 only),
    the life points after the extra turns or the extra duel's four turns, and the life points right after the first
    change in sudden death."""

    turn_winner: Player | None = None
    life_points: tuple[int, int] | None = None
    sudden_death: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """The match when time is called, and the procedure as far as it has gone."""

    wins: tuple[int, int]  # duels won by players 1 and 2 before the duel in progress
    in_duel: bool  # a duel is in progress; else the players are between duels (deck adjustment)
    duel: DuelEnd = DuelEnd()  # 判定1: the duel in progress
    extra_duel: DuelEnd = DuelEnd()  # 判定2: the extra duel


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a procedure, the procedure it belongs to, and the player it favours, if any."""

    code: StepCode
    procedure: Procedure
    player: Player | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    """The steps taken, the step to take next (None once the match is decided or the rules stop), and the winners."""

    steps: tuple[Step, ...]
    next_step: Step | None
    wins: tuple[int, int]  # duels won once the steps are taken
    match_winner: Player | None
    duel_winner: Player | None = None  # of the duel in progress (判定1)
    procedures: tuple[Procedure, ...] = field(default=())


def adjudicate(state: MatchState) -> Ruling:
    """The ruling on `state`; TimeLimitError for a state no match can be in."""
    wins = _checked(state)
    steps: list[Step] = []
    duel_winner = None
    if state.in_duel:
        duel_winner, pending = _duel("判定1", state.duel, steps)
        if duel_winner is not None:
            wins = (wins[0] + (duel_winner == 1), wins[1] + (duel_winner == 2))
        if (pending is not None or wins[0] != wins[1]) and state.extra_duel != DuelEnd():
            raise TimeLimitError("extra_duel", "an extra duel follows 判定1 only when the duels won are then one each")
        if pending is not None:
            return _ruling(steps, pending, wins, None, None)
        if wins[0] != wins[1]:
            return _ruling(steps, None, wins, _leader(wins), duel_winner, decided=True)
    elif wins[0] != wins[1]:  # 判定3: one player 1–0 up before the second duel
        if state.extra_duel != DuelEnd():
            raise TimeLimitError("extra_duel", "at 1–0 before the second duel there is no extra duel (判定3)")
        leader = _leader(wins)
        steps.append(Step("one_win_decides", "判定3", leader))
        return _ruling(steps, None, wins, leader, None, decided=True)
    winner, pending = _duel("判定2", state.extra_duel, steps)  # level: 0–0 or 1–1
    if pending is not None:
        return _ruling(steps, pending, wins, None, duel_winner)
    assert winner is not None
    wins = (wins[0] + (winner == 1), wins[1] + (winner == 2))  # the extra duel counts as a duel won
    return _ruling(steps, None, wins, winner, duel_winner, decided=True)


def _duel(procedure: Procedure, end: DuelEnd, steps: list[Step]) -> tuple[Player | None, Step | None]:
    """Walk one duel's procedure: its winner, or the step still to take."""
    if procedure == "判定1":
        steps.append(Step("finish_turn", procedure))
        if end.turn_winner is not None:
            steps.append(Step("turn_decided", procedure, end.turn_winner))
            return end.turn_winner, None
        steps.append(Step("extra_turns", procedure))
    else:
        if end.turn_winner is not None:
            raise TimeLimitError("extra_duel.turn_winner", "an extra duel has no turn in progress when time is called")
        steps.append(Step("extra_duel", procedure))
    if end.life_points is None:
        return None, _pending(steps)
    leader = _more(end.life_points)
    if leader is not None:
        steps.append(Step("extra_turns_decided" if procedure == "判定1" else "extra_duel_decided", procedure, leader))
        return leader, None
    steps.append(Step("sudden_death", procedure))
    if end.sudden_death is None:
        return None, _pending(steps)
    leader = _more(end.sudden_death)
    if leader is None:
        steps.append(Step("sudden_death_tied", procedure))
        return None, _pending(steps)
    steps.append(Step("sudden_death_decided", procedure, leader))
    return leader, None


def _pending(steps: list[Step]) -> Step:
    """The last step taken is the one under way: it is the next step, not a step done."""
    return steps.pop()


def _ruling(
    steps: list[Step],
    pending: Step | None,
    wins: tuple[int, int],
    match_winner: Player | None,
    duel_winner: Player | None,
    *,
    decided: bool = False,
) -> Ruling:
    if decided:
        steps.append(Step("match_decided", steps[-1].procedure, match_winner))
    procedures = tuple(dict.fromkeys(step.procedure for step in [*steps, *([pending] if pending else [])]))
    return Ruling(tuple(steps), pending, wins, match_winner, duel_winner, procedures)


def _checked(state: MatchState) -> tuple[int, int]:
    wins = state.wins
    if any(w < 0 for w in wins) or max(wins) >= 2:
        raise TimeLimitError("wins", "a player with two duels won has already won the match")
    if not state.in_duel and state.duel != DuelEnd():
        raise TimeLimitError("duel", "between duels no duel is in progress: give extra_duel, not duel")
    for name, end in (("duel", state.duel), ("extra_duel", state.extra_duel)):
        for part, points in (("life_points", end.life_points), ("sudden_death", end.sudden_death)):
            if points is not None and min(points) < 0:
                raise TimeLimitError(f"{name}.{part}", "life points cannot be negative")
        if end.sudden_death is not None and (end.life_points is None or _more(end.life_points) is not None):
            raise TimeLimitError(f"{name}.sudden_death", "sudden death follows equal life points only")
        if end.sudden_death is not None and end.sudden_death == end.life_points:
            raise TimeLimitError(
                f"{name}.sudden_death", "sudden death ends at a change of life points: give them right after it"
            )
        if end.turn_winner is not None and (end.life_points is not None or end.sudden_death is not None):
            raise TimeLimitError(f"{name}.turn_winner", "a duel won by the end of the turn has no extra turns")
    return wins


def _more(points: tuple[int, int]) -> Player | None:
    """The player with more life points, None when they are equal."""
    if points[0] == points[1]:
        return None
    return 1 if points[0] > points[1] else 2


def _leader(wins: tuple[int, int]) -> Player:
    return 1 if wins[0] > wins[1] else 2
