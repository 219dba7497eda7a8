"""``hint --exact``: the endgame's equilibrium where it is small enough (verdict "solved"), else the
sampled hint with a note (docs/hint.md, docs/solve.md)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run
from conftest import EXAMPLES

from analyzer.bots.deals import deal_position
from analyzer.core.dealing import view
from analyzer.core.plain import dump_position
from analyzer.search.equilibrium import solve_endgame


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
    assert code == 0 and f"{best.text(lab)}: solved" in " ".join(out.split())


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
