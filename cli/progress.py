"""Progress bars on standard error (silent with --json and pipes) and Ctrl-C that stops a search."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cli.console import err

__all__ = ["interruptible", "progress"]


@contextmanager
def interruptible() -> Iterator[Callable[[], bool]]:
    """``with interruptible() as stop``: Ctrl-C inside the block sets a flag instead of raising.

    Long searches poll ``stop()`` and answer with the best they found so
    far, marked as interrupted; a second Ctrl-C aborts as usual.
    """
    hit = False

    def handler(signum: int, frame: object) -> None:
        nonlocal hit
        if hit:
            raise KeyboardInterrupt
        hit = True

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C cannot reach this block anyway
        yield lambda: False
        return
    try:
        yield lambda: hit
    finally:
        signal.signal(signal.SIGINT, previous)


def progress(label: str, as_json: bool, *, transient: bool) -> Progress:
    """A progress bar on stderr, shown only on a terminal and never with --json."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=as_json or not err.is_terminal,
        transient=transient,
    )
