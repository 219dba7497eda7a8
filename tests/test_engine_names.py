"""The hint engines are keyed by method (``ismcts``, ``pimc``, ``cpsat``) with their version names
(``v3``, ``v2``, ``v1``) as aliases: every place that takes an engine name takes both, the answers
keep naming the engine by its version (``engine``) beside its method (``method``), and what
differs by engine is read from its attributes (docs/hint.md)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.analysis.advisor import advise
from analyzer.analysis.engines import (
    ALIASES,
    AUTO,
    ENGINE_NAMES,
    ENGINES,
    METHODS,
    engine_for,
    searching_engine,
)
from analyzer.bots.registry import BOT_NOTES, BOTS, check_bot, make_bot
from analyzer.core.dealing import deal
from analyzer.core.errors import ConquianError
from analyzer.core.rules import get_rules
from analyzer.formats.sniff import read_position
from analyzer.service.results import hint_data

FORCING = EXAMPLES / "forcing.json"
RECORD = ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl"
PAIRS = sorted(ALIASES.items())  # (version, method)


def test_the_engines_are_keyed_by_method_and_found_by_version() -> None:
    assert list(ENGINES) == ["ismcts", "pimc", "cpsat"]
    # The version names are public (--engine, bot options, the engine protocol): kept as aliases.
    assert ALIASES == {"v3": "ismcts", "v2": "pimc", "v1": "cpsat"}
    assert {m: v for v, m in ALIASES.items()} == METHODS
    assert ENGINE_NAMES == ("auto", "ismcts", "pimc", "cpsat", "v3", "v2", "v1")
    for version, method in PAIRS:
        found = ENGINES[method]
        assert found.method_name == method and found.name == version
        assert ENGINES[version] is found and ENGINES.get(version) is found and version in ENGINES
        for rules in (get_rules("classic"), get_rules("megajogos")):
            assert engine_for(method, rules) is engine_for(version, rules) is found
    assert "v9" not in ENGINES and ENGINES.get("auto") is None
    with pytest.raises(KeyError):
        ENGINES["v9"]
    with pytest.raises(ConquianError, match="unknown hint engine"):
        engine_for("v9", get_rules("classic"))


def test_what_differs_by_engine_is_an_attribute() -> None:
    for engine in ENGINES.values():
        assert engine.one_tree is (engine.search == "mcts")
        assert engine.unit == ("searches" if engine.one_tree else "deals")
        assert engine.label == f"{engine.method_name} ({engine.name})"
        assert engine.description
    # A changed copy follows its search, not its name.
    assert replace(ENGINES["pimc"], search="mcts").one_tree
    assert not replace(ENGINES["ismcts"], search="lookahead").one_tree
    assert engine_for(AUTO, get_rules("megajogos")).one_tree
    assert not engine_for(AUTO, get_rules("classic")).one_tree


def test_searching_engine_hands_an_open_deal_to_the_lookahead_by_either_name() -> None:
    state = deal("megajogos", 5)  # every hand and the stock order known
    for version, method in PAIRS:
        by_method = searching_engine(method, state, open_hands=True)
        assert by_method is searching_engine(version, state, open_hands=True)
        assert not by_method.one_tree  # the exact lookahead answers, for ismcts too
        assert searching_engine(method, state) is ENGINES[method]  # from a view: its own search


@pytest.mark.parametrize(("version", "method"), PAIRS)
def test_advise_by_method_or_version_answers_alike_and_names_the_version(
    version: str, method: str
) -> None:
    state = read_position(FORCING)
    first = advise(state, samples=4, seed=3, engine=method)
    second = advise(state, samples=4, seed=3, engine=version)
    assert first.engine == second.engine == version
    assert first.estimates == second.estimates


@pytest.mark.parametrize(("version", "method"), PAIRS)
def test_hint_json_by_method_or_version_is_the_same(version: str, method: str) -> None:
    answers = []
    for name in (method, version, method.upper()):
        code, out, err = run("hint", str(FORCING), "--engine", name, "--samples", "4", "--json", "--cards")
        assert code == 0, err
        data = json.loads(out)
        data.pop("seconds")
        answers.append(data)
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["engine"] == version and answers[0]["method"] == method
    assert answers[0]["cards"]["engine"] == version and answers[0]["cards"]["method"] == method


@pytest.mark.parametrize(("version", "method"), PAIRS)
def test_the_engine_protocol_takes_both_names(version: str, method: str) -> None:
    from cli.engine import answer

    position = json.loads(FORCING.read_text())
    results = []
    for name in (method, version):
        reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "engine": name, "samples": 4}))
        assert reply["ok"] is True, reply
        result = reply["result"]
        result.pop("seconds")
        results.append(result)
    assert results[0] == results[1]
    assert results[0]["engine"] == version and results[0]["method"] == method


@pytest.mark.parametrize("name", ["ismcts", "v2", "cpsat"])
def test_review_json_names_the_method_and_whether_one_tree_beside_the_version(name: str) -> None:
    # The board branches on what the review ran (one_tree), never on a version name.
    code, out, err = run("review", str(RECORD), "--engine", name, "--samples", "2", "--json")
    assert code == 0, err
    settings = json.loads(out)["settings"]
    found = ENGINES[name]
    assert settings["engine"] == found.name and settings["method"] == found.method_name
    assert settings["one_tree"] is found.one_tree


def test_the_board_never_branches_on_a_version_name() -> None:
    # A version name ("v1", "v2", "v3") written in the page's modules is a branch on it, which
    # breaks when an engine is added: what differs by engine comes from the answers' attributes
    # (a review's one_tree), and the names the board passes on come from the answers.
    names = "|".join(ALIASES)
    version = re.compile(rf"""["'`](?:{names})["'`]""")
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted((ROOT / "web" / "static").glob("*.js"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if version.search(line)
    ]
    assert found == []


def test_the_verdict_counts_searches_for_the_one_tree_engine_and_deals_else() -> None:
    state = read_position(FORCING)
    for version, method in PAIRS:
        advice = advise(state, samples=4, seed=1, engine=method)
        narrow = replace(advice, verdict="narrow")  # the sentence that names its unit
        text = hint_data(state, narrow, seed=1, open_hands=False, top=None)["verdict_text"]
        unit = "searches" if ENGINES[version].one_tree else "deals"
        assert f"over the same {unit}" in text, text


@pytest.mark.parametrize("name", ["ismcts", "v3"])
def test_a_position_budget_is_refused_for_the_one_tree_engine_by_either_name(name: str) -> None:
    code, out, err = run("hint", str(FORCING), "--engine", name, "--budget", "500", "--samples", "4")
    assert code == 2 and out == "" and one_error_line(err)
    assert "counts iterations" in err
    code, out, err = run("review", str(EXAMPLES.parent / "records" / "classic-view.jsonl"),
                         "--engine", name, "--budget", "500")  # fmt: skip
    assert code == 2 and one_error_line(err) and "use --samples" in err


@pytest.mark.parametrize(("version", "method"), PAIRS)
def test_the_hint_bot_takes_both_names(version: str, method: str) -> None:
    for rules in (get_rules("classic"), get_rules("megajogos")):
        by_method = make_bot(f"hint:engine={method}").setup(rules)  # type: ignore[attr-defined]
        by_version = make_bot(f"hint:engine={version}").setup(rules)  # type: ignore[attr-defined]
        assert by_method == by_version and by_method[0] == ENGINES[method]


@pytest.mark.parametrize(
    ("bot", "named"),
    [
        # An option the engine never reads is refused by its method name as by its version name.
        ("hint:engine=pimc:c=0.4", "c=0.4 has no effect with engine pimc"),
        ("hint:engine=v2:c=0.4", "c=0.4 has no effect with engine v2"),
        ("hint:engine=ismcts:node_budget=5", "node_budget=5 has no effect with engine ismcts"),
        ("hint:engine=cpsat:leaf=fitted", "leaf=fitted has no effect with engine cpsat"),
    ],
)
def test_an_unread_bot_option_is_refused_by_either_name(bot: str, named: str) -> None:
    with pytest.raises(ConquianError, match=named):
        check_bot(bot, get_rules("classic"))


def test_every_bot_is_described_and_the_two_is_mcts_bots_tell_each_other_apart() -> None:
    assert set(BOT_NOTES) == set(BOTS)
    assert all(note.strip() for note in BOT_NOTES.values())
    assert "ismcts" in BOT_NOTES["mcts"] and "OpenSpiel" not in BOT_NOTES["mcts"].split(";")[0]
    assert "OpenSpiel" in BOT_NOTES["ismcts"] and "mcts bot" in BOT_NOTES["ismcts"]


def test_engine_help_names_each_engine_by_method_and_alias() -> None:
    code, out, _ = run("hint", "--help")
    assert code == 0
    flat = " ".join(out.replace("│", " ").split())
    for version, method in PAIRS:
        assert f"{method} ({ENGINES[method].description}; alias {version})" in flat
