"""Equilibrium endgames (analyzer.search.equilibrium): the sequence-form LP's answers hold the
properties of an equilibrium of the endgame, on late positions of seeded deals."""

from __future__ import annotations

import pytest

from analyzer.bots.game import play_game
from analyzer.core.dealing import view
from analyzer.core.errors import PositionError
from analyzer.core.rules import get_rules
from analyzer.core.state import GameState, Phase
from analyzer.search import equilibrium
from analyzer.search.equilibrium import EndgameTooLarge, build_endgame, solve_endgame

pytestmark = pytest.mark.usefixtures("both_cores")


def _late_views(variant: str, stock: int, count: int) -> list[GameState]:
    """Views of the player to act at the first choice with at most ``stock`` stock cards left, in
    seeded greedy deals, whose endgames are small."""
    found: list[GameState] = []
    for seed in range(60):
        game = play_game(variant, ["greedy", "greedy"], seed)
        state = game.start
        for _, move in game.moves:
            if state.phase in (Phase.OFFER, Phase.FORCED) and state.stock_count <= stock and len(state.legal_moves()) >= 2:
                mine = view(state, state.to_act)
                try:
                    build_endgame(mine, max_nodes=5_000)
                except EndgameTooLarge:
                    break
                found.append(mine)
                break
            state = state.apply(move)
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize("variant", ["classic", "hoyle1897", "cooncan1913"])
def test_the_equilibrium_is_one(variant: str) -> None:
    views = _late_views(variant, 2, 4)
    assert views
    for mine in views:
        eq = solve_endgame(mine, max_nodes=5_000)
        assert eq.exploitability < 1e-6
        assert abs(sum(eq.strategy.values()) - 1.0) < 1e-9
        assert set(eq.strategy) == set(eq.move_values) == set(mine.legal_moves())
        # His hand's value is the strategy's average, and no move does better (an equilibrium):
        # every move he plays with some probability is worth the value.
        assert abs(eq.value - sum(p * eq.move_values[m] for m, p in eq.strategy.items())) < 1e-9
        for move, worth in eq.move_values.items():
            assert worth <= eq.value + 1e-6
            if eq.strategy[move] > 1e-6:
                assert abs(worth - eq.value) < 1e-6
        assert -1.0 - 1e-9 <= eq.value <= 1.0 + 1e-9


def test_a_move_that_goes_out_wins_the_whole_value() -> None:
    for mine in _late_views("classic", 3, 8):
        outs = [m for m in mine.legal_moves() if getattr(m, "pay", 0) is None]
        if outs:
            eq = solve_endgame(mine, max_nodes=5_000)
            assert eq.value == pytest.approx(1.0)
            assert all(eq.move_values[m] == pytest.approx(1.0) for m in outs)
            return
    pytest.skip("no late position with a move that goes out among the seeded deals")


def test_refuses_what_is_not_a_two_player_endgame() -> None:
    from analyzer.core.dealing import deal

    with pytest.raises(PositionError, match="two players"):
        solve_endgame(view(deal("megajogos", 1), 0))
    two = get_rules("megajogos").with_options({"players": 2})
    with pytest.raises(PositionError, match="exchange comes first"):
        solve_endgame(view(deal(two, 1), deal(two, 1).to_act))
    with pytest.raises(EndgameTooLarge):
        state = deal("classic", 3)
        state = state.apply(state.chance_outcomes()[0][0])
        solve_endgame(view(state, state.to_act), max_nodes=1_000)


def test_solve_on_a_view_answers_the_equilibrium_through_the_cli_and_the_engine(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from cli_run import run

    from analyzer.core.plain import dump_position
    from cli.engine import answer

    mine = next(v for v in _late_views("classic", 2, 6) if len(v.legal_moves()) >= 3)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(dump_position(mine)))
    code, out, err = run("solve", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    eq = solve_endgame(mine, max_nodes=5_000)
    lab = mine.rules.labels
    assert data["method"] == "equilibrium" and data["player"] == mine.to_act
    assert data["value"] == pytest.approx(eq.value, abs=1e-6)
    assert data["move_values"] == {m.text(lab): pytest.approx(v, abs=1e-6) for m, v in eq.move_values.items()}
    assert sum(data["strategy"].values()) == pytest.approx(1.0) and data["exploitability"] < 1e-6
    code, out, err = run("solve", str(path))
    assert code == 0 and "Equilibrium of the endgame from player" in out and "exploitability" in out
    code, _, err = run("solve", str(path), "--budget", "10")
    assert code == 1 and "more than 10 positions" in err and "conquian hint" in err
    reply, _ = answer(json.dumps({"id": 1, "cmd": "solve", "position": dump_position(mine), "read": True}))
    assert reply["ok"] and reply["result"]["prior"] == "read" and reply["result"]["exploitability"] < 1e-6


def test_an_lp_that_glop_cannot_finish_is_solved_by_cfr_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """GLOP's numerical trouble is not the user's: the endgame is solved by CFR+ to the tolerance."""
    mine = _late_views("classic", 3, 1)[0]
    exact = equilibrium.solve_endgame(mine, method="lp")

    def fails(*args: object, **kwargs: object) -> object:
        raise equilibrium.LinearProgramFailed("the endgame's linear program did not solve (status 5)")

    monkeypatch.setattr(equilibrium, "_realization_lp", fails)
    found = equilibrium.solve_endgame(mine, method="lp")
    assert found.method == "cfr" and found.exploitability <= equilibrium.DEFAULT_TOLERANCE
    assert abs(found.game_value - exact.game_value) <= 2 * equilibrium.DEFAULT_TOLERANCE + 1e-9
