"""The Ray backend of simulate: the same games as the local backend, game for game (records
identical), Ctrl-C keeps finished games, joining a cluster started with ``ray start --head``."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_run import run, run_process

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]'")

from analyzer.bots.registry import BOTS, GreedyBot  # noqa: E402
from analyzer.formats.records import replay_file  # noqa: E402
from analyzer.bots.simulate import simulate  # noqa: E402


@pytest.fixture(scope="module")
def runtime() -> Iterator[None]:
    """One small local Ray runtime (2 CPUs) for the in-process tests; simulate reuses it."""
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.usefixtures("runtime")
@pytest.mark.parametrize(
    ("variant", "bots"),
    [("classic", ["greedy", "random"]), ("megajogos", ["greedy", "random", "greedy"])],
)
def test_ray_gives_the_local_games_game_for_game(variant: str, bots: list[str]) -> None:
    local = list(simulate(variant, bots, 9, seed=4, rotate=True))
    remote = list(simulate(variant, bots, 9, seed=4, rotate=True, backend="ray", jobs=2))
    assert [r.index for r in remote] == list(range(9))
    assert remote == local
    assert len({r.final for r in remote}) > 1  # different games, not one game nine times


@pytest.mark.usefixtures("runtime")
def test_bots_registered_in_the_driver_only_play_on_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BOTS, "driver-only", lambda: GreedyBot())
    local = list(simulate("classic", ["driver-only", "random"], 4, seed=8))
    remote = list(simulate("classic", ["driver-only", "random"], 4, seed=8, backend="ray"))
    assert remote == local and remote[0].seats == ("driver-only", "random")


@pytest.mark.usefixtures("runtime")
def test_cli_records_are_identical(tmp_path: Path) -> None:
    for backend in ("local", "ray"):
        code, out, err = run(
            "simulate", "--games", "6", "--seed", "11", "--backend", backend,
            "--records", str(tmp_path / backend), "--json",
        )  # fmt: skip
        assert code == 0, err
        assert json.loads(out)["games"] == 6
    local = sorted((tmp_path / "local").glob("*.jsonl"))
    remote = sorted((tmp_path / "ray").glob("*.jsonl"))
    assert [p.name for p in local] == [p.name for p in remote] and len(local) == 6
    for a, b in zip(local, remote, strict=True):
        assert a.read_bytes() == b.read_bytes()


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_ctrl_c_keeps_finished_records(tmp_path: Path) -> None:
    records = tmp_path / "records"
    command = [
        sys.executable, "-c", "from cli.main import app; app()",
        "simulate", "--games", "100000", "--backend", "ray", "--jobs", "2", "--seed", "9",
        "--records", str(records), "--json",
    ]  # fmt: skip
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and len(list(records.glob("*.jsonl"))) < 5:
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
        out, err = proc.communicate(timeout=120)
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")
def test_joining_a_cluster_started_with_ray_start(tmp_path: Path) -> None:
    port = free_port()
    ray_cli = Path(sys.executable).with_name("ray")
    head = subprocess.Popen(
        [
            str(ray_cli), "start", "--head", "--block", f"--port={port}", "--num-cpus=1",
            "--include-dashboard=false", "--disable-usage-stats",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(2)  # the head's other services start after its port opens
        joined = run_process(
            "simulate", "--games", "5", "--seed", "2", "--backend", "ray",
            "--address", f"127.0.0.1:{port}", "--json",
        )  # fmt: skip
    finally:
        # The head we started and its children, all in its own session: a graceful stop takes
        # half a minute, and nothing of this test's cluster needs to survive it.
        os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=60)
    assert joined.returncode == 0, joined.stderr
    code, out, err = run("simulate", "--games", "5", "--seed", "2", "--json")
    assert code == 0, err
    assert json.loads(joined.stdout)["wins"] == json.loads(out)["wins"]
    assert json.loads(joined.stdout)["draws"] == json.loads(out)["draws"]


def test_an_unreachable_cluster_is_one_line() -> None:
    code, _, err = run("simulate", "--games", "2", "--backend", "ray", "--address", "127.0.0.1:1")
    assert code == 1
    assert err.strip().startswith("conquian: error: cannot reach the Ray cluster at '127.0.0.1:1'")
    assert len(err.strip().splitlines()) == 1
