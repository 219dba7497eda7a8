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

from analyzer.records import replay_file


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
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
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
