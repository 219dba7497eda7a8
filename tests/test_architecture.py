"""The library's shape (docs/architecture.md): no import circles, a few modules at the top, no
module too long to read, and the 0.1 module paths kept as deprecated aliases."""

from __future__ import annotations

import importlib
import warnings

import grimp
import networkx as nx
import pytest
from conftest import ROOT

import analyzer
from analyzer._compat import MOVED


def test_no_import_circle_between_any_two_modules() -> None:
    # Imports inside functions count (grimp reads every import statement), and so do imports
    # made only for type checking.
    graph = grimp.build_graph("analyzer", exclude_type_checking_imports=False)
    edges = [
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith("analyzer")
    ]
    circles = list(nx.simple_cycles(nx.DiGraph(edges)))
    assert circles == []


def test_a_circle_would_be_found() -> None:
    # The check above can fail: a graph with a circle through a function-level import has one.
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    assert list(nx.simple_cycles(graph))


def test_few_modules_at_the_top_and_none_too_long() -> None:
    top = sorted(p.name for p in (ROOT / "analyzer").glob("*.py"))
    assert len(top) <= 6, top
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "analyzer").rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800
    }
    assert long == {}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_still_imports_with_a_warning(old: str) -> None:
    new = importlib.import_module(f"analyzer.{MOVED[old][0]}")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        import sys

        sys.modules.pop(f"analyzer.{old}", None)
        alias = importlib.import_module(f"analyzer.{old}")
    assert any(issubclass(w.category, DeprecationWarning) and new.__name__ in str(w.message) for w in seen)
    for name in getattr(new, "__all__", []):
        assert getattr(alias, name) is getattr(new, name)


def test_names_of_0_1_modules_that_moved_elsewhere_are_still_there() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        position = importlib.import_module("analyzer.position")
        state = importlib.import_module("analyzer.state")
        schema = importlib.import_module("analyzer.schema")
        mcts = importlib.import_module("analyzer.mcts")
    from analyzer.bots.searchbots import MctsBot
    from analyzer.core.dealing import deal, view
    from analyzer.formats.jsonio import load_json
    from analyzer.formats.sniff import read_position, unwrap_position

    assert (position.deal, position.view, position.read_position) == (deal, view, read_position)
    assert position.unwrap_position is unwrap_position
    assert schema.load_json is load_json
    assert mcts.MctsBot is MctsBot
    assert state.fits_layout.__module__ == "analyzer.core.legal"


def test_the_packages_export_what_the_old_modules_did() -> None:
    from analyzer import bots, search

    for name in ("BOTS", "make_bot", "GreedyBot", "HintBot", "register_bot", "usefulness"):
        assert hasattr(bots, name)
    for name in ("Solver", "solve", "Outcome", "outcome_vector", "position_key", "paused_gc"):
        assert hasattr(search, name)
    for name in analyzer.__all__:
        assert hasattr(analyzer, name)
