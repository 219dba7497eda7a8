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


def test_options_that_do_nothing_and_unproven_rows() -> None:
    """An empty revision and --rounds without --against are refused; an unproven deal names
    no winner ("?"), where a draw would say "draw"."""
    out = _bench("--deals", "1", "--against", "")
    assert out.returncode == 2 and "needs a git revision" in out.stderr
    out = _bench("--deals", "1", "--rounds", "2")
    assert out.returncode == 2 and "--rounds applies to --against" in out.stderr
    out = _bench("--deals", "1", "--budget", "1")
    assert out.returncode == 0, out.stderr
    row = out.stdout.splitlines()[1].split()
    assert row[2:4] == ["?", "False"]


def test_a_revision_whose_code_cannot_run_is_named() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: --against needs one")
    shallow = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"], capture_output=True, text=True
    ).stdout.strip()
    if shallow != "false":
        pytest.skip("a shallow clone: its first commit may be recent code")
    first = subprocess.run(
        ["git", "-C", str(ROOT), "rev-list", "--max-parents=0", "HEAD"], capture_output=True, text=True
    ).stdout.split()
    if not first:
        pytest.skip("no root commit found (a shallow clone)")
    out = _bench("--against", first[0], "--deals", "1", "--budget", "2000", "--rounds", "1")
    assert out.returncode == 1 and f"the code of {first[0]} cannot run this benchmark" in out.stderr
    assert "Traceback" not in out.stderr
