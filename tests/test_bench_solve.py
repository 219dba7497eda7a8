"""bench/solve.py: the double-dummy speed benchmark, alone and against a git revision."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "solve.py"


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, cwd=ROOT)


def test_prints_each_deal_and_the_rate() -> None:
    out = _bench("--deals", "2", "--budget", "3000")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["deal", "seed", "winner"] and len(lines) == 4
    assert "positions/s" in lines[-1] and "positions per CPU second" in lines[-1]


def test_bad_numbers_and_an_unknown_revision_are_refused() -> None:
    out = _bench("--deals", "0")
    assert out.returncode == 2 and "at least 1" in out.stderr
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: --against needs one")
    out = _bench("--against", "no-such-revision", "--deals", "1")
    assert out.returncode == 1 and "cannot read revision 'no-such-revision'" in out.stderr
    assert "Traceback" not in out.stderr


def test_against_a_revision_alternates_runs_and_checks_the_answers() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: --against needs one")
    out = _bench("--against", "HEAD", "--deals", "1", "--budget", "2000", "--rounds", "2")
    assert out.returncode == 0, out.stderr
    assert "runs in the order this tree, HEAD, HEAD, this tree" in out.stdout
    assert "speed-up:" in out.stdout and "same winners: yes" in out.stdout
