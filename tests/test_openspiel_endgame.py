"""Equilibrium endgames held to an outside solver (issue 45): the same endgame as OpenSpiel's game
``python_conquian_endgame``; OpenSpiel computes our strategy's value and exploitability, and its own
CFR+ converges to our value (bench/openspiel_endgames.py runs more endgames)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'"
)

from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402

from analyzer.bots.game import play_game  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402
from analyzer.interop import openspiel_endgame as endgame_game  # noqa: E402
from analyzer.search import equilibrium  # noqa: E402


def _endgames(variant: str, count: int, most: int) -> list[GameState]:
    rules = get_rules(variant)
    if rules.players != 2:
        rules = rules.with_options({"players": 2})
    found: list[GameState] = []
    for seed in range(200):
        game = play_game(rules, ["greedy", "greedy"], seed)
        state = game.start
        for _, move in game.moves:
            if state.phase in (Phase.OFFER, Phase.FORCED) and len(state.legal_moves()) >= 2 and state.stock_count <= 3:
                mine = view(state, state.to_act)
                try:
                    tree = equilibrium.build_endgame(mine, max_nodes=most)
                except equilibrium.EndgameTooLarge:
                    state = state.apply(move)
                    continue
                if tree.nodes >= 30:
                    found.append(mine)
                    break
            state = state.apply(move)
        if len(found) >= count:
            break
    return found


def _strategies(tree: equilibrium.EndgameTree, labels: object) -> tuple[dict[str, list[float]], float]:
    pay = equilibrium._payoffs(tree)
    plan0, value = equilibrium._realization_lp(tree, pay, 0)
    plan1, _ = equilibrium._realization_lp(tree, pay, 1)
    policy = {**equilibrium._behaviour(tree, plan0, 0), **equilibrium._behaviour(tree, plan1, 1)}
    keys = {
        endgame_game.information_key(p, dealt, history, labels): list(policy[k])
        for k, (p, dealt, history) in enumerate(tree.infosets)
    }
    return keys, value


@pytest.mark.parametrize("variant", ["classic", "hoyle1897", "cooncan1913", "megajogos", "mexican"])
def test_openspiel_agrees_with_the_equilibrium(variant: str) -> None:
    views = _endgames(variant, 2, 1_500)
    assert views, f"no small endgame among the seeded {variant} deals"
    for mine in views:
        tree = equilibrium.build_endgame(mine, max_nodes=1_500)
        strategies, value = _strategies(tree, mine.rules.labels)
        game = endgame_game.load(mine)
        ours = endgame_game.tabular_policy(game, strategies)
        # OpenSpiel's own evaluation of our strategy: the value, and no best response gains.
        theirs = expected_game_score.policy_value(game.new_initial_state(), [ours, ours])
        assert theirs[0] == pytest.approx(value, abs=1e-6)
        assert exploitability.exploitability(game, ours) < 1e-6
        # OpenSpiel's CFR+ converges to the same value.
        solver = cfr.CFRPlusSolver(game)
        for _ in range(300):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        gap = exploitability.exploitability(game, average)
        cfr_value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
        assert abs(cfr_value - value) <= 2 * gap + 1e-6


def test_the_endgame_game_refuses_what_is_not_an_endgame() -> None:
    from analyzer.core.errors import ConquianError

    with pytest.raises(ConquianError, match="needs the parameter 'position'"):
        pyspiel.load_game("python_conquian_endgame")
    with pytest.raises(ConquianError, match="two-player position after the exchange"):
        endgame_game.load("megajogos spanish 2 0 8/8/8 - - 16")
