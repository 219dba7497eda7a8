"""The entry point of the ``conquian`` command: :func:`main` (the console script).

This module imports nothing heavy, so that :func:`main` sets up Ctrl-C
handling before typer, rich and the analyzer are imported (about a second):
a Ctrl-C at any moment of start-up ends the command with exit 130 and one
line, never a traceback.  The typer app and its commands are in
:mod:`cli.app` (``cli.main.app`` and ``cli.main.COMMANDS`` still name them);
the pieces the commands share are listed there (:mod:`cli.boundary`, ...).

Exit codes: 0 success; 1 a domain error (an impossible position, an
illegal move, a position file that is not valid JSON); 2 a usage error (a
malformed card or duplicate card on the command line, an unknown variant,
a missing file, an unusable output path, a bad option); 130 interrupted.
Every error is one line on standard error, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cli.app import COMMANDS, app

__all__ = ["COMMANDS", "app", "main"]

INTERRUPTED = 130
_MESSAGE = b"conquian: interrupted\n"


def _interrupted_during_startup(signum: int, frame: object) -> None:
    """Ctrl-C before the command runs: nothing is written yet, so stop at once."""
    try:
        os.write(2, _MESSAGE)
    finally:
        os._exit(INTERRUPTED)


def _escape_unencodable() -> None:
    """Text the terminal or pipe cannot encode (a lone surrogate from a ``\\ud800`` escape in
    the input) is printed as its backslash escape instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def main(args: list[str] | None = None) -> int:
    """Entry point of the ``conquian`` command.

    Parameters
    ----------
    args : list of str, optional
        Command-line arguments; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        The exit code (also passed to ``sys.exit`` by the console script):
        0, 1 for a domain error, 2 for a usage error, 130 when interrupted.
    """
    terminate: Any = None
    if sys.stdout is None:  # started with standard output closed ('>&-'): nowhere to answer
        with contextlib.suppress(OSError):
            os.write(2, b"conquian: error: standard output is closed: nowhere to write the answer\n")
        return 1
    if sys.stdin is None:  # closed standard input ('<&-'): the engine sees the end of input
        from cli.inputs import STDIN_CLOSED

        STDIN_CLOSED[0] = True
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    try:
        previous: Any = signal.signal(signal.SIGINT, _interrupted_during_startup)
    except ValueError:  # not the main thread: no Ctrl-C reaches us here
        previous = None
    try:
        _escape_unencodable()
        from cli.app import app as command

        if previous is not None:
            # From here on the command's own handling applies (cli.boundary.Group): Ctrl-C
            # is a KeyboardInterrupt again, so that output files are cleaned up; and so is
            # a kill (SIGTERM, e.g. from 'timeout'): no half-written temporary file is left.
            signal.signal(signal.SIGINT, previous)
            previous = None
            terminate = signal.signal(signal.SIGTERM, _terminated)
        result = command(args=args, prog_name="conquian", standalone_mode=False)
    except KeyboardInterrupt:
        os.write(2, _MESSAGE)
        return INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if terminate is not None:
            signal.signal(signal.SIGTERM, terminate)
    return result if isinstance(result, int) else 0


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM ends a command as Ctrl-C does (output files cleaned up, exit 130)."""
    raise KeyboardInterrupt


def __getattr__(name: str) -> Any:
    """``cli.main.app`` and ``cli.main.COMMANDS``, imported on first use."""
    if name in ("app", "COMMANDS"):
        from cli import app as module

        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
