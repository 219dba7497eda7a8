"""bench/strength.py refuses bad arguments in one line (exit 2) before playing any deal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "strength.py"


def strength(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hint", "nosuch", "--only", "classic-hint-greedy", "--games", "1"], "bot 'nosuch': unknown bot"),
        (["--hint", "oracle:max_nodes=abc", "--only", "classic-hint-greedy", "--games", "1"], "must be a whole number"),
        (["--only", "nosuchmatch"], "no match named 'nosuchmatch'"),
        (["--only", "classic-hint-greedy", "--games", "-3"], "--games must be 0 or more"),
        (["--only", "classic-hint-greedy", "--games", "0"], "has 0 deals: give --games N"),
        (["--only", "classic-best-greedy", "--ceiling", "0"], "has 0 deals: give --ceiling N"),
        (["--only", "classic-best-greedy", "--ceiling", "1", "--jobs", "0"], "--jobs must be from 1 to 64"),
        (["--only", "classic-best-greedy", "--ceiling", "1", "--jobs", "1000"], "--jobs must be from 1 to 64"),
        (["--only"], "expected at least one argument"),
        (["--only", "classic-best-greedy", "--ceiling", "1", "--backend", "foo"], "invalid choice"),
        (["--only", "classic-best-greedy", "--ceiling", "1", "--address", "x"], "--address is for the ray backend"),
        (["--only", "classic-best-greedy", "--ceiling", "1", "--json", "/nonexistent/x.json"], "no such directory"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_before_any_deal(args: list[str], message: str) -> None:
    run = strength(*args)
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_json_file_is_new_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    out.write_text("keep me\n")
    run = strength(
        "--only", "classic-best-greedy", "--ceiling", "1", "--jobs", "1", "--json", str(out)
    )
    assert run.returncode == 2 and "the file exists" in run.stderr
    assert out.read_text() == "keep me\n"
    run = strength(
        "--only", "classic-best-greedy", "--ceiling", "1", "--jobs", "1", "--json", str(tmp_path)
    )
    assert run.returncode == 2 and "a directory" in run.stderr
    run = strength(
        "--only",
        "classic-best-greedy",
        "--ceiling",
        "1",
        "--jobs",
        "1",
        "--json",
        str(out),
        "--force",
    )
    assert run.returncode == 0, run.stderr
    assert '"classic-best-greedy"' in out.read_text()


def test_a_run_stopped_before_its_first_deal_reports_no_time_per_deal(tmp_path: Path) -> None:
    # Not "0 deals ..., 119.04 s per deal" and a table of 0/0.
    import json

    from cli_run import signal_after

    out_json = tmp_path / "s.json"
    # A decision of that bot takes its 30 s time limit: no deal ends in 8 s.
    _, out, err = signal_after(
        [sys.executable, str(SCRIPT), "--only", "classic-hint-greedy", "--games", "2", "--jobs", "1",
         "--hint", "hint:samples=100000", "--json", str(out_json)],
        8,
    )  # fmt: skip
    assert "Traceback" not in err and "no deal finished" in out and "s per deal" not in out
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data[0]["deals"] == 0 and data[0]["seconds_per_deal"] is None and data[0]["interrupted"]
