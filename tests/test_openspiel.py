"""The OpenSpiel game python_conquian: OpenSpiel's own conformance test for both presets, the
action encoding against the engine, private information states, returns (R20), IS-MCTS resampling."""

from __future__ import annotations

import random

import pytest
from interop_support import card_tokens, readme_block, secret_cards

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'"
)
np = pytest.importorskip("numpy", reason="numpy comes with OpenSpiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from analyzer.core.dealing import deal  # noqa: E402
from analyzer.core.errors import ConquianError  # noqa: E402
from analyzer.interop import openspiel  # noqa: E402
from analyzer.interop.codec import ActionCodec  # noqa: E402


def play_randomly(game: object, seed: int, decisions: int) -> object:
    """A state after ``decisions`` random player decisions (chance drawn at random too)."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    done = 0
    while not state.is_terminal() and done < decisions:
        if not state.is_chance_node():
            done += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("variant", "sims"), [("classic", 12), ("megajogos", 6), ("hoyle1897", 6), ("cooncan1913", 6)]
)
def test_random_sim_test_passes(variant: str, sims: int) -> None:
    game = pyspiel.load_game("python_conquian", {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("variant", "players"), [("megajogos", 2), ("megajogos", 4), ("mexican", 3), ("mexican_9_10", 4)]
)
def test_random_sim_test_passes_at_every_player_count(variant: str, players: int) -> None:
    # R8: the 'players' parameter deals a count the variant allows; OpenSpiel's own checks pass.
    game = pyspiel.load_game("python_conquian", {"variant": variant, "players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_the_upcard_is_a_chance_outcome_after_the_hands() -> None:
    # R10a: cooncan1913 deals the hands, then turns one more card up for the dealer; a custom
    # megajogos game with the upcard and four players as well.
    for params in ({"variant": "cooncan1913"}, {"variant": "megajogos", "players": 4, "upcard": "true"}):
        game = pyspiel.load_game("python_conquian", params)
        state = game.new_initial_state()
        dealt = 0
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
            dealt += 1
        match = state.match
        n, h = match.rules.players, match.rules.hand_size
        assert dealt == 1 + n * h + 1  # the dealer, the hands, the upcard
        centre = match.state.centre
        assert centre is not None and centre.kind == "upcard" and centre.source == match.dealer
        assert centre.card == match.dealt[-1]
        assert not any(h >> centre.card & 1 for h in match.state.hands)


def test_random_sim_test_passes_with_rule_options_and_a_given_dealer() -> None:
    game = openspiel.load("megajogos", dealer=1, hand_melds="false", force_when="after_decline")
    assert game.rules.hand_melds is False and game.dealer == 1
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_game_facts(variant: str) -> None:
    game = openspiel.load(variant)
    codec = ActionCodec(variant)
    assert game.num_distinct_actions() == codec.num_actions
    assert game.num_players() == game.rules.players
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    zero_sum = pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.utility == zero_sum) == (variant == "classic")  # R20: 3 players lose -1 each


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_actions_are_the_engine_moves_one_to_one(variant: str) -> None:
    game = openspiel.load(variant)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                engine = state.match.state
                actions = state.legal_actions()
                moves = engine.legal_moves()
                assert len(actions) == len(moves)
                texts = {state.action_to_string(state.current_player(), a) for a in actions}
                assert texts == {m.text(engine.rules.labels) for m in moves}
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_information_states_show_only_the_players_view(variant: str) -> None:
    game = openspiel.load(variant)
    for seed in range(4):
        state = play_randomly(game, seed, 10 + 7 * seed)
        if state.is_terminal() or state.match.state is None:  # type: ignore[attr-defined]
            continue
        for player in range(game.num_players()):
            secret = secret_cards(state.match, player)  # type: ignore[attr-defined]
            for text in (
                state.information_state_string(player),  # type: ignore[attr-defined]
                state.observation_string(player),  # type: ignore[attr-defined]
            ):
                assert not card_tokens(text) & secret
            hand = np.array(state.information_state_tensor(player)[:40])  # type: ignore[attr-defined]
            own = state.match.state.hand(player)  # type: ignore[attr-defined]
            assert [int(v) for v in hand] == [own >> c & 1 for c in range(40)]


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_resample_from_infostate_keeps_the_information_state(variant: str) -> None:
    game = openspiel.load(variant)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(4):
        state = play_randomly(game, seed, 6 + 9 * seed)
        if state.is_terminal() or state.is_chance_node():  # type: ignore[attr-defined]
            continue
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, sampler)  # type: ignore[attr-defined]
            assert other.information_state_string(player) == state.information_state_string(player)  # type: ignore[attr-defined]
            assert other.information_state_tensor(player) == state.information_state_tensor(player)  # type: ignore[attr-defined]
            if player == state.current_player():  # type: ignore[attr-defined]
                assert other.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
            changed += other.match.state.hands != state.match.state.hands  # type: ignore[attr-defined]
    assert changed > 0


def test_openspiels_ismcts_runs_with_the_games_resampling() -> None:
    game = openspiel.load("megajogos")
    state = play_randomly(game, 3, 5)
    while state.is_chance_node():  # type: ignore[attr-defined]
        state.apply_action(state.legal_actions()[0])  # type: ignore[attr-defined]
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    for resampler in (None, openspiel.make_resampler(1)):
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 12, random_state=np.random.RandomState(0))
        if resampler is not None:
            bot.set_resampler(resampler)
        # run_search asserts that every sampled root has the root's information state.
        action = bot.step(state)
        assert action in state.legal_actions()  # type: ignore[attr-defined]


def test_returns_follow_r20() -> None:
    game = openspiel.load("megajogos")
    results = set()
    for seed in range(12):
        state = play_randomly(game, seed, 10_000)
        assert state.is_terminal()  # type: ignore[attr-defined]
        returns = state.returns()  # type: ignore[attr-defined]
        winner = state.match.state.winner  # type: ignore[attr-defined]
        expected = [0.0] * 3 if winner is None else [1.0 if p == winner else -1.0 for p in range(3)]
        assert returns == expected
        results.add(winner is None)
    assert results == {True, False}


def test_a_state_from_a_position() -> None:
    game = openspiel.load("classic")
    position = deal("classic", 4)
    state = game.state_from_position(position)
    assert state.current_player() == pyspiel.PlayerId.CHANCE  # the first turn (R10)
    assert len(state.chance_outcomes()) == 20
    with pytest.raises(ConquianError, match="rules are not the game's"):
        game.state_from_position(deal("megajogos", 4))


def test_bad_parameters_are_refused_in_one_line() -> None:
    with pytest.raises(ConquianError, match="unknown variant"):
        openspiel.load("bridge")
    with pytest.raises(ConquianError, match="dealer=7 is not a seat"):
        openspiel.load("classic", dealer=7)
    with pytest.raises(ConquianError, match="on_stock_out='coin' is not one of"):
        openspiel.load("classic", on_stock_out="coin")
    # The value is named, not "bad player count or hand size in 'classic'".
    with pytest.raises(ConquianError, match=r"classic is played by 2 players, not 5 \(R8\)"):
        openspiel.load("classic", players=5)


def test_the_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    exec(readme_block("print(game.num_distinct_actions())"), {})
    out = capsys.readouterr().out
    assert out.startswith("20709\n") and "classic, seat 0 of 2" in out


@pytest.mark.parametrize(
    ("private", "pieces"),
    [("NONE", {"phase", "melded", "dead"}), ("ALL_PLAYERS", {"hands", "gave", "phase"})],
)
def test_public_and_all_hands_observers(private: str, pieces: set[str]) -> None:
    from open_spiel.python.observation import make_observation

    game = openspiel.load("classic")
    kind = pyspiel.IIGObservationType(
        perfect_recall=True,
        public_info=True,
        private_info=getattr(pyspiel.PrivateInfoType, private),
    )
    observation = make_observation(game, kind)
    state = play_randomly(game, 1, 8)
    observation.set_from(state, 0)
    assert pieces <= set(observation.dict)
    text = observation.string_from(state, 0)
    hands = [line for line in text.splitlines() if " hand: " in line]
    assert len(hands) == (0 if private == "NONE" else 2)
    if private == "NONE":
        assert "hand" not in observation.dict and not card_tokens(text) & (
            secret_cards(state.match, 0) | secret_cards(state.match, 1)  # type: ignore[attr-defined]
        )
