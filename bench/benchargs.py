"""Argument checks shared by the bench scripts: bad input is one line (exit 2), before any work.

Each ``type=`` function raises :class:`argparse.ArgumentTypeError`, which argparse turns into
``script: error: argument --x: ...`` and exit code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from analyzer.core.errors import ConquianError
from analyzer.core.rules import PRESETS, nearest_variant


def count(n: int, word: str, plural: str | None = None) -> str:
    """``"1 deal"``, ``"2 deals"``: a number with its noun (``plural`` when not noun + s)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def whole(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} must be at least {low}")
        return value

    return parse


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def positive_float(text: str) -> float:
    """An argparse type: a number above 0 (seconds, for example)."""
    value = _number(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a number above 0 (and finite)")
    return value


def probability(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    value = _number(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} must be from 0 to 1")
    return value


def variant(text: str) -> str:
    """An argparse type: a preset name (``classic``, ``megajogos``)."""
    if text not in PRESETS:
        near = nearest_variant(text)
        meant = f"; did you mean {near!r}?" if near else ""
        raise argparse.ArgumentTypeError(f"unknown variant {text!r}{meant} (known: {', '.join(PRESETS)})")
    return text


def bots(text: str, variant: str | None = None) -> list[str]:
    """An argparse type: comma-separated bot names with options, each checked by making it (and,
    with ``variant``, whether its options act in that variant: ``hint:c=0.4`` in classic)."""
    from analyzer.bots.registry import check_bot
    from analyzer.core.rules import get_rules

    rules = None if variant is None else get_rules(variant)
    names = [name.strip() for name in text.split(",")]
    for name in names:
        try:
            check_bot(name, rules)
        except ConquianError as exc:
            raise argparse.ArgumentTypeError(f"bot {name!r}: {exc}") from None
    return names


def checked_bots(
    parser: argparse.ArgumentParser, text: str, seats: int | None = None, variant: str | None = None
) -> list[str]:
    """The bots of a comma-separated ``--bots`` value, each made once to check it (against
    ``variant`` when given); a bad name or option, or not ``seats`` of them, is ``parser.error`` (exit 2)."""
    try:
        names = bots(text, variant)
    except argparse.ArgumentTypeError as exc:
        parser.error(f"--bots: {exc}")
    if seats is not None and len(names) != seats:
        parser.error(f"--bots: {seats} bots are needed, got {len(names)} ({text!r})")
    return names


def check_json_path(parser: argparse.ArgumentParser, path: Path | None, force: bool) -> None:
    """Refuse (``parser.error``, exit 2) a ``--json`` path that would lose the figures after the
    run: a directory, an existing file without ``--force``, a missing directory, a path that
    cannot be written.  Nothing is left behind by the check."""
    if path is None:
        return
    if str(path) in ("", "."):
        parser.error("--json needs a file name")
    if str(path) == "-":
        parser.error("--json -: the figures go to a file; give its name (the summary is printed anyway)")
    if path.is_dir():
        parser.error(f"--json {path}: a directory, not a file")
    if path.exists() and not force:
        parser.error(f"--json {path}: the file exists (--force replaces it)")
    if not path.parent.is_dir():
        parser.error(f"--json {path}: no such directory {str(path.parent)!r}")
    try:  # the figures must not be lost, after the run, to a path that cannot be written
        if path.exists():
            with open(path, "a", encoding="utf-8"):
                pass
        else:
            with open(path, "x", encoding="utf-8"):
                pass
            path.unlink()
    except OSError as exc:
        parser.error(f"--json {path}: cannot write it ({exc.strerror})")
