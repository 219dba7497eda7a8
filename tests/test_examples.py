"""Every file in examples/positions/ is checked against its own expected answer (RULES.md section 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from analyzer.core.cards import mask_of, parse_cards
from analyzer.core.errors import ConquianError
from analyzer.analysis.static import static_hints
from analyzer.core.melds import is_meld
from analyzer.solver.partition import solve_arrangement
from analyzer.formats.position import load_position
from analyzer.core.rules import get_rules

FILES = sorted(EXAMPLES.glob("*.json"))


def test_examples_exist() -> None:
    names = {f.name for f in FILES}
    # One file per worked example of RULES.md section 5 (1-7).
    for k in range(1, 8):
        if k == 5:
            assert "forcing.json" in names
        else:
            assert any(n.startswith(f"example{k}-") for n in names), k


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example(path: Path) -> None:
    data = json.loads(path.read_text())
    if data.get("type") == "melds":
        for query in data["queries"]:
            rules = get_rules(query.get("variant", data.get("variant", "classic")))
            cards = mask_of(parse_cards(query["cards"], rules.labels))
            expected = query["expected"]
            assert is_meld(cards, rules) == expected["is_meld"], query
            assert solve_arrangement(cards, rules).melded == expected["melded"], query
        return
    expected = data["expected"]
    if not expected["valid"]:
        with pytest.raises(ConquianError) as info:
            load_position(data)
        assert expected["error_contains"] in str(info.value)
        return
    state = load_position(data)
    labels = state.rules.labels
    legal = [m.text(labels) for m in state.legal_moves()]
    ranked = [h.move.text(labels) for h in static_hints(state)]
    if "legal" in expected:
        assert sorted(legal) == sorted(expected["legal"])
    for move in expected.get("legal_contains", []):
        assert move in legal
    # The "static_*" keys are the ranking of the one-move static evaluation (hint --static).
    if "static_best" in expected:
        assert ranked[0] == expected["static_best"]
    if "static_best_prefix" in expected:
        assert ranked[0].startswith(expected["static_best_prefix"])
    if "static_best_suffix" in expected:
        assert ranked[0].endswith(expected["static_best_suffix"])
    if "static_worst" in expected:
        assert ranked[-1] == expected["static_worst"]


def test_bundled_default_is_worked_example_5() -> None:
    bundled = ROOT / "cli" / "data" / "default-position.json"
    assert bundled.read_bytes() == (EXAMPLES / "forcing.json").read_bytes()


def test_the_bundled_record_replays_and_reviews() -> None:
    from cli_run import run

    record = ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl"
    code, out, err = run("replay", str(record), "--json")
    assert code == 0, err
    assert json.loads(out)["winner"] == 0
    code, out, err = run("review", str(record), "--samples", "2", "--json")
    assert code == 0, err
    review = json.loads(out)
    assert review["moves"] and {s["player"] for s in review["summary"]} == {0, 1}


def test_examples_cover_every_preset_and_the_megajogos_player_counts() -> None:
    # A bundled position for every preset, and for the MegaJogos rules at each count (R8).
    seen = set()
    for path in FILES:
        data = json.loads(path.read_text())
        if data.get("type") != "melds" and data["expected"]["valid"]:
            rules = load_position(data).rules
            seen.add((rules.name, rules.players))
    from analyzer.core.rules import MEGAJOGOS, PRESETS

    assert {name for name, _ in seen} >= set(PRESETS)
    assert seen >= {("megajogos", n) for n in MEGAJOGOS.player_counts}
