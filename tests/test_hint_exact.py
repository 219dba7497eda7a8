"""``hint --exact``: the endgame's equilibrium where it is small enough (verdict "solved"), else the
sampled hint with a note; the default hint solves the smallest endgames by itself (docs/hint.md,
docs/solve.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run
from conftest import EXAMPLES

from analyzer.bots.deals import deal_position
from analyzer.core.dealing import view
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.plain import dump_position
from analyzer.core.cards import Labels
from analyzer.core.moves import parse_move
from analyzer.core.rules import get_rules
from analyzer.core.state import GameState, Phase
from analyzer.search.equilibrium import DEFAULT_MAX_NODES, EndgameTooLarge, Equilibrium, build_endgame, solve_endgame
from analyzer.service.endgames import AUTO_MAX_NODES, equal_moves, played_moves, signed, solved_text


def test_hint_exact_answers_the_equilibrium_where_it_is_small(tmp_path: Path) -> None:
    state, _ = deal_position("classic", seed=9, after=33)
    mine = view(state, state.to_act)
    path = tmp_path / "late.json"
    path.write_text(json.dumps(dump_position(mine)))
    code, out, err = run("hint", str(path), "--exact", "--json")
    assert code == 0, err
    data = json.loads(out)
    eq = solve_endgame(mine)
    lab = mine.rules.labels
    assert data["verdict"] == "solved" and data["method"] == "equilibrium"
    assert data["value"] == round(eq.value, 6)
    assert set(data["move_values"]) == {m.text(lab) for m in mine.legal_moves()}
    best = max(eq.strategy, key=lambda m: (eq.strategy[m], eq.move_values[m]))
    assert data["best"] == best.text(lab)
    code, out, err = run("hint", str(path), "--exact")
    assert code == 0 and f"{best.text(lab)} is best" in " ".join(out.split())


def test_hint_exact_falls_back_to_the_sampled_hint_with_a_note() -> None:
    code, out, err = run("hint", str(EXAMPLES / "forcing.json"), "--exact", "--samples", "8", "--json")
    assert code == 0, err
    assert "--exact: the endgame has more than" in err and "the sampled hint instead" in err
    assert json.loads(out)["verdict"] in ("clear", "close", "small")
    code, out, err = run("hint", str(EXAMPLES / "megajogos-four-players.json"), "--exact", "--samples", "8")
    assert code == 0 and "--exact solves two-player endgames" in err


def test_the_engine_hint_takes_exact() -> None:
    from cli.engine import answer

    state, _ = deal_position("classic", seed=9, after=33)
    mine = dump_position(view(state, state.to_act))
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": mine, "exact": True}))
    assert reply["ok"] and reply["result"]["verdict"] == "solved" and "strategy" in reply["result"]
    big = json.loads((EXAMPLES / "forcing.json").read_text())
    reply, _ = answer(json.dumps({"id": 2, "cmd": "hint", "position": big, "exact": True, "samples": 8}))
    assert reply["ok"] and "estimates" not in reply["result"] or reply["result"]["verdict"] != "solved"
    assert any("'exact'" in n and "sampled hint instead" in n for n in reply["result"]["notes"])


def test_the_solve_request_notes_the_fields_a_view_does_not_read() -> None:
    from cli.engine import answer

    state, _ = deal_position("classic", seed=9, after=33)
    mine = dump_position(view(state, state.to_act))
    reply, _ = answer(json.dumps({"id": 1, "cmd": "solve", "position": mine, "all_moves": True, "time_limit": 5}))
    assert reply["ok"] and reply["result"]["method"] == "equilibrium"
    assert sorted(reply["result"]["notes"]) == [
        "'all_moves' has no effect on a view (the endgame's equilibrium)",
        "'time_limit' has no effect on a view (the endgame's equilibrium)",
    ]
    full = json.loads((EXAMPLES / "example6-going-out.json").read_text())
    reply, _ = answer(json.dumps({"id": 2, "cmd": "solve", "position": full, "read": True, "exact": True}))
    assert reply["ok"] and "'read' has no effect with every hand known" in reply["result"]["notes"]


def test_a_streamed_exact_hint_has_no_early_answer() -> None:
    from web.pool import _early_hint

    assert _early_hint(json.dumps({"id": 1, "cmd": "hint", "position": "x", "exact": True})) is None
    assert _early_hint(json.dumps({"id": 1, "cmd": "hint", "position": "x"})) is not None


def _endgame_of_size(low: int, high: int) -> GameState:
    """A two-player view whose endgame has more than ``low`` and at most ``high`` positions, with
    a choice to make, from seeded classic deals."""
    for seed in range(40):
        for after in range(20, 60):
            try:
                state, _ = deal_position("classic", seed=seed, after=after)
            except ConquianError:
                break
            if state.is_terminal() or state.to_act is None or len(state.legal_moves()) < 2:
                continue
            mine = view(state, state.to_act)
            try:
                tree = build_endgame(mine, max_nodes=high)
            except (EndgameTooLarge, PositionError):
                continue
            if len(tree.kind) > low:
                return mine
    raise AssertionError(f"no endgame of {low} to {high} positions in the seeded deals")


@pytest.mark.usefixtures("both_cores")
def test_the_default_hint_solves_a_small_endgame(tmp_path: Path) -> None:
    """A two-player endgame of at most AUTO_MAX_NODES positions: the hint's default answers with
    its equilibrium (verdict "solved", the --exact answer plus the sampled hint's keys)."""
    mine = _endgame_of_size(200, AUTO_MAX_NODES)
    path = tmp_path / "late.json"
    path.write_text(json.dumps(dump_position(mine)))
    code, out, err = run("hint", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    code, out, err = run("hint", str(path), "--exact", "--json")
    exact = json.loads(out)
    for key in ("strategy", "value", "move_values", "best", "verdict", "moves"):
        assert data[key] == exact[key], key
    assert data["verdict"] == "solved" and data["evaluation"] == "equilibrium" and data["exact"] is True
    eq = solve_endgame(mine)
    lab = mine.rules.labels
    assert [m["move"] for m in data["moves"]][0] == data["best"]
    assert {m["move"] for m in data["moves"]} == {m.text(lab) for m in mine.legal_moves()}
    top = max(eq.move_values.values())
    for row in data["moves"]:
        assert row["score"] == data["move_values"][row["move"]]
        assert row["diff"] == pytest.approx(top - row["score"], abs=2e-6)
    # Asked for samples, the sampled hint answers.
    code, out, err = run("hint", str(path), "--samples", "16", "--json")
    assert code == 0 and json.loads(out)["evaluation"] == "sampled"
    # The engine's hint answers as the command.
    from cli.engine import answer

    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": dump_position(mine)}))
    assert reply["ok"] and reply["result"]["strategy"] == data["strategy"]
    assert reply["result"]["verdict"] == "solved"


def test_a_larger_endgame_is_sampled_by_default_and_solved_with_exact(tmp_path: Path) -> None:
    mine = _endgame_of_size(AUTO_MAX_NODES, DEFAULT_MAX_NODES)
    path = tmp_path / "larger.json"
    path.write_text(json.dumps(dump_position(mine)))
    code, out, err = run("hint", str(path), "--samples", "8", "--json")
    assert code == 0 and json.loads(out)["verdict"] != "solved"
    code, out, err = run("hint", str(path), "--json")
    assert code == 0 and json.loads(out)["evaluation"] == "sampled"
    code, out, err = run("hint", str(path), "--exact", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "solved"


def _equilibrium(strategy: dict[str, float], values: dict[str, float], method: str = "cfr") -> Equilibrium:
    moves = {text: parse_move(text) for text in strategy}
    return Equilibrium(
        player=0, strategy={moves[t]: p for t, p in strategy.items()}, value=sum(strategy[t] * values[t] for t in strategy),
        move_values={moves[t]: values[t] for t in strategy}, exploitability=1e-4, game_value=0.0, nodes=9_000,
        infosets=10, deals=3, seconds=0.0, method=method, iterations=50, tolerance=1e-4, stopped_by=None,
    )  # fmt: skip


def test_a_trace_of_probability_on_a_worse_move_is_not_a_mix() -> None:
    """CFR+ stops at a tolerance: a move worth much less keeps a trace of probability; it is not
    played, and the verdict names the best move alone; moves worth the same are named as such."""
    eq = _equilibrium({"pass": 0.002, "force 1": 0.998}, {"pass": 0.308, "force 1": 1.0})
    assert [m.text() for m in played_moves(eq)] == ["force 1"]
    assert solved_text(eq, Labels.FRENCH).startswith("force 1 is best: the endgame solved to an exploitability")
    tie = _equilibrium({"pass": 1.0, "force 1": 0.0}, {"pass": -0.00004, "force 1": -0.00001}, method="lp")
    assert [m.text() for m in equal_moves(tie)] == ["pass", "force 1"]
    assert solved_text(tie, Labels.FRENCH) == "pass is best, and force 1 is worth as much: the endgame solved exactly (value +0.000)."
    assert signed(-0.00004) == "+0.000"


def test_exact_in_the_exchange_notes_it_and_samples(tmp_path: Path) -> None:
    from cli.engine import answer

    state, _ = deal_position(get_rules("mexican_9_10").with_options({"players": 2}), seed=1, after=1)
    assert state.phase is Phase.EXCHANGE
    path = tmp_path / "exchange.json"
    path.write_text(json.dumps(dump_position(view(state, state.to_act))))
    code, out, err = run("hint", str(path), "--exact", "--samples", "8", "--json")
    assert code == 0 and "--exact: the exchange comes first (R9)" in err and "the sampled hint instead" in err
    assert json.loads(out)["evaluation"] == "sampled"
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": json.loads(path.read_text()), "exact": True, "samples": 8}))
    assert reply["ok"] and any("exchange comes first" in n for n in reply["result"]["notes"])


def test_options_of_the_sampled_hint_are_noted_when_the_endgame_is_solved(tmp_path: Path) -> None:
    from cli.engine import answer

    mine = _endgame_of_size(200, AUTO_MAX_NODES)
    path = tmp_path / "late.json"
    path.write_text(json.dumps(dump_position(mine)))
    code, out, err = run("hint", str(path), "--exact", "--samples", "16", "--seed", "3", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "solved"
    assert "--samples, --seed have no effect: the endgame was solved" in err
    code, out, err = run("hint", str(path), "--exact", "--static", "--json")
    assert code == 0 and "--exact has no effect with --static" in err
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": dump_position(mine), "exact": True, "samples": 16}))
    assert reply["result"]["notes"] == ["'samples' has no effect: the endgame was solved, nothing sampled"]


def test_the_vs_best_range_holds_the_whole_interval() -> None:
    """'vs best' is the estimate as shown ± a half-width rounded up: the range shown holds the
    whole interval, which a confidence sequence need not centre on the estimate."""
    import re

    from analyzer.service.hint_text import vs_best_text

    row = {"evaluated": True, "sure": False, "win": 0.5, "draw": 0.2}
    best = {**row, "move": "pass", "diff": 0.0, "diff_ci95": [0.0, 0.0]}
    other = {**row, "move": "force 1", "diff": 0.0951, "diff_ci95": [0.000126, 0.188084]}
    assert vs_best_text(best, 0, exact=False) == "best"
    assert vs_best_text(other, 1, exact=True) == "-0.10"  # exact: no interval
    found = re.fullmatch(r"([+-]\d\.\d\d) ±(\d\.\d\d)", vs_best_text(other, 1, exact=False))
    assert found is not None
    centre, half = float(found[1]), float(found[2])
    assert centre - half <= -0.188084 and centre + half >= -0.000126


def test_a_difference_that_rounds_to_zero_is_shown_without_a_sign() -> None:
    """Never "-0.00" (or "+0.00") in the table or the reasons: a difference that rounds to zero
    reads 0.00, with its interval where it has one."""
    from analyzer.analysis.reasons import signed
    from analyzer.service.hint_text import vs_best_text

    row = {"evaluated": True, "sure": False, "win": 0.5, "draw": 0.2, "move": "pass"}
    for diff in (0.0, 0.004, -0.004, -0.0):
        assert vs_best_text({**row, "diff": diff, "diff_ci95": [diff, diff]}, 1, exact=True) == "0.00"
        ranged = vs_best_text({**row, "diff": diff, "diff_ci95": [diff - 0.08, diff + 0.07]}, 1, exact=False)
        assert ranged.startswith("0.00 ±"), ranged
    assert (signed(0.02), signed(-0.02), signed(-0.001)) == ("+0.02", "-0.02", "0.00")


def test_the_json_and_the_text_show_the_same_vs_best() -> None:
    """hint --json's vs_best is what the text table prints, row by row (the board shows it too)."""
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    data = json.loads(runner.invoke(app, ["hint", "--json", "--samples", "64"]).stdout)
    text = runner.invoke(app, ["hint", "--samples", "64"]).stdout
    assert data["moves"][0]["vs_best"] == "best"
    for m in data["moves"][1:]:
        assert "±" in m["vs_best"] and m["vs_best"] in text


def test_the_description_says_the_other_hands_given_are_not_used() -> None:
    """A sampled hint on a position that gives the other hand says it does not use it (the
    player to act cannot see it); on his view, nothing is said."""
    from analyzer.bots.deals import deal_position
    from analyzer.core.dealing import view
    from analyzer.service.hint_text import _unused_hands

    state, _ = deal_position("classic", seed=2, after=1)
    me = state.to_act
    other = 1 - me
    assert _unused_hands(state) == f" (player {other}'s hand, though given, is not used: player {me} cannot see it)"
    assert _unused_hands(view(state, me)) == ""
    three, _ = deal_position("megajogos", seed=2, after=4)
    assert "the other hands, though given, are not used" in _unused_hands(three)
