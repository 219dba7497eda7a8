"""The PettingZoo AEC environment: PettingZoo's own API test for both presets, seeded deals,
action masks, private observations and R20 rewards."""

from __future__ import annotations

import warnings

import pytest
from interop_support import random_matches, readme_block

pytest.importorskip(
    "pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'"
)

import numpy as np
from pettingzoo.test import api_test

from analyzer.core.errors import IllegalMoveError
from analyzer.interop.pettingzoo import ConquianEnv, env, raw_env

# api_test warns about every dict observation, even those of PettingZoo's own card and board
# games (it exempts them by name): observations with an action mask are dicts by design.
EXPECTED = (
    "Observation space for each agent probably should be",
    "Observation is not a NumPy array",
)


@pytest.mark.parametrize(
    ("variant", "players"),
    [("classic", None), ("megajogos", None), ("megajogos", 2), ("megajogos", 4), ("mexican", 3),
     ("mexican_9_10", 4)],
)  # fmt: skip
def test_api_test_passes(variant: str, players: int | None) -> None:
    # Every preset, and the player counts beyond a preset's own (R8: the 'players' parameter).
    options = {} if players is None else {"players": players}
    game = env(variant=variant, **options)
    assert len(game.possible_agents) == (players or (3 if variant == "megajogos" else 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(game, num_cycles=200)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED)]
    assert unexpected == []


def test_a_random_policy_plays_a_whole_megajogos_deal() -> None:
    game = env(variant="megajogos")
    game.reset(seed=42)
    steps = 0
    for agent in game.agent_iter():
        observation, _reward, termination, truncation, _info = game.last()
        if termination or truncation:
            action = None
        else:
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)
        steps += 1
    assert steps > 10 and game.agents == []


def play(seed: int, variant: str = "classic") -> list[object]:
    """The deal, then (agent, action, reward) of a whole game where each agent plays its highest
    legal action."""
    game = raw_env(variant)
    game.reset(seed=seed)
    log: list[object] = [game.match.start]
    while not all(game.terminations.values()):
        agent = game.agent_selection
        mask = game.observe(agent)["action_mask"]
        action = int(np.flatnonzero(mask)[-1])
        game.step(action)
        log.append((agent, action, game.rewards[agent]))
    return log


def test_a_seed_gives_the_same_deal_and_game() -> None:
    assert play(3) == play(3)
    assert play(3) != play(4)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_rewards_at_the_end_follow_r20(variant: str) -> None:
    for seed in range(6):
        game = raw_env(variant)
        game.reset(seed=seed)
        total = dict.fromkeys(game.agents, 0.0)
        while not all(game.terminations.values()):
            agent = game.agent_selection
            mask = game.observe(agent)["action_mask"]
            game.step(int(np.random.default_rng(seed).choice(np.flatnonzero(mask))))
            for name, reward in game.rewards.items():
                total[name] += reward
        expected = game.match.returns()
        assert [total[a] for a in game.possible_agents] == expected


def test_observations_are_the_players_information_and_masks_only_for_the_actor() -> None:
    game = raw_env("megajogos")
    game.reset(seed=1)
    for _ in range(15):
        actor = game.agent_selection
        for agent in game.agents:
            seat = game.possible_agents.index(agent)
            observed = game.observe(agent)
            assert observed["observation"].dtype == np.float32
            assert list(observed["observation"]) == pytest.approx(game.match.tensor(seat))
            legal = set(np.flatnonzero(observed["action_mask"]).tolist())
            assert legal == (set(game.match.legal_actions()) if agent == actor else set())
        mask = game.observe(actor)["action_mask"]
        game.step(int(np.flatnonzero(mask)[-1]))


def test_an_action_outside_the_mask_is_refused() -> None:
    game = raw_env("classic")
    game.reset(seed=0)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMoveError, match="not legal"):
        game.step(illegal)
    with pytest.raises(IllegalMoveError, match="must act"):
        game.step(None)


def test_move_of_and_render_speak_the_engine() -> None:
    game = raw_env("classic", render_mode="ansi")
    game.reset(seed=2)
    action = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0])
    move = game.move_of(action)
    assert move is not None and move in game.match.state.legal_moves()
    text = game.render()
    assert text is not None and "hand:" in text
    with pytest.raises(ValueError, match="render_mode"):
        ConquianEnv("classic", render_mode="rgb_array")


def test_spaces_fit_the_codec_and_tensor() -> None:
    game = raw_env("classic")
    match = next(random_matches("classic", 1))
    space = game.observation_space("player_0")
    assert space["observation"].shape == (len(match.tensor(0)),)
    assert game.action_space("player_1").n == game.codec.num_actions == 20709


def test_the_readme_example_runs() -> None:
    namespace: dict[str, object] = {}
    exec(readme_block("from analyzer.interop.pettingzoo import env"), namespace)
    game = namespace["game"]
    assert game.agents == []  # type: ignore[attr-defined]  # every agent played to the end
    assert sorted(game.unwrapped.match.returns()) in ([0.0, 0.0], [-1.0, 1.0])  # type: ignore[attr-defined]
