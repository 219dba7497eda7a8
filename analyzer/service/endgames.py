"""The answers of ``solve`` on a view and ``hint --exact``: the equilibrium of a two-player
endgame (:mod:`analyzer.analysis.endgame`), as ``--json`` prints it and the engine answers it."""

from __future__ import annotations

from typing import Any

from analyzer.analysis.endgame import solve_view
from analyzer.core.dealing import view
from analyzer.core.errors import PositionError
from analyzer.core.moves import Move
from analyzer.core.state import GameState
from analyzer.search.equilibrium import DEFAULT_MAX_NODES, EndgameTooLarge, Equilibrium

__all__ = [
    "AUTO_MAX_NODES",
    "EQUAL",
    "PLAYED",
    "auto_hint",
    "equal_moves",
    "equilibrium_data",
    "exact_hint_data",
    "how_solved",
    "played_moves",
    "ranked",
    "signed",
    "solve_view_data",
    "solved_hint_data",
    "solved_text",
]

DIGITS = 6
"""Decimals of the probabilities and values in the answer."""

AUTO_MAX_NODES = 20_000
"""Positions of the largest endgame the default hint solves by itself, without ``exact``: a few
hundredths of a second on the native core, about a second on the Python one."""

PLAYED = 1e-3
"""The least probability of a move the verdict counts as played: an equilibrium found to a
tolerance (CFR+) leaves traces of the others, within its exploitability."""

EQUAL = 0.01
"""How far below the best move's value (-1..1) a move still counts as worth as much: at an exact
equilibrium every move played is worth the hand's value; one found to a tolerance (CFR+) leaves
small differences, and a trace of probability on moves worth less."""


def ranked(eq: Equilibrium) -> list[Move]:
    """The moves most likely first, the best value first on a tie (the order of every answer)."""
    return sorted(eq.move_values, key=lambda m: (-eq.strategy[m], -eq.move_values[m]))


def equal_moves(eq: Equilibrium) -> list[Move]:
    """The moves worth as much as the best (within :data:`EQUAL`), played ones first."""
    top = max(eq.move_values.values())
    return [m for m in ranked(eq) if eq.move_values[m] >= top - EQUAL]


def played_moves(eq: Equilibrium) -> list[Move]:
    """The moves the equilibrium plays, most likely first: probability at least :data:`PLAYED`
    and worth as much as the best move (within :data:`EQUAL`)."""
    return [m for m in equal_moves(eq) if eq.strategy[m] >= PLAYED]


def how_solved(eq: Equilibrium) -> str:
    """``"solved exactly"`` (the LP) or ``"solved to an exploitability of 0.0001"`` (CFR+)."""
    return "solved exactly" if eq.method == "lp" else f"solved to an exploitability of {max(eq.tolerance, eq.exploitability):.4f}"


def solved_text(eq: Equilibrium, labels: Any) -> str:
    """The verdict of a solved hint in a player's words: the move to play, the mix, or the moves
    worth the same."""
    mixed, equal = played_moves(eq), equal_moves(eq)
    value = signed(eq.value)
    if len(mixed) > 1:
        shares = ", ".join(f"{m.text(labels)} {eq.strategy[m]:.0%}" for m in mixed)
        return f"Solved: the equilibrium mixes {shares} (the endgame {how_solved(eq)}, value {value})."
    best = (mixed or equal)[0].text(labels)
    others = [m.text(labels) for m in equal if m not in mixed[:1]]
    same = f", and {' and '.join(others)} {'is' if len(others) == 1 else 'are'} worth as much" if others else ""
    return f"{best} is best{same}: the endgame {how_solved(eq)} (value {value})."


def signed(value: float) -> str:
    """``+0.250``: a value with its sign, three decimals, never ``-0.000``."""
    return f"{round(value, 3) + 0.0:+.3f}"


def _round(value: float) -> float:
    """A probability or value to :data:`DIGITS` decimals, never ``-0.0``."""
    return round(value, DIGITS) + 0.0


def equilibrium_data(state: GameState, eq: Equilibrium, *, read: bool) -> dict[str, Any]:
    """``solve --json`` on a view (and ``hint --exact --json``): ``method``
    (``"equilibrium"``), ``player``, ``strategy`` (move text to probability, the moves he plays
    first), ``value`` (of his hand, -1..1, R20), ``move_values`` (move text to value, best first),
    ``exploitability``, ``game_value`` (player 0's, his hand not yet dealt), ``prior``
    (``"uniform"`` or ``"read"``), ``nodes``, ``infosets``, ``deals``, ``seconds`` and
    ``best``, the move he plays with the highest probability among those worth the best value
    (within :data:`EQUAL`), the best value on a tie."""
    lab = state.rules.labels
    order = ranked(eq)
    by_value = sorted(eq.move_values, key=lambda m: -eq.move_values[m])
    return {
        "method": "equilibrium",
        "player": eq.player,
        "best": (played_moves(eq) or equal_moves(eq))[0].text(lab),
        "strategy": {m.text(lab): _round(eq.strategy[m]) for m in order if eq.strategy[m] > 0.5e-6},
        "value": _round(eq.value),
        "move_values": {m.text(lab): _round(eq.move_values[m]) for m in by_value},
        "exploitability": round(eq.exploitability, 9),
        "game_value": _round(eq.game_value),
        "prior": "read" if read else "uniform",
        "nodes": eq.nodes,
        "infosets": eq.infosets,
        "deals": eq.deals,
        "seconds": round(eq.seconds, 3),
    }


def solve_view_data(state: GameState, max_nodes: int, read: bool) -> dict[str, Any]:
    """The engine's ``solve`` on a view: :func:`equilibrium_data` of its endgame.

    Raises
    ------
    PositionError
        If the view is not a two-player one whose endgame can be solved, or its endgame has more
        than ``max_nodes`` positions (the message names ``budget`` and the ``hint`` instead).
    """
    if state.rules.players != 2:
        raise PositionError(
            f"solving a view is for two players (the endgame's equilibrium); this {state.rules.name} "
            f"deal has {state.rules.players}: use hint, or give every hand"
        )
    try:
        found = solve_view(state, max_nodes=max_nodes, read=read)
    except EndgameTooLarge as exc:
        raise PositionError(f"{exc}, too many to solve exactly ('budget'); 'hint' answers from the view by sampled deals") from None
    return equilibrium_data(state, found, read=read)


def solved_hint_data(state: GameState, eq: Equilibrium, *, read: bool) -> dict[str, Any]:
    """A hint answered by the endgame's equilibrium: :func:`equilibrium_data` with the keys of the
    sampled hint a reader may look for: ``to_act``, ``evaluation`` (``"equilibrium"``), ``exact``
    (true), ``verdict`` (``"solved"``), ``verdict_text``, ``close_to_best`` (the other moves the
    equilibrium plays), ``stopped_by`` (``"solved"``) and ``moves``: per move, best first,
    ``move``, ``probability`` (in the equilibrium), ``score`` (its value, -1..1, R20), ``diff``
    (the best move's value minus its own, so 0 for the best) and ``reasons``."""
    data = equilibrium_data(state, eq, read=read)
    lab = state.rules.labels
    order = ranked(eq)
    top = max(eq.move_values.values())
    mixed = played_moves(eq)
    moves = [
        {
            "move": m.text(lab),
            "probability": _round(eq.strategy[m]),
            "score": _round(eq.move_values[m]),
            "diff": _round(top - eq.move_values[m]),
            "reasons": [_played_text(eq, m, m in mixed), f"worth {signed(eq.move_values[m])} if both then play the equilibrium"],
        }
        for m in order
    ]
    best = (played_moves(eq) or equal_moves(eq))[0]
    return {
        **data,
        "to_act": eq.player,
        "evaluation": "equilibrium",
        "exact": True,
        "verdict": "solved",
        "verdict_text": solved_text(eq, lab),
        "close_to_best": [m.text(lab) for m in equal_moves(eq) if m != best],
        "stopped_by": "solved",
        "moves": moves,
    }


def _played_text(eq: Equilibrium, move: Move, played: bool) -> str:
    """How the equilibrium plays ``move``: with its probability, a trace, or not at all."""
    p = eq.strategy[move]
    if played:
        return f"played with probability {p:.3f} in the equilibrium"
    if p >= PLAYED:
        return f"not played: worth less than the best, it keeps a trace of probability ({p:.3f}) from CFR+, which stops at a tolerance"
    return "not played in the equilibrium"


def exact_hint_data(state: GameState, read: bool) -> tuple[dict[str, Any] | None, str | None]:
    """The engine's ``hint`` with ``exact``: :func:`solved_hint_data` of the endgame from the player
    to act's view, or ``None`` and the note saying why not (the sampled hint answers instead), as
    ``hint --exact``."""
    if state.rules.players != 2:
        return None, f"'exact' solves two-player endgames; this deal has {state.rules.players} players: the sampled hint instead"
    try:
        found = solve_view(view(state, state.to_act), max_nodes=DEFAULT_MAX_NODES, read=read)
    except EndgameTooLarge as exc:
        return None, f"'exact': {exc}, too many to solve exactly: the sampled hint instead"
    except PositionError as exc:
        return None, f"'exact': {exc}: the sampled hint instead"
    return solved_hint_data(state, found, read=read), None


def auto_hint(state: GameState, read: bool) -> Equilibrium | None:
    """The equilibrium the default hint answers with: that of the endgame from the player to act's
    view when the deal has two players and the endgame at most :data:`AUTO_MAX_NODES` positions;
    else None (the sampled hint answers). The deal count is checked before any tree is built, so a
    mid-game position costs next to nothing."""
    if state.rules.players != 2 or len(state.legal_moves()) < 2:
        return None  # one legal move: the sampled hint's "only" says so at once
    try:
        return solve_view(view(state, state.to_act), max_nodes=AUTO_MAX_NODES, read=read)
    except (EndgameTooLarge, PositionError):
        return None
