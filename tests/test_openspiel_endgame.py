"""Equilibrium endgames held to an outside solver (issue 45): the same endgame as OpenSpiel's game
``python_conquian_endgame``; OpenSpiel computes our strategy's value and exploitability, and its own
CFR+ converges to our value (bench/openspiel_endgames.py runs more endgames)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


@pytest.mark.parametrize("variant", ["classic", "hoyle1897", "cooncan1913", "megajogos", "mexican"])
def test_openspiel_agrees_with_the_equilibrium(variant: str) -> None:
    views = _endgames(variant, 2, 1_500)
    assert views, f"no small endgame among the seeded {variant} deals"
    for mine in views:
        game, ours, value = endgame_game.equilibrium_policy(mine, 1_500)
        # OpenSpiel's own evaluation of our strategy: the value, and no best response gains.
        theirs = expected_game_score.policy_value(game.new_initial_state(), [ours, ours])
        assert theirs[0] == pytest.approx(value, abs=1e-6)
        assert exploitability.exploitability(game, ours) < 1e-6
        # OpenSpiel's CFR+ converges to the same value.
        solver = cfr.CFRPlusSolver(game)
        for _ in range(100):  # the bound below holds at any iteration: its own gap
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


def test_the_bench_checks_each_endgame_and_counts_the_agreements(tmp_path: Path) -> None:
    """bench/openspiel_endgames.py: one row per endgame, every count in the summary, exit 0 when
    all agree; its rows' values are OpenSpiel's own evaluation of ours."""
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "openspiel_endgames.py"), "--endgames", "2",
         "--variants", "classic", "--iterations", "50", "--json", str(tmp_path / "rows.json")],
        capture_output=True, text=True, cwd=root,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    rows = json.loads((tmp_path / "rows.json").read_text())["rows"]
    assert len(rows) == 2 and all(r["agree"] and 30 <= r["nodes"] <= 1_500 for r in rows)
    assert all(abs(r["policy_value"] - r["value"]) <= 1e-6 for r in rows)
    assert out.stdout.splitlines()[-1].startswith("all           2 of 2 endgames agree")


def test_an_endgame_with_every_hand_known_starts_with_the_play() -> None:
    """Both hands empty (every card melded, R15 not yet reached): nothing to deal, the first
    state is the turn of the next stock card, and OpenSpiel agrees with our value."""
    from analyzer.formats.notation import parse_notation

    mine = parse_notation(
        "classic french 1 1 0[AH,2H,3H,4H][AD,2D,3D,4D,5D,6D]/-[AS,2S,3S][7S,7H,7D][6C,7C,JC,QC] "
        "4S:turned:1:- QH,KS,6S,KH,JH,JD,KD,QS,6H,5S,5C,3C,QD,4C,2C 4 paid:QS,5S,3C,2C/QH,6H,4C"
    )
    game, ours, value = endgame_game.equilibrium_policy(mine, 1_000)
    start = game.new_initial_state()
    assert not start.is_chance_node() and start.current_player() == mine.to_act
    assert expected_game_score.policy_value(start, [ours, ours])[0] == pytest.approx(value, abs=1e-9)
    assert exploitability.exploitability(game, ours) < 1e-6
