"""The examples in the library's docstrings run and give what they show (doctest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest
from conftest import ROOT

import analyzer


def _modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(analyzer.__path__, "analyzer.") if not m.name.endswith("_native")
    )


@pytest.mark.parametrize("name", _modules())
def test_the_examples_of_a_module_run(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples read files by their path from the repository root
    try:
        module: ModuleType = importlib.import_module(name)
    except ImportError as exc:
        pytest.skip(f"{name} needs an extra that is not installed: {exc}")
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


def test_a_failing_example_would_be_found() -> None:
    # The check above can fail: an example whose output is wrong counts as failed.
    parser = doctest.DocTestParser()
    test = parser.get_doctest(">>> 1 + 1\n3\n", {}, "wrong", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1
