"""Running the conquian CLI in tests: typer's CliRunner through the command's one error boundary."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from typing import Any

from conftest import EXAMPLES
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``conquian ARGS``; a Python exception fails the test."""
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def run_process(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``conquian ARGS`` in a fresh Python process, through the console entry point ``main()``."""
    return subprocess.run(
        [*CONQUIAN, *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=300,
    )


CONQUIAN = [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]
"""The command line of ``conquian`` through its console entry point ``main()``."""


def signal_after(command: list[str], seconds: float, sig: int = signal.SIGINT) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``command`` sent ``sig`` (Ctrl-C by default) after
    ``seconds``; killed if it has not ended a minute later."""
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        time.sleep(seconds)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out, err


def example(name: str) -> dict[str, Any]:
    """A position of examples/positions as data."""
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return data


def forcing() -> dict[str, Any]:
    """RULES.md worked example 5 (classic, player 1 may force player 0 with 5C)."""
    return example("forcing.json")


def one_error_line(err: str) -> bool:
    """True if stderr is exactly one line, without a traceback."""
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err
