"""Mutation fuzz (hypothesis): example files with one change, read by the library and by every
command that reads a position. Whatever the change, the answer is a result or one error line with
exit 1 or 2: never a traceback."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from cli_run import runner
from conftest import EXAMPLES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.core.errors import ConquianError
from analyzer.formats.position import load_position
from analyzer.analysis.puzzles import load_puzzle
from cli.main import app

POSITIONS = [
    json.loads(p.read_text())
    for p in sorted(EXAMPLES.glob("*.json"))
    if json.loads(p.read_text()).get("type") != "melds"
]
PUZZLES = [json.loads(p.read_text()) for p in sorted((ROOT / "examples" / "puzzles").glob("*.json"))[:4]]

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 45),
    st.sampled_from(["", "AS", "7C", "10o", "5c", "KK", "10H", "♣7", "x" * 200, "to_act"]),
    st.lists(st.sampled_from(["AS", "7C", "10o", 3, None]), max_size=4),
    st.dictionaries(st.sampled_from(["card", "hand", "x-y", "zz"]), st.integers(0, 3), max_size=2),
)
KEYS = st.sampled_from(["toAct", "passed", "hnd", "x-note", "labels", "Labels", "", "forced"])


@st.composite
def mutated(draw: st.DrawFn, bases: list[dict[str, Any]]) -> Any:
    """One base file with one change somewhere: a value replaced, a key dropped, renamed or added,
    a list item dropped or repeated."""
    data = copy.deepcopy(draw(st.sampled_from(bases)))
    node: Any = data
    # Walk down a random path, then change the node reached.
    for _ in range(draw(st.integers(0, 4))):
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        containers = [(k, v) for k, v in children if isinstance(v, dict | list) and v]
        if not containers:
            break
        _, node = draw(st.sampled_from(containers))
    action = draw(st.sampled_from(["replace", "drop", "rename", "add", "repeat"]))
    if isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        if action == "replace":
            node[key] = draw(VALUES)
        elif action == "drop":
            del node[key]
        elif action == "rename":
            node[draw(KEYS)] = node.pop(key)
        else:
            node[draw(KEYS)] = draw(VALUES)
    elif isinstance(node, list) and node:
        k = draw(st.integers(0, len(node) - 1))
        if action == "replace":
            node[k] = draw(VALUES)
        elif action == "drop":
            del node[k]
        else:
            node.append(copy.deepcopy(node[k]))
    return data


FAST = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


@FAST
@given(mutated(POSITIONS))
def test_loading_a_mutated_position_is_a_state_or_one_error(data: Any) -> None:
    try:
        load_position(data)
    except ConquianError as exc:
        assert "\n" not in str(exc) and str(exc)


@FAST
@given(mutated(PUZZLES))
def test_loading_a_mutated_puzzle_is_a_puzzle_or_one_error(data: Any) -> None:
    try:
        load_puzzle(data)
    except ConquianError as exc:
        assert "\n" not in str(exc) and str(exc)


COMMANDS = {
    "analyze": ["analyze", "-"],
    "hint": ["hint", "-", "--samples", "1", "--time-limit", "0.05", "--budget", "100"],
    "hint --static": ["hint", "-", "--static"],
    "why": ["why", "-", "pass", "--samples", "1", "--time-limit", "0.05"],
    "solve": ["solve", "-", "--budget", "50", "--time-limit", "0.2"],
    "tree": ["tree", "-", "--depth", "1", "--max-nodes", "5", "--budget", "50"],
    "show": ["show", "-"],
    "notation": ["notation", "-"],
}


def _check(args: list[str], data: Any) -> None:
    result = runner.invoke(app, args, input=json.dumps(data))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code:
        # One error line; or, for a puzzle whose answer is wrong or unproven, the answer itself.
        lines = len(result.stderr.strip().splitlines())
        assert lines == 1 or (lines == 0 and args[0] == "puzzle" and result.stdout), result.stderr


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_answers_a_mutated_position_in_one_line(name: str) -> None:
    @settings(max_examples=30, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
    @given(mutated(POSITIONS))
    def check(data: Any) -> None:
        _check(COMMANDS[name], data)

    check()


@settings(max_examples=25, deadline=None, database=None)
@given(mutated(PUZZLES))
def test_puzzle_answers_a_mutated_puzzle_in_one_line(data: Any) -> None:
    _check(["puzzle", "-", "--budget", "50", "--time-limit", "0.2"], data)


RECORDS = [
    {"lines": [json.loads(line) for line in p.read_text().splitlines()[:14]]}
    for p in sorted((ROOT / "tests" / "golden").glob("*.jsonl"))[:3]
]
MELD_FILES = [
    json.loads(p.read_text())
    for p in sorted(EXAMPLES.glob("*.json"))
    if json.loads(p.read_text()).get("type") == "melds"
]


@settings(max_examples=25, deadline=None, database=None)
@given(mutated(RECORDS))
def test_replay_answers_a_mutated_record_in_one_line(data: Any) -> None:
    lines = data["lines"] if isinstance(data.get("lines"), list) else []
    text = "\n".join(json.dumps(line) for line in lines)
    result = runner.invoke(app, ["replay", "-"], input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1) and "Traceback" not in result.stdout + result.stderr
    if result.exit_code:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@settings(max_examples=25, deadline=None, database=None)
@given(mutated(MELD_FILES))
def test_melds_answers_a_mutated_query_file_in_one_line(data: Any) -> None:
    result = runner.invoke(app, ["melds", "--file", "-"], input=json.dumps(data))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.stdout + result.stderr
    if result.exit_code and "WRONG" not in result.stdout:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
