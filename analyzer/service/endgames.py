"""The answers of ``solve`` on a view and ``hint --exact``: the equilibrium of a two-player
endgame (:mod:`analyzer.analysis.endgame`), as ``--json`` prints it and the engine answers it."""

from __future__ import annotations

from typing import Any

from analyzer.analysis.endgame import solve_view
from analyzer.core.dealing import view
from analyzer.core.errors import PositionError
from analyzer.core.state import GameState
from analyzer.search.equilibrium import DEFAULT_MAX_NODES, EndgameTooLarge, Equilibrium

__all__ = ["equilibrium_data", "exact_hint_data", "solve_view_data"]

DIGITS = 6
"""Decimals of the probabilities and values in the answer."""


def equilibrium_data(state: GameState, eq: Equilibrium, *, read: bool) -> dict[str, Any]:
    """``solve --json`` on a view (and ``hint --exact --json``): ``method``
    (``"equilibrium"``), ``player``, ``strategy`` (move text to probability, the moves he plays
    first), ``value`` (of his hand, -1..1, R20), ``move_values`` (move text to value, best first),
    ``exploitability``, ``game_value`` (player 0's, his hand not yet dealt), ``prior``
    (``"uniform"`` or ``"read"``), ``nodes``, ``infosets``, ``deals``, ``seconds`` and
    ``best``, the move he plays with the highest probability (the best value on a tie)."""
    lab = state.rules.labels
    order = sorted(eq.move_values, key=lambda m: (-eq.strategy[m], -eq.move_values[m]))
    by_value = sorted(eq.move_values, key=lambda m: -eq.move_values[m])
    return {
        "method": "equilibrium",
        "player": eq.player,
        "best": order[0].text(lab),
        "strategy": {m.text(lab): round(eq.strategy[m], DIGITS) for m in order if eq.strategy[m] > 0.5e-6},
        "value": round(eq.value, DIGITS),
        "move_values": {m.text(lab): round(eq.move_values[m], DIGITS) for m in by_value},
        "exploitability": round(eq.exploitability, 9),
        "game_value": round(eq.game_value, DIGITS),
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


def exact_hint_data(state: GameState, read: bool) -> tuple[dict[str, Any] | None, str | None]:
    """The engine's ``hint`` with ``exact``: :func:`equilibrium_data` of the endgame from the player
    to act's view with ``verdict`` ``"solved"``, or ``None`` and the note saying why not (the
    sampled hint answers instead), as ``hint --exact``."""
    if state.rules.players != 2:
        return None, f"'exact' solves two-player endgames; this deal has {state.rules.players} players: the sampled hint instead"
    try:
        found = solve_view(view(state, state.to_act), max_nodes=DEFAULT_MAX_NODES, read=read)
    except EndgameTooLarge as exc:
        return None, f"'exact': {exc}, too many to solve exactly: the sampled hint instead"
    return {**equilibrium_data(state, found, read=read), "verdict": "solved"}, None
