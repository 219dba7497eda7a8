"""Puzzles mined from games: positions where exactly one choice wins, proven (R19, R20).

lichess mines its puzzles from real games; :func:`mine` does the same with game records (every
hand and the stock order known, docs/record-format.md).  A position of a deal becomes a puzzle
when

1. the player to act chooses (an offer, a forced lay-in or the exchange; R9, R11-R16) between at
   least two choices (:func:`analyzer.analysis.candidates.choices`: takes and lay-ins that meld
   the same cards and pay the same card are one choice) and at most ``max_stock`` cards are left
   in the stock (near the end of the deal, where the proofs are quick);
2. exactly one choice wins under best play, proven by the exact search
   (:class:`analyzer.search.exact.Solver`: every legal move solved to the end of the deal within
   ``budget`` positions): a move of it has value +1 for the player to act, and every move of
   every other choice is proven below +1 (R20);
3. with three or more players the win is also sure: each winning move wins when the others play
   together against him (the ``paranoid`` search), so the answer does not hang on how the others
   break their ties.

The puzzle is a ``win`` question (docs/puzzle-format.md) whose answer is the winning moves, with
its theme (:func:`theme`, one of :data:`THEMES`), its difficulty (:func:`plies_to_win`, and
:func:`hint_difficulty`: the hint's best move at 8, 16 and 48 sampled deals) and its source.
Mining is deterministic: the searches are bounded by positions, never by the clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzer.analysis.advisor import advise
from analyzer.analysis.candidates import choices, goes_out
from analyzer.analysis.puzzles import check_puzzle, load_puzzle, solve_puzzle
from analyzer.core.errors import ConquianError
from analyzer.core.melds import cards_of
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.core.state import GameState, Phase
from analyzer.formats.notation import format_notation
from analyzer.formats.position import dump_position
from analyzer.formats.shapes import PUZZLE_THEMES
from analyzer.search.exact import Solver
from analyzer.search.outcome import position_key

__all__ = [
    "HINT_SAMPLES",
    "THEMES",
    "Deal",
    "Mined",
    "MiningOptions",
    "MiningStats",
    "WinSearch",
    "hidden_cards",
    "hint_difficulty",
    "mine",
    "mine_deal",
    "plies_to_win",
    "puzzle_data",
    "theme",
    "unique_win",
]

THEMES = PUZZLE_THEMES
"""The themes of a mined puzzle, in the order :func:`theme` tries them (docs/puzzle-format.md)."""

HINT_SAMPLES = (8, 16, 48)
"""The sampled deals of the three hints of :func:`hint_difficulty`."""

HINT_ENGINE = "pimc"
"""The hint engine of the difficulty: sampled deals, each searched by the lookahead (``pimc``)."""

_WIN = 1.0 - 1e-9


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal to mine: its start (every hand and the stock order known), its moves in order (turns
    included) and where it comes from (``source``: the puzzle's ``source`` keys, such as
    ``record`` and ``deal``, or ``variant``, ``bots``, ``seed`` and ``game`` for self-play)."""

    start: GameState
    moves: tuple[Move, ...]
    source: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MiningOptions:
    """How :func:`mine` looks for puzzles.

    Attributes
    ----------
    max_stock : int
        Positions with at most this many stock cards only (near the end: quick proofs).
    budget : int
        Positions of each exact search (each legal move solved, the plies to the win); a
        position whose searches do not finish within it is skipped.
    per_deal : int
        Most puzzles from one deal: the first positions that qualify, in the order played.
    min_plies : int
        Puzzles with at least this many plies to the win only (1: a move that goes out at once).
    samples : tuple of int
        The sampled deals of each hint of the difficulty (:func:`hint_difficulty`); ``()`` skips it.
    seed : int
        The seed of those hints.
    """

    max_stock: int = 8
    budget: int = 200_000
    per_deal: int = 1
    min_plies: int = 1
    samples: tuple[int, ...] = HINT_SAMPLES
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("max_stock", "budget", "per_deal", "min_plies", "seed"):
            value = getattr(self, name)
            low = 0 if name in ("max_stock", "seed") else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConquianError(f"{name} must be a whole number of at least {low}, got {value!r}")
        if any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in self.samples):
            raise ConquianError(f"samples must be whole numbers of at least 1, got {self.samples!r}")


@dataclass(slots=True)
class MiningStats:
    """What :func:`mine` looked at: deals, positions tested (a choice near the end), and why the
    tested positions that gave no puzzle were dropped."""

    deals: int = 0
    skipped: int = 0
    tested: int = 0
    puzzles: int = 0
    no_win: int = 0
    several: int = 0
    unsure: int = 0
    unproven: int = 0
    short: int = 0
    repeated: int = 0
    nodes: int = 0

    def as_dict(self) -> dict[str, int]:
        """The counts as JSON keys."""
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class WinSearch:
    """The answer of :func:`unique_win`.

    Attributes
    ----------
    kind : str
        ``"unique"`` (exactly one choice wins, proven), ``"none"`` (no choice wins; with three
        or more players, none wins for sure),
        ``"several"`` (two choices or more win), ``"unsure"`` (three or more players: a winning
        move does not win against the others together) or ``"unproven"`` (a search ran out of
        its budget).
    moves : tuple of Move
        The winning moves (``"unique"``): the arrangements of the winning choice that win, in
        engine order.
    choice : tuple of Move
        Every arrangement of the winning choice.
    nodes : int
        Positions searched.
    """

    kind: str
    moves: tuple[Move, ...] = ()
    choice: tuple[Move, ...] = ()
    nodes: int = 0


def unique_win(
    state: GameState, *, budget: int = 200_000, solver: Solver | None = None, sure: Solver | None = None
) -> WinSearch:
    """Does exactly one choice of the player to act win under best play (R20)?

    The position is solved first (with three or more players with the others playing together
    against him, ``paranoid``): when he cannot win (for sure), no choice does.  Then every move
    of every choice is solved exactly (minimax with two players, max-n with more), and with
    three or more players each winning move again with the others together against him.
    ``solver`` and ``sure`` (:class:`Solver` of ``budget`` positions, the second ``paranoid``)
    may be shared between the positions of one deal.

    Raises
    ------
    PositionError
        If nobody chooses here, or a hand is hidden.
    """
    groups = choices(state)
    me = state.to_act
    solver = solver or Solver(max_nodes=budget, time_limit=math.inf)
    if state.rules.players == 2:
        sure = solver
    elif sure is None:
        sure = Solver(mode="paranoid", max_nodes=budget, time_limit=math.inf)
    # First the position itself: he wins (for sure, with three or more players) or no move does.
    root = sure.solve(state, player=me)
    nodes = root.nodes
    if not root.proven:
        return WinSearch("unproven", nodes=nodes)
    if root.values[me] <= _WIN:
        return WinSearch("none", nodes=nodes)
    won: list[tuple[list[Move], list[Move]]] = []
    for group in groups:
        wins = []
        for move in group:
            result = solver.solve(state.apply(move, check=False), player=me)
            nodes += result.nodes
            if not result.proven:
                return WinSearch("unproven", nodes=nodes)
            if result.values[me] > _WIN:
                wins.append(move)
        if wins:
            won.append((group, wins))
            if len(won) > 1:
                return WinSearch("several", nodes=nodes)
    if not won:
        return WinSearch("none", nodes=nodes)
    group, wins = won[0]
    if state.rules.players > 2:
        for move in wins:
            result = sure.solve(state.apply(move, check=False), player=me)
            nodes += result.nodes
            if not result.proven:
                return WinSearch("unproven", nodes=nodes)
            if result.values[me] <= _WIN:
                return WinSearch("unsure", nodes=nodes)
    return WinSearch("unique", tuple(wins), tuple(group), nodes)


class _OutOfBudget(Exception):
    """The plies search used its budget of positions."""


def _forced(state: GameState) -> tuple[GameState, int]:
    """Follow the positions with one legal move (:meth:`GameState.run_forced`): the position
    reached and the plies passed (each player's forced pass; the turns of stock cards are not
    plies)."""
    after, steps = state.run_forced(1 << 30)
    return after, steps - (state.stock_count - after.stock_count)


@dataclass
class _Plies:
    """Sure-win search by plies (AND-OR with iterative deepening): the winner hurries, the others
    delay.  ``memo[key] = (most plies known too few, fewest plies known enough)``."""

    player: int
    budget: int
    nodes: int = 0
    memo: dict[Hashable, tuple[int, int]] = field(default_factory=dict)

    def within(self, state: GameState, plies: int) -> bool:
        """True if ``player`` wins for sure within ``plies`` plies of every player (R15, R18)."""
        state, passed = _forced(state)
        plies -= passed
        if plies < 0:  # the forced passes alone take longer (R17, R18)
            return False
        if state.phase is Phase.OVER:
            return state.winner == self.player
        if plies == 0:
            return False
        if state.phase is Phase.TURN:  # a turn run_forced leaves (it never does with a known stock)
            return self.within(state.apply(state.chance_outcomes()[0][0], check=False), plies)
        key = position_key(state)
        few, enough = self.memo.get(key, (0, 1 << 30))
        if plies >= enough:
            return True
        if plies <= few:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        moves = state.legal_moves()
        if state.to_act == self.player:
            moves.sort(key=lambda m: not goes_out(m))  # going out first (R15)
            found = any(self.within(state.apply(m, check=False), plies - 1) for m in moves)
        else:
            found = all(self.within(state.apply(m, check=False), plies - 1) for m in moves)
        self.memo[key] = (few, min(enough, plies)) if found else (max(few, plies), enough)
        return found

    def exact(self, state: GameState, cap: int) -> int | None:
        """The fewest plies within which ``player`` wins for sure, up to ``cap`` (else None)."""
        for plies in range(1, cap + 1):
            if self.within(state, plies):
                return plies
        return None


def plies_to_win(
    state: GameState, player: int, *, budget: int = 200_000, cap: int = 400
) -> tuple[int, tuple[Move, ...]] | None:
    """The plies to ``player``'s sure win under best play, and the line.

    A ply is one player's move (a take with its pay, a force, a pass, a lay-in, a hand-only
    meld or a give), forced or not; the turns of stock cards (R10) are not plies.  The winner hurries and the others delay: the
    number is the fewest plies within which he goes out (R15), or wins when the stock runs out
    (R18), whatever the others do.  The line starts at ``state``, turns included, and ends with
    the win.  ``None`` when he cannot make sure of a win within ``cap`` plies, or the search
    needs more than ``budget`` positions.
    """
    search = _Plies(player, budget)
    try:
        total = search.exact(state, cap)
        if total is None:
            return None
        line: list[Move] = []
        left = total
        while state.phase is not Phase.OVER:
            if state.is_chance_node():
                move = state.chance_outcomes()[0][0]
            else:
                moves = state.legal_moves()
                if state.to_act == player:
                    moves.sort(key=lambda m: not goes_out(m))
                    move = next(m for m in moves if search.within(state.apply(m, check=False), left - 1))
                else:
                    # The longest delay: a move after which he needs all the plies left.
                    move = next(
                        (m for m in moves if not search.within(state.apply(m, check=False), left - 2)),
                        moves[0],
                    )
                left -= 1
            line.append(move)
            state = state.apply(move, check=False)
    except _OutOfBudget:
        return None
    return total, tuple(line)


def hint_difficulty(
    state: GameState, moves: Sequence[Move], *, samples: Sequence[int] = HINT_SAMPLES, seed: int = 0
) -> dict[str, Any]:
    """How hard the winning move is to find from the player's own view.

    The hint (:func:`analyzer.analysis.advisor.advise`, engine ``v2``: sampled deals of the
    cards he cannot see, each searched by the lookahead, no time limit) is asked with each
    number of ``samples``, seeded ``seed``; it *finds* the move when its best move is one of
    ``moves`` (the winning arrangements).

    Returns
    -------
    dict
        ``hint``: per number of samples, the hint's best move and whether it is a winning move;
        ``found_at``: the fewest samples whose hint finds it (``None``: none does);
        ``hint_seed``: ``seed``.
    """
    labels = state.rules.labels
    tries: list[dict[str, Any]] = []
    found: list[int] = []
    for count in samples:
        advice = advise(state, samples=count, seed=seed, time_limit=math.inf, engine=HINT_ENGINE)
        best = advice.estimates[0].move
        tries.append({"samples": count, "move": best.text(labels), "found": best in moves})
        if best in moves:
            found.append(count)
    return {"hint": tries, "found_at": min(found) if found else None, "hint_seed": seed}


def theme(state: GameState, win: WinSearch, line: Sequence[Move]) -> str:
    """The puzzle's theme (:data:`THEMES`), by the winning move and the line, the first that holds:

    ``going_out``: the winning move goes out (R15); ``forcing``: it forces a player to take the
    centre card (R14); ``declining``: it passes (R12); ``hand_meld``: it lays a meld of hand
    cards (R16); ``giving``: the exchange's give (R9); ``forcing`` again: a take or lay-in after
    which the winner forces later in the line (R14); ``arranging``: some arrangements of the
    winning choice do not win, the layout decides (R13, R14); ``paying_safe``: another choice
    melds the same cards and pays another card, and does not win: the pay decides (R13);
    ``melding``: otherwise, which cards to meld decides (R13).
    """
    move = win.moves[0]
    me = state.to_act
    if goes_out(move):
        return "going_out"
    simple: list[tuple[type, str]] = [(Force, "forcing"), (Pass, "declining"), (Meld, "hand_meld"), (Give, "giving")]
    for kind, name in simple:
        if isinstance(move, kind):
            return name
    after = state.apply(move, check=False)
    for later in line[1:]:
        if isinstance(later, Force) and not after.is_chance_node() and after.to_act == me:
            return "forcing"
        after = after.apply(later, check=False)
    if len(win.moves) < len(win.choice):
        return "arranging"
    assert isinstance(move, (Take, LayIn))
    melded = cards_of(move.layout)
    for other in state.legal_moves():
        if (
            type(other) is type(move)
            and isinstance(other, (Take, LayIn))
            and other.pay is not None
            and other.pay != move.pay
            and cards_of(other.layout) == melded
        ):
            return "paying_safe"
    return "melding"


def hidden_cards(state: GameState) -> bool:
    """True if ``state`` hides a hand or the stock order: no puzzle can be mined from it."""
    return any(h is None for h in state.hands) or (state.stock is None and state.stock_count > 0)


def puzzle_data(
    state: GameState,
    win: WinSearch,
    plies: int,
    line: Sequence[Move],
    source: dict[str, Any],
    difficulty: dict[str, Any],
) -> dict[str, Any]:
    """The puzzle file (docs/puzzle-format.md) of a mined position: a ``win`` question for the
    player to act, the winning moves, the theme, the difficulty, the line and the source."""
    labels = state.rules.labels
    me = state.to_act
    where = (
        f"record {source['record']}" + (f", deal {source['deal']}" if source.get("deal") else "")
        if "record" in source
        else f"self-play game {source.get('game')} of seed {source.get('seed')}"
    )
    return {
        "type": "puzzle",
        "title": f"Player {me} to win",
        "description": (
            f"Mined from {where}, before move {source['move']}: exactly one choice wins, "
            "proven by the exact search; every hand and the stock order are known."
        ),
        "question": {"kind": "win", "player": me},
        "answer": {"wins": True, "moves": sorted(m.text(labels) for m in win.moves)},
        "theme": theme(state, win, line),
        "difficulty": {"plies": plies, **difficulty},
        "line": [m.text(labels) for m in line],
        "source": source,
        "position": dump_position(state),
    }


def _checks(data: dict[str, Any]) -> bool:
    """True if the puzzle file reads back and ``conquian puzzle`` proves its stored answer and
    line right with its default budget (:func:`analyzer.analysis.puzzles.solve_puzzle`)."""
    puzzle = load_puzzle(data)
    found = solve_puzzle(puzzle, time_limit=math.inf)
    return bool(found["proven"]) and not check_puzzle(puzzle, found)


@dataclass(frozen=True, slots=True)
class Mined:
    """A puzzle mined by :func:`mine`: its file's data and the deal it came from."""

    data: dict[str, Any]
    deal: Deal


def _candidates(deal: Deal, options: MiningOptions) -> Iterator[tuple[GameState, int, Move]]:
    """The positions of ``deal`` that may hold a puzzle, in the order played: (position, number
    of the move played there, from 1, and that move)."""
    state = deal.start
    for number, move in enumerate(deal.moves, 1):
        if (
            state.phase in (Phase.OFFER, Phase.FORCED, Phase.EXCHANGE)
            and state.stock_count <= options.max_stock
            and len(choices(state)) > 1
        ):
            yield state, number, move
        state = state.apply(move, check=False)


def mine_deal(
    deal: Deal, options: MiningOptions, stats: MiningStats, seen: set[str] | None = None
) -> list[Mined]:
    """The puzzles of one deal (:func:`mine`), at most ``options.per_deal``; ``seen`` (the
    notations of the positions already mined) drops a position met before."""
    found: list[Mined] = []
    seen = set() if seen is None else seen
    solver = Solver(max_nodes=options.budget, time_limit=math.inf)
    sure = Solver(mode="paranoid", max_nodes=options.budget, time_limit=math.inf)
    for state, number, played in _candidates(deal, options):
        if len(found) >= options.per_deal:
            break
        stats.tested += 1
        notation = format_notation(state)
        if notation in seen:
            stats.repeated += 1
            continue
        if options.min_plies > 1 and any(goes_out(m) for m in state.legal_moves()):
            stats.short += 1  # a move goes out at once (R15): a win in one ply
            continue
        win = unique_win(state, budget=options.budget, solver=solver, sure=sure)
        stats.nodes += win.nodes
        if win.kind != "unique":
            counter = "no_win" if win.kind == "none" else win.kind
            setattr(stats, counter, getattr(stats, counter) + 1)
            continue
        measured = plies_to_win(state, state.to_act, budget=options.budget)
        if measured is None:
            stats.unproven += 1
            continue
        plies, line = measured
        if plies < options.min_plies:
            stats.short += 1
            continue
        difficulty = hint_difficulty(state, win.moves, samples=options.samples, seed=options.seed) if options.samples else {}
        labels = state.rules.labels
        source = {**deal.source, "move": number, "played": played.text(labels)}
        data = puzzle_data(state, win, plies, line, source, difficulty)
        if not _checks(data):
            stats.unproven += 1
            continue
        seen.add(notation)
        found.append(Mined(data, deal))
        stats.puzzles += 1
    return found


def mine(
    deals: Iterable[Deal],
    options: MiningOptions | None = None,
    *,
    stats: MiningStats | None = None,
    on_deal: Callable[[Deal, list[Mined]], None] | None = None,
) -> Iterator[Mined]:
    """Mine puzzles from ``deals`` (module docstring), yielding each as it is found.

    A deal whose start hides a hand or the stock order is skipped (counted in
    ``stats.skipped``): a mined puzzle needs every card known.  ``on_deal`` is called after
    each deal with its puzzles (progress).  The same deals and options give the same puzzles.
    """
    options = options or MiningOptions()
    stats = stats if stats is not None else MiningStats()
    seen: set[str] = set()
    for deal in deals:
        stats.deals += 1
        if hidden_cards(deal.start):
            stats.skipped += 1
            if on_deal is not None:
                on_deal(deal, [])
            continue
        found = mine_deal(deal, options, stats, seen)
        yield from found
        if on_deal is not None:
            on_deal(deal, found)
