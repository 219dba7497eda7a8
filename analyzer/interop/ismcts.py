"""The ``ismcts`` bot: OpenSpiel's IS-MCTS on ``python_conquian`` (``pip install 'conquian[openspiel]'``).

The first opponent not written here: OpenSpiel's own Information Set Monte
Carlo Tree Search (``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
Cowling, Powley and Whitehouse 2011) plays on the OpenSpiel game of
:mod:`analyzer.interop.openspiel`.  It is not the ``mcts`` bot
(:class:`analyzer.bots.searchbots.MctsBot`), which is this package's own IS-MCTS
(:func:`analyzer.search.mcts.search`, the search of the ``ismcts`` hint engine), nor that
engine: the names are alike, the code is OpenSpiel's (:data:`analyzer.bots.registry.BOT_NOTES`).
Per decision:

* **worlds**: every simulation starts from a deal drawn uniformly among those
  consistent with the bot's view (:func:`~analyzer.interop.match.sample_world`,
  the hint engine's sampling: no inference from the others' choices), given
  to the search through ``ISMCTSBot.set_resampler``; turned cards are chance;
* **budget**: :data:`DEFAULT_SIMULATIONS` simulations (one tree node added and
  one leaf evaluated per simulation), UCT with ``c = 2``, final choice the
  most visited move;
* **evaluator**: :class:`RolloutEvaluator`, one playout to the end of the
  deal per leaf with the ``eager`` policy (go out when possible, else the
  take that melds the most cards, else a hand-only meld, else force a player
  who cannot go out by it, else pass; a card to pay or give is the one with
  the fewest links to the cards kept, same rank or same suit within two
  ranks; ties at random), returning the result per R20.  ``policy="random"``
  plays uniformly random moves instead (OpenSpiel's ``RandomRolloutEvaluator``
  on this game).

Budgets are counted in simulations, not seconds: a seeded game is the same
game on any machine.  A decision with one legal move, or one that goes out
(R15), is played at once.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from analyzer.bots.base import bot_option, obvious_move
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Move
from analyzer.core.rules import PRESETS, Rules
from analyzer.core.state import GameState
from analyzer.interop import missing_extra
from analyzer.interop.match import sample_world
from analyzer.search.limits import MAX_SAMPLES
from analyzer.search.playout import POLICIES, eager_move, playout

try:
    import numpy as np
    from open_spiel.python.algorithms import ismcts as _ismcts
    from open_spiel.python.algorithms import mcts as _mcts

    from analyzer.interop import openspiel as _openspiel
except ImportError as _exc:
    raise missing_extra("openspiel", "the ismcts bot", _exc) from None

__all__ = ["DEFAULT_SIMULATIONS", "POLICIES", "IsmctsBot", "RolloutEvaluator", "eager_move", "game_for", "playout"]

DEFAULT_SIMULATIONS = 1000
"""Simulations per decision of the ``ismcts`` bot: about 2 s per decision in ``classic`` and 3 to
4.5 s in ``megajogos`` on the development machine, somewhat less than the ``hint`` bot's thinking
time there; ``bench/ismcts.py`` measures both and gives the budget of equal thinking time."""

@cache
def game_for(rules: Rules) -> Any:
    """The ``python_conquian`` game of ``rules`` (its labels aside), loaded once."""
    base = PRESETS.get(rules.name, PRESETS["classic"])
    params: dict[str, Any] = {"variant": base.name}
    for name in ("players", "hand_size", "max_run"):
        if getattr(rules, name) != getattr(base, name):
            params[name] = getattr(rules, name)
    for name in ("exchange", "force_fit", "force_when", "on_stock_out"):
        if getattr(rules, name) != getattr(base, name):
            params[name] = str(getattr(rules, name))
    if rules.hand_melds != base.hand_melds:
        params["hand_melds"] = "true" if rules.hand_melds else "false"
    return _openspiel.load(**params)


class RolloutEvaluator(_mcts.Evaluator):  # type: ignore[misc]
    """An OpenSpiel MCTS evaluator: the mean result of playouts from the leaf (R20).

    Parameters
    ----------
    rollouts : int
        Playouts per leaf.
    policy : str
        ``"eager"`` or ``"random"`` (see :func:`playout`).
    seed : int or random.Random
        Seeds the playouts.

    Raises
    ------
    ValueError
        If ``rollouts`` is below 1 or ``policy`` unknown.
    """

    def __init__(
        self, rollouts: int = 1, policy: str = "eager", seed: int | random.Random = 0
    ) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        self.rollouts = rollouts
        self.policy = policy
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def evaluate(self, state: Any) -> Any:
        """Mean returns of :attr:`rollouts` playouts from ``state`` (a ``ConquianState``)."""
        position = state.match.state
        total = np.zeros(state.get_game().num_players())
        for _ in range(self.rollouts):
            total += np.array(playout(position, self.policy, self.rng))
        return total / self.rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Uniform over the legal actions (chance: the chance probabilities)."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class IsmctsBot:
    """OpenSpiel's IS-MCTS from the bot's view (see the module docstring); the ``mcts`` bot is
    this package's own IS-MCTS.

    Parameters
    ----------
    simulations : int
        Simulations per decision.
    uct_c : float
        UCT exploration constant.
    rollouts : int
        Playouts per evaluated leaf.
    policy : str
        Playout policy, ``"eager"`` or ``"random"``.

    Raises
    ------
    ConquianError
        If a number is not one or out of range, or the policy unknown
        (:func:`analyzer.bots.registry.bot_option`).
    """

    name = "ismcts"
    sees_all = False

    def __init__(
        self,
        simulations: int = DEFAULT_SIMULATIONS,
        uct_c: float = 2.0,
        rollouts: int = 1,
        policy: str = "eager",
    ) -> None:
        # Checked as every bot's options are (a typed name such as 'ismcts:uct_c=x' is refused
        # here, not in the middle of a game).
        bot_option("simulations", simulations, whole=True, low=1, high=MAX_SAMPLES)
        bot_option("uct_c", uct_c, low=0)
        bot_option("rollouts", rollouts, whole=True, low=1, high=MAX_SAMPLES)
        bot_option("policy", policy, choices=POLICIES)
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.policy = policy

    def __repr__(self) -> str:
        return (
            f"IsmctsBot(simulations={self.simulations}, uct_c={self.uct_c}, "
            f"rollouts={self.rollouts}, policy={self.policy!r})"
        )

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The most visited move of an IS-MCTS search from ``view`` (the acting player's view).

        Raises
        ------
        PositionError
            If the acting player's hand is hidden in ``view``.
        """
        obvious = obvious_move(view)
        if obvious is not None:
            return obvious
        me = view.to_act
        seed = rng.randrange(2**31)
        local = random.Random(seed)
        game = game_for(view.rules)

        def world(_state: Any = None, _player: int = 0) -> Any:
            return game.state_from_position(sample_world(view, me, local))

        root = world()
        search = _ismcts.ISMCTSBot(
            game,
            RolloutEvaluator(self.rollouts, self.policy, local.randrange(2**31)),
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(seed),
            final_policy_type=_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        search.set_resampler(world)
        policy = search.run_search(root)
        top = max(p for _, p in policy)
        best = sorted(int(a) for a, p in policy if p == top)
        action = best[local.randrange(len(best))]
        chosen: Move = root.match.codec.decode(root.match.state, action)
        if chosen not in view.legal_moves():
            raise ConquianError(f"IS-MCTS chose {chosen}, not a legal move of the view")
        return chosen
