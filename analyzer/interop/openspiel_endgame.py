"""A two-player endgame as an OpenSpiel game: ``python_conquian_endgame`` (the ``openspiel`` extra).

The same game as :mod:`analyzer.search.equilibrium` solves, written for OpenSpiel so that its own
solvers (CFR, ``exploitability``, ``policy_value``) can check ours::

    import pyspiel
    import analyzer.interop.openspiel_endgame  # registers python_conquian_endgame

    game = pyspiel.load_game("python_conquian_endgame", {"position": notation})

``position`` is a two-player position in the one-line notation (docs/notation.md) after the
exchange; whatever hands it gives are not used. Chance first deals the cards neither player has
shown: player 0's hand, then player 1's, each card by card in increasing order (so each deal of a
hand is one path, with the probability that makes every deal equally likely, as
:func:`analyzer.search.equilibrium.build_endgame` deals them), the cards both players know from the
exchange (R9) placed first; each turned card (R10) is then a chance outcome, uniform over the
cards left. A player's information state is ``player, his hand as dealt, the public moves``:
every move after the exchange is public. Actions are a move's index in the engine's legal moves
(the same at every state of an information state), chance outcomes the card's index.
"""

from __future__ import annotations

import math
from typing import Any

from analyzer.core.cards import FULL_DECK, iter_mask
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import Move, Turn
from analyzer.core.state import GameState, Phase
from analyzer.formats.notation import format_notation, parse_notation
from analyzer.interop import missing_extra

try:
    import pyspiel
except ImportError as _exc:
    raise missing_extra("openspiel", "the OpenSpiel endgame game", _exc) from None

__all__ = ["GAME_NAME", "EndgameGame", "EndgameState", "equilibrium_policy", "information_key", "load", "tabular_policy"]

GAME_NAME = "python_conquian_endgame"
"""The name the game is registered under."""

MAX_ACTIONS = 512
"""Actions (moves of one position) the game declares; a position with more is refused."""

_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Conquian endgame",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"position": ""},
)


def information_key(player: int, dealt: int, history: tuple[Move, ...], labels: Any) -> str:
    """The information state string of ``player``: his hand as dealt and the public moves."""
    cards = ",".join(str(c) for c in iter_mask(dealt))
    return f"p{player} [{cards}] " + ";".join(m.text(labels) for m in history)


class EndgameGame(pyspiel.Game):  # type: ignore[misc]
    """``python_conquian_endgame``: the endgame of ``position`` (module docstring).

    Raises
    ------
    ConquianError
        If ``position`` is missing, not a notation, not a two-player position after the
        exchange, or its counts do not fit the cards not shown.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        text = str((params or {}).get("position", ""))
        if not text:
            raise ConquianError(f"{GAME_NAME} needs the parameter 'position' (the one-line notation)")
        start = parse_notation(text)
        if start.rules.players != 2 or start.phase in (Phase.EXCHANGE, Phase.OVER):
            raise PositionError(f"{GAME_NAME} is the endgame of a two-player position after the exchange")
        self.start = start.evolve(stock=None)
        table = start.table_mask()
        unseen = FULL_DECK & ~table
        known = [0, 0]
        for q, card in enumerate(start.gave or ()):
            if card is not None and unseen >> card & 1:
                known[(q + 1) % 2] |= 1 << card
        self.known = (known[0], known[1])
        self.free = unseen & ~(known[0] | known[1])
        self.need = tuple(start.counts[p] - known[p].bit_count() for p in (0, 1))
        if min(self.need) < 0 or sum(self.need) > self.free.bit_count():
            raise PositionError("the hand counts do not fit the cards not shown (R1, R7)")
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS,
            max_chance_outcomes=40,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=400,
        )
        super().__init__(_TYPE, info, {"position": format_notation(start)})

    def new_initial_state(self) -> EndgameState:
        """The endgame before its deal."""
        return EndgameState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The information state strings' observer (OpenSpiel's PyObserver interface)."""
        return _Observer()


class _Observer:
    """The information state string of a player (:func:`information_key`); no tensor."""

    def __init__(self) -> None:
        import numpy as np

        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: EndgameState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: EndgameState, player: int) -> str:
        """``player``'s information state string."""
        return state.information_state_string(player)


class EndgameState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_conquian_endgame``: the deal so far, then the engine's position."""

    def __init__(self, game: EndgameGame) -> None:
        super().__init__(game)
        self.dealt = [game.known[0], game.known[1]]
        self.drawn = [0, 0]  # cards drawn into each hand by chance so far
        self.state: GameState | None = None
        self.history: tuple[Move, ...] = ()
        self.moves: list[Move] = []
        if self._dealing() is None:
            self._start_play()  # every hand known (both empty, or given in the exchange)

    # ------------------------------------------------------------ the deal
    def _dealing(self) -> int | None:
        """The player whose hand chance is dealing, or ``None`` once both are dealt."""
        game = self.get_game()
        for p in (0, 1):
            if self.drawn[p] < game.need[p]:
                return p
        return None

    def _pool(self, p: int) -> list[int]:
        """The cards that may come next into player ``p``'s hand (above his last drawn card)."""
        game = self.get_game()
        pool = game.free & ~self.dealt[0] & ~self.dealt[1]
        last = max(iter_mask(self.dealt[p] & ~game.known[p]), default=-1)
        return [c for c in iter_mask(pool) if c > last]

    def _start_play(self) -> None:
        game = self.get_game()
        hands = (self.dealt[0], self.dealt[1])
        self.state = game.start.evolve(hands=hands, counts=(hands[0].bit_count(), hands[1].bit_count()))

    # --------------------------------------------------------- OpenSpiel API
    def current_player(self) -> int:
        if self.state is None or self.state.phase is Phase.TURN:
            return int(pyspiel.PlayerId.CHANCE)
        if self.state.phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.state.to_act

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state is None:
            p = self._dealing()
            assert p is not None
            pool = self._pool(p)
            k = self.get_game().need[p] - self.drawn[p]
            total = math.comb(len(pool), k)
            return [(c, math.comb(len(pool) - i - 1, k - 1) / total) for i, c in enumerate(pool)
                    if len(pool) - i - 1 >= k - 1]  # fmt: skip
        return [(_card(move), prob) for move, prob in self.state.chance_outcomes()]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.state is not None
        self.moves = self.state.legal_moves()
        if len(self.moves) > MAX_ACTIONS:
            raise ConquianError(f"a position with more than {MAX_ACTIONS} moves")
        return list(range(len(self.moves)))

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            p = self._dealing()
            assert p is not None
            self.dealt[p] |= 1 << action
            self.drawn[p] += 1
            if self._dealing() is None:
                self._start_play()
            return
        if self.state.phase is Phase.TURN:
            move = next(m for m, _ in self.state.chance_outcomes() if _card(m) == action)
        else:
            move = self.state.legal_moves()[action]
        self.state = self.state.apply(move, check=False)
        self.history = (*self.history, move)

    def _action_to_string(self, player: int, action: int) -> str:
        if self.state is None or player == int(pyspiel.PlayerId.CHANCE):
            return f"card {action}"
        moves = self.state.legal_moves()
        return moves[action].text(self.state.rules.labels) if action < len(moves) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.phase is Phase.OVER

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        assert self.state is not None
        return list(self.state.returns())

    def information_state_string(self, player: int | None = None) -> str:
        """``player``'s hand as dealt and the public moves (:func:`information_key`)."""
        p = self.current_player() if player is None else player
        game = self.get_game()
        return information_key(p, self.dealt[p], self.history, game.start.rules.labels)

    def __str__(self) -> str:
        return f"dealt {self.dealt} moves {';'.join(m.text() for m in self.history)}"


def _card(move: Move) -> int:
    """The card of a turn (R10)."""
    assert isinstance(move, Turn)
    return move.card


def tabular_policy(game: EndgameGame, strategies: dict[str, list[float]]) -> Any:
    """An OpenSpiel ``TabularPolicy`` of ``game`` playing ``strategies`` (information state string
    to move probabilities); an information state it does not name has one move (a forced one).

    Raises
    ------
    ConquianError
        If an information state of the game with two moves or more is missing, or its
        probabilities are not one per move.
    """
    from open_spiel.python import policy as policy_lib

    table = policy_lib.TabularPolicy(game)
    for key, index in table.state_lookup.items():
        row = table.action_probability_array[index]
        probs = strategies.get(key)
        if probs is None:
            if (row > 0).sum() > 1:
                raise ConquianError(f"no strategy for the information state {key!r}")
            continue
        if len(probs) > len(row) or (row[len(probs):] > 0).any() or (row[: len(probs)] == 0).any():
            raise ConquianError(f"the strategy of {key!r} is not one probability per move")
        row[:] = 0.0
        row[: len(probs)] = probs
    return table


def equilibrium_policy(view: GameState, max_nodes: int) -> tuple[EndgameGame, Any, float]:
    """The endgame game of ``view``, our equilibrium of it as an OpenSpiel ``TabularPolicy`` (both
    players' strategies from the sequence-form LP of :mod:`analyzer.search.equilibrium`) and its
    value for player 0, for OpenSpiel's ``policy_value`` and ``exploitability`` to check.

    Raises
    ------
    EndgameTooLarge
        If the endgame has more than ``max_nodes`` positions.
    ConquianError
        As :class:`EndgameGame`.
    """
    from analyzer.search import equilibrium

    tree = equilibrium.build_endgame(view, max_nodes=max_nodes)
    pay = equilibrium._payoffs(tree)
    plan0, value = equilibrium._realization_lp(tree, pay, 0)
    plan1, _ = equilibrium._realization_lp(tree, pay, 1)
    policy = {**equilibrium._behaviour(tree, plan0, 0), **equilibrium._behaviour(tree, plan1, 1)}
    labels = view.rules.labels
    strategies = {
        information_key(p, dealt, history, labels): list(policy[k])
        for k, (p, dealt, history) in enumerate(tree.infosets)
    }
    game = load(view)
    return game, tabular_policy(game, strategies), value


def load(position: GameState | str) -> EndgameGame:
    """The endgame game of ``position`` (a state or its notation).

    Raises
    ------
    ConquianError
        As :class:`EndgameGame`.
    """
    text = position if isinstance(position, str) else format_notation(position)
    game = pyspiel.load_game(GAME_NAME, {"position": text})
    assert isinstance(game, EndgameGame)
    return game


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_TYPE, EndgameGame)
