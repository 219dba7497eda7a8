"""The bench scripts refuse bad arguments in one line (exit 2) before any work (bench/benchargs.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize(
    ("script", "args", "named"),
    [
        ("hint.py", ["--positions", "0"], "argument --positions: 0 must be at least 1"),
        ("hint.py", ["--variant", "foo"], "unknown variant 'foo'"),
        ("policies.py", ["--deals", "-3", "eager"], "argument --deals: -3 must be at least 1"),
        ("melds.py", ["--cases", "x"], "'x' is not a whole number"),
        ("melds.py", ["--variant", "foo"], "unknown variant 'foo'"),
        ("backends.py", ["--bots", "nosuch"], "unknown bot: 'nosuch'"),
        ("backends.py", ["--jobs", "0"], "argument --jobs: 0 must be at least 1"),
        ("review.py", ["--bots", "greedy,nosuch"], "unknown bot: 'nosuch'"),
        ("review.py", ["--bots", "greedy"], "2 bots are needed, got 1"),
        ("review.py", ["--moves", "-3"], "argument --moves: -3 must be at least 1"),
        ("review.py", ["--moves", "500"], "none of the first 200 games of seed 0"),
        ("playouts.py", ["--seconds", "-1"], "argument --seconds: -1 must be a number above 0"),
        ("ismcts.py", ["--simulations", "0"], "argument --simulations: 0 must be at least 1"),
        ("strength.py", ["--json", ""], "--json needs a file name"),
        ("strength.py", ["--seed", "-1"], "argument --seed: -1 must be at least 0"),
        ("strength.py", ["--json", "-"], "--json -: the figures go to a file"),
        ("strength.py", ["--only", "megajogos-hint-greedy", "--games", "1"], "--games sets the deals of other matches"),
        # Options that do nothing in the match's variant.
        ("strength.py", ["--only", "classic-hint-greedy", "--games", "3", "--hint", "hint:c=0.4"],
         "c=0.4 has no effect with engine v2 in classic"),
        ("strength.py", ["--only", "megajogos-hint-greedy", "--megajogos", "1", "--hint", "hint:leaf=melded"],
         "leaf=melded must be one of"),
        ("regret.py", ["--variant", "megajogos", "--games", "1", "--bot", "hint:node_budget=300"],
         "node_budget=300 has no effect with engine v3 in megajogos"),
        ("review.py", ["--bots", "hint:c=0.4:samples=1,greedy", "--moves", "4"], "c=0.4 has no effect"),
        ("solve.py", ["--against=--output=/tmp/never-written.txt"], "cannot start with '-'"),
        ("solve.py", ["--seed", "-1"], "--seed must not be negative"),
        ("fit_eval.py", ["--epsilon", "2"], "argument --epsilon: 2 must be from 0 to 1"),
        ("fit_eval.py", ["--jobs", "0"], "argument --jobs: 0 must be at least 1"),
        ("backends.py", ["--bots", "greedy,greedy,greedy"], "2 bots are needed, got 3"),
        ("playouts.py", ["--seconds", "inf"], "must be a number above 0 (and finite)"),
        ("paired.py", ["/nonexistent/new.json", "/nonexistent/old.json"], "cannot read /nonexistent/new.json: No such file"),
    ],
)
def test_bad_arguments_are_one_line(script: str, args: list[str], named: str) -> None:
    out = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    assert named in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe")
    out = subprocess.run([sys.executable, str(BENCH / "paired.py"), str(path), str(path)],
                         capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 1 and "is not UTF-8 text" in out.stderr and "Traceback" not in out.stderr
