"""Conquian as a PettingZoo AEC environment (``pip install 'conquian[pettingzoo]'``).

::

    from analyzer.interop.pettingzoo import env

    game = env(variant="classic")
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = game.action_space(agent).sample(mask)   # a random legal move
        game.step(action)

Agents are ``player_0``, ``player_1`` (``player_2`` in ``megajogos``), one per
seat; they act in the engine's order (the exchange, R9, is turn-order
``give`` moves nobody else sees).  Chance (the deal, R8, and every turned
card, R10) is drawn by the environment from the ``reset`` seed, so a seed
gives the same deal.

* **actions**: ``Discrete(num_actions)``, the integers of
  :class:`~analyzer.interop.codec.ActionCodec`, one per legal engine move;
  ``info["move"]`` is not given, use :meth:`ConquianEnv.move_of` to read one.
* **observations**: a dict with ``"observation"``, the player's information
  tensor (:meth:`~analyzer.interop.match.Match.tensor`, values in [0, 1]:
  his hand, his exchange, the table, counts and what each seat paid and
  passed, never another player's hidden cards), and ``"action_mask"``
  (``int8``, 1 for the legal actions of the agent to act, all 0 for the
  others).
* **rewards**: at the end only, per R20: the winner +1, every other player
  -1, a draw 0.

An action outside the mask raises :class:`~analyzer.core.errors.IllegalMoveError`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from analyzer.core.errors import IllegalMoveError
from analyzer.core.moves import Move
from analyzer.interop import missing_extra
from analyzer.interop.match import Match, rules_with, tensor_layout

try:
    import numpy as np
    from gymnasium import spaces as _spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers as _wrappers
except ImportError as _exc:
    raise missing_extra("pettingzoo", "the PettingZoo environment", _exc) from None

__all__ = ["ConquianEnv", "env", "raw_env"]


class ConquianEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring); :func:`env` wraps it.

    Parameters
    ----------
    variant : str
        ``"classic"`` or ``"megajogos"``.
    render_mode : str, optional
        ``"ansi"`` (``render()`` returns the table as text) or ``"human"``
        (prints it).
    dealer : int, optional
        The dealer; drawn from the seed when omitted (R8).
    **options
        Rule options (:func:`~analyzer.interop.match.rules_with`).

    Raises
    ------
    ConquianError
        For an unknown variant or option, or a bad dealer.
    ValueError
        For an unknown render mode.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "conquian_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        render_mode: str | None = None,
        dealer: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, human or None, not {render_mode!r}")
        self.rules = rules_with(variant, **options)
        Match.new(self.rules, dealer)  # checks the dealer
        self.dealer = dealer
        self.render_mode = render_mode
        self.codec = Match.new(self.rules).codec
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size = sum(s for _, s, _ in tensor_layout(self.rules))
        self.observation_spaces = {
            agent: _spaces.Dict(
                {
                    "observation": _spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": _spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: _spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents
        }
        self.match = Match.new(self.rules, dealer)
        self._rng = random.Random()

    # -------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent`` (the same object each call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(num_actions)`` (the same object each call)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (R8); ``seed`` fixes the deal and every turned card."""
        self._rng = random.Random(seed)
        self.match = self._chance(Match.new(self.rules, self.dealer))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.match.current_player()]

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to act (``None`` once he is done).

        Raises
        ------
        IllegalMoveError
            If ``action`` is not legal (outside the action mask).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} must act: an action, not None")
        self._cumulative_rewards[agent] = 0.0
        self.match = self._chance(self.match.apply(int(action)))
        if self.match.is_terminal():
            returns = self.match.returns()
            for i, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[i])
                self.terminations[name] = True
        else:
            self.agent_selection = self.possible_agents[self.match.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _chance(self, match: Match) -> Match:
        while match.is_chance_node():
            outcomes = match.chance_outcomes()
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            match = match.apply(self._rng.choices(actions, weights)[0])
        return match

    # ---------------------------------------------------------- observations
    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: his information tensor and his action mask."""
        player = self.possible_agents.index(agent)
        observation = np.asarray(self.match.tensor(player), dtype=np.float32)
        mask = np.zeros(self.codec.num_actions, np.int8)
        if self.match.current_player() == player:
            mask[self.match.legal_actions()] = 1
        return {"observation": observation, "action_mask": mask}

    def move_of(self, action: int) -> Move | None:
        """The engine move of ``action`` for the agent to act (``None`` once the deal is over).

        Raises
        ------
        IllegalMoveError
            If ``action`` is not legal now.
        """
        if self.match.is_terminal():
            return None
        return self.match.move_of(int(action))

    def render(self) -> str | None:
        """The table as the agent to act sees it: text (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            return None
        player = max(self.match.current_player(), 0)
        text = self.match.observation_string(player)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(variant: str = "classic", **kwargs: Any) -> ConquianEnv:
    """The unwrapped environment (see :class:`ConquianEnv`)."""
    return ConquianEnv(variant, **kwargs)


def env(variant: str = "classic", **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: out-of-bounds actions
    are refused and the reset-before-step order is enforced.

    Parameters
    ----------
    variant : str
        ``"classic"`` or ``"megajogos"``.
    **kwargs
        ``render_mode``, ``dealer`` and rule options (see :class:`ConquianEnv`).
    """
    wrapped = _wrappers.AssertOutOfBoundsWrapper(raw_env(variant, **kwargs))
    return _wrappers.OrderEnforcingWrapper(wrapped)
