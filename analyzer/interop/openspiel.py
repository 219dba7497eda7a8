"""Conquian as an OpenSpiel game: ``python_conquian`` (install with ``pip install 'conquian[openspiel]'``).

Importing this module registers the game with pyspiel::

    import pyspiel
    import analyzer.interop.openspiel  # registers python_conquian

    game = pyspiel.load_game("python_conquian", {"variant": "megajogos"})
    state = game.new_initial_state()          # chance deals the cards (R8)

It follows OpenSpiel's Python-game pattern (``kuhn_poker.py``): a module-level
game type, :class:`ConquianGame` and :class:`ConquianState` subclasses, an
observer, and ``pyspiel.register_game`` at import.  The game logic is the
engine's, through :class:`~analyzer.interop.match.Match`:

* chance nodes: the dealer (unless the ``dealer`` parameter gives him), each
  dealt card, and each turned card (R8, R10);
* the exchange (R9) is the engine's: each player in turn order chooses a card
  (``give``), seen by nobody else, and the cards move once all have chosen;
* actions: :class:`~analyzer.interop.codec.ActionCodec`, one per legal engine
  move (``docs/openspiel.md``);
* observations: the information state (string and tensor) and the
  observation show a player only what he has seen (his view, R6, R9);
* returns per R20: the winner +1, every other player -1, a draw 0;
* :meth:`ConquianState.resample_from_infostate` draws a state the player
  cannot tell from this one, for IS-MCTS.

Parameters (``pyspiel.load_game("python_conquian", {...})``): ``variant``
(any preset of ``conquian variants``), ``dealer`` (a seat, or -1 for chance), and
the rule options of :class:`~analyzer.core.rules.Rules`, each overriding the
preset's value when set: ``players``, ``hand_size`` (at most 10),
``max_run`` (-1: the preset's), ``exchange``, ``rearrange``, ``force_fit``,
``force_when``, ``on_stock_out`` (``""``: the preset's), ``hand_melds``,
``upcard`` and ``discard_force`` (``"true"``, ``"false"`` or ``""``).
The upcard (R10a) is one more chance outcome of the deal, after the hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.interop import missing_extra
from analyzer.interop.match import RULE_OPTIONS, Match, rules_with, tensor_layout

try:
    import numpy as np
    import pyspiel
except ImportError as _exc:
    raise missing_extra("openspiel", "the OpenSpiel game", _exc) from None

__all__ = [
    "GAME_NAME",
    "ConquianGame",
    "ConquianObserver",
    "ConquianState",
    "load",
    "make_resampler",
    "rules_from_params",
    "state_from_position",
]

GAME_NAME = "python_conquian"
"""The name the game is registered under."""

_DEFAULT_PARAMS: dict[str, Any] = {
    "variant": "classic",
    "dealer": -1,
    "players": -1,
    "hand_size": -1,
    "max_run": -1,
    "exchange": "",
    "rearrange": "",
    "force_fit": "",
    "force_when": "",
    "hand_melds": "",
    "on_stock_out": "",
    "upcard": "",
    "discard_force": "",
}

_MAX_PLAYERS = 4


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Conquian",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULT_PARAMS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_GAME_TYPE_2P = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def rules_from_params(params: Mapping[str, Any]) -> Rules:
    """The :class:`~analyzer.core.rules.Rules` of game parameters (see the module docstring).

    Raises
    ------
    ConquianError
        For an unknown parameter, variant or option value, or numbers that
        cannot make a deal; the message names the parameter.
    """
    values = {**_DEFAULT_PARAMS, **params}
    unknown = sorted(set(values) - set(_DEFAULT_PARAMS))
    if unknown:
        raise ConquianError(f"unknown parameter(s) {', '.join(unknown)} of {GAME_NAME}")
    options = {name: values[name] for name in RULE_OPTIONS}
    return rules_with(str(values["variant"]), **options)


def _max_moves(rules: Rules) -> int:
    """An upper bound on the decisions of one deal (R19): every centre card is offered at most
    once to each player and then taken, or forced and laid in; one hand card at least is paid or
    melded for each card taken."""
    n, h = rules.players, rules.hand_size
    centre_cards = rules.stock_size + n * h
    return n + (n * h) // 3 + centre_cards * (n + 2)


def _chance_nodes(rules: Rules) -> int:
    """Chance nodes of one deal: the dealer, every dealt card, every turned card (R8, R10)."""
    return 1 + rules.players * rules.hand_size + rules.stock_size


class ConquianGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_conquian`` game of OpenSpiel (see the module docstring).

    Parameters
    ----------
    params : dict, optional
        Game parameters; missing ones take their defaults.

    Attributes
    ----------
    rules : Rules
        The variant with its options.
    dealer : int or None
        The fixed dealer, or ``None`` when chance chooses him.

    Raises
    ------
    ConquianError
        For bad parameters (see :func:`rules_from_params`), or a hand size
        over 10 (the action encoding's limit).
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        values = {**_DEFAULT_PARAMS, **(params or {})}
        rules = rules_from_params(values)
        dealer = int(values["dealer"])
        if dealer != -1 and not 0 <= dealer < rules.players:
            raise ConquianError(f"dealer={dealer} is not a seat of {rules.name} (or -1: chance)")
        if rules.players > _MAX_PLAYERS:
            raise ConquianError(f"{GAME_NAME} has at most {_MAX_PLAYERS} players")
        codec = Match.new(rules).codec
        n = rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=max(40, n),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if n == 2 else None,
            max_game_length=_max_moves(rules),
        )
        super().__init__(_GAME_TYPE_2P if n == 2 else _GAME_TYPE, info, dict(values))
        self.rules = rules
        self.dealer = None if dealer == -1 else dealer

    def new_initial_state(self) -> ConquianState:
        """A deal about to be dealt (chance deals every card, R8)."""
        return ConquianState(self)

    def state_from_position(self, position: GameState) -> ConquianState:
        """A state that starts at ``position`` (every hand known; turns left to chance).

        Raises
        ------
        PositionError
            If a hand or a chosen exchange gift is hidden in ``position``.
        ConquianError
            If ``position`` is of another variant.
        """
        if replace(position.rules, name=self.rules.name, labels=self.rules.labels) != self.rules:
            raise ConquianError(
                f"the position's rules are not the game's ({position.rules!r}, {self.rules!r})"
            )
        if position.rules != self.rules:
            position = replace(position, rules=self.rules)
        return ConquianState(self, Match.from_position(position))

    def max_chance_nodes_in_history(self) -> int:
        """Chance nodes in one deal: dealer, dealt cards, turned cards (R8, R10)."""
        return _chance_nodes(self.rules)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ConquianObserver:
        """An observer (OpenSpiel's PyObserver interface) for ``iig_obs_type``."""
        return ConquianObserver(
            self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class ConquianState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_conquian``: a :class:`~analyzer.interop.match.Match` behind
    OpenSpiel's state contract.

    Attributes
    ----------
    match : Match
        The deal, its position and its history (immutable; replaced at each action).
    """

    def __init__(self, game: ConquianGame, match: Match | None = None) -> None:
        super().__init__(game)
        self.match = match if match is not None else Match.new(game.rules, game.dealer)

    # OpenSpiel's state API.
    def current_player(self) -> int:
        """The seat to act; ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        return self.match.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the player to act, increasing."""
        return self.match.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance actions and their probabilities (dealer, dealt card, turned card)."""
        return self.match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.match = self.match.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.match.action_text(action)

    def is_terminal(self) -> bool:
        """True when the deal is over (R15, R18)."""
        return self.match.is_terminal()

    def returns(self) -> list[float]:
        """Per player (R20): the winner +1, the others -1, a draw 0; 0 before the end."""
        return self.match.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ConquianState:
        """A state with the same information state for ``player_id``, drawn at random.

        The hidden cards (and hidden exchange gifts) are drawn uniformly among
        those consistent with what the player has seen
        (:meth:`~analyzer.interop.match.Match.resample`); the new state's
        history is a real history of the game.

        Parameters
        ----------
        player_id : int
        probability_sampler : callable
            Returns a float in ``[0, 1)`` (e.g. ``pyspiel.UniformProbabilitySampler``);
            it seeds the draw.
        """
        rng = random.Random(int(float(probability_sampler()) * 2**52))
        return _replayed(self.get_game(), self.match, player_id, rng)

    def __str__(self) -> str:
        """Every hand and the history (for debugging: it shows hidden cards)."""
        return str(self.match)


def _replayed(game: ConquianGame, match: Match, player: int, rng: random.Random) -> ConquianState:
    origin, actions = match.resample(player, rng)
    state = ConquianState(game, origin)
    for action in actions:
        state.apply_action(action)
    return state


def make_resampler(seed: int | random.Random = 0) -> Callable[[Any, int], Any]:
    """A resampler for ``ISMCTSBot.set_resampler``: ``(state, player) -> state``.

    Each call draws with :meth:`ConquianState.resample_from_infostate`'s
    method, from one seeded generator (reproducible searches).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return _replayed(state.get_game(), state.match, player, rng)

    return resample


def state_from_position(game: ConquianGame, position: GameState) -> ConquianState:
    """Same as :meth:`ConquianGame.state_from_position`."""
    return game.state_from_position(position)


class ConquianObserver:
    """OpenSpiel's PyObserver for ``python_conquian``: ``tensor``, ``dict``, ``set_from``,
    ``string_from``.

    ``perfect_recall`` gives the information state (the history as the player
    saw it, and in the tensor the cards each seat paid and passed); without
    it, the observation (the table now).  ``private_info`` chooses whose
    cards are shown: the player's own (``SINGLE_PLAYER``), nobody's
    (``NONE``) or everybody's (``ALL_PLAYERS``).  See
    :func:`~analyzer.interop.match.tensor_layout` for the tensor pieces.

    Raises
    ------
    ValueError
        If observation parameters are given (there are none).
    """

    def __init__(self, rules: Rules, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        kinds = {
            pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
            pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
        }
        self.private = kinds[iig_obs_type.private_info]
        self.public = bool(iig_obs_type.public_info)
        self.recall = bool(iig_obs_type.perfect_recall)
        pieces = tensor_layout(rules, private=self.private, public=self.public, recall=self.recall)
        total = sum(size for _, size, _ in pieces)
        self.tensor = np.zeros(total, np.float32)
        self.dict: dict[str, Any] = {}
        index = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def set_from(self, state: ConquianState, player: int) -> None:
        """Write ``player``'s tensor of ``state`` into :attr:`tensor`."""
        self.tensor[:] = state.match.tensor(
            player, private=self.private, public=self.public, recall=self.recall
        )

    def string_from(self, state: ConquianState, player: int) -> str:
        """``player``'s information state string (perfect recall) or observation string."""
        if self.recall:
            return state.match.information_string(player, private=self.private, public=self.public)
        return state.match.observation_string(player, private=self.private, public=self.public)


def load(variant: str | Rules = "classic", **params: Any) -> ConquianGame:
    """``pyspiel.load_game("python_conquian", {"variant": variant, **params})``.

    Raises
    ------
    ConquianError
        For bad parameters.
    """
    name = variant.name if isinstance(variant, Rules) else str(variant)
    game = pyspiel.load_game(GAME_NAME, {"variant": name, **params})
    assert isinstance(game, ConquianGame)
    return game


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, ConquianGame)
