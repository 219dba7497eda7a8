"""Ctrl-C during `conquian simulate`: finished records stay whole and the summary so far is printed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import CONQUIAN, signal_after

from analyzer.formats.records import replay_file


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_finished_records(tmp_path: Path, jobs: int) -> None:
    records = tmp_path / "records"
    command = [
        sys.executable, "-c", "from cli.main import app; app()",
        "simulate", "--games", "100000", "--jobs", str(jobs), "--seed", "9",
        "--records", str(records), "--json",
    ]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list(records.glob("*.jsonl"))) < 5:
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted after" in err
    summary = json.loads(out)
    files = sorted(records.glob("*.jsonl"))
    assert summary["interrupted"] is True and summary["games"] == len(files) >= 5
    for path in files:
        assert replay_file(path).finished


# A Ctrl-C that arrives while the module named here is being imported (start-up, before and
# while the command runs): the child process sends itself SIGINT from an import hook.
_CTRL_C_DURING_IMPORT = """
import os, signal, sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
from cli.main import main
sys.exit(main())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
@pytest.mark.parametrize(
    "module",
    ["typer", "rich.console", "pydantic", "numpy", "analyzer.core.state", "cli.boundary", "cli.inputs",
     "cli.hint", "cli.app"],
)  # fmt: skip
def test_ctrl_c_during_startup_is_exit_130_without_a_traceback(module: str) -> None:
    # Ctrl-C in the first second of any command (while imports run) prints no
    # KeyboardInterrupt traceback.
    proc = subprocess.run(
        [sys.executable, "-c", _CTRL_C_DURING_IMPORT.format(module=module), "hint", "--static"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == "conquian: interrupted\n" and proc.stdout == ""


def test_the_entry_module_imports_nothing_heavy() -> None:
    code = (
        "import sys, cli.main\n"
        "print(sorted(m for m in ('typer', 'rich', 'click', 'pydantic', 'ortools', 'analyzer')"
        " if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_a_kill_leaves_no_temporary_output_file(tmp_path: Path) -> None:
    # 'timeout' sends SIGTERM: the command ends as on Ctrl-C and removes its temporary file.
    from conftest import EXAMPLES

    command = [
        sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())",
        "tree", str(EXAMPLES / "forcing.json"), "--depth", "12", "--max-nodes", "100000000",
        "--no-values", "--export", str(tmp_path / "x.json"),
    ]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(tmp_path.glob(".x.json.*.tmp")):
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_before_the_first_game_ends_prints_no_table_of_zeros() -> None:
    # No table with "rate 0.000" and "0.000 - 1.000" for every seat.
    # A decision of that hint bot takes its 30 s time limit: no game ends in 6 s.
    code, out, err = signal_after(
        [*CONQUIAN, "simulate", "--games", "3", "--bots", "hint:samples=100000,greedy"], 6
    )
    assert code == 130, err
    assert "interrupted after 0 of 3 games" in err and "Traceback" not in err
    assert "rate" not in out and "0.000" not in out
