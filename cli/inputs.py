"""Reading the inputs named on the command line: files, positions, variants, bots and cards."""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from analyzer.bots.registry import BOTS, check_bot, parse_bot
from analyzer.core.cards import Labels, clip, mask_of, parse_cards
from analyzer.core.errors import (
    CardError,
    ConquianError,
    MissingExtraError,
    PositionError,
    UnknownVariantError,
)
from analyzer.core.plain import relabel
from analyzer.core.rules import PRESETS, RULE_OPTIONS, Rules, get_rules, nearest_variant
from analyzer.core.stakes import StakeRule
from analyzer.core.state import GameState
from analyzer.formats.notation import NotationError, looks_like_notation, parse_notation
from analyzer.formats.position import load_position, parse_json
from analyzer.formats.sniff import unwrap_position
from cli.boundary import domain, usage
from cli.console import note

__all__ = [
    "BUNDLED",
    "MAX_INPUT",
    "POSITION_HELP",
    "STDIN_CLOSED",
    "PositionInput",
    "bots_arg",
    "cards_arg",
    "input_text",
    "json_input",
    "position_arg",
    "rules_of",
    "stakes_of",
]


def rules_of(variant: str, players: int | None = None, options: str | None = None) -> Rules:
    """The preset named ``variant``, for ``players`` players when given (R8), with the rule
    ``options`` (``--rules NAME=VALUE,...``) changed; an unknown name, a player count the variant
    does not allow or an option it cannot take is a usage error naming the option."""
    try:
        rules = get_rules(variant)
    except UnknownVariantError as exc:
        usage(str(exc))
    if players is not None:
        try:
            rules = rules.with_players(players)
        except ValueError as exc:
            usage(f"--players: {exc}")
    if options is None:
        return rules
    changes: dict[str, object] = {}
    for piece in options.split(","):
        name, sep, value = piece.strip().partition("=")
        name, value = name.strip().lower(), value.strip()
        if not sep or not name or not value:
            usage(f"--rules: expected NAME=VALUE, got {clip(piece.strip())!r}")
        if name in changes:
            usage(f"--rules: {name!r} given twice")
        if name == "players":
            usage("--rules: the player count is --players")
        if name not in RULE_OPTIONS:
            known = ", ".join(o for o in RULE_OPTIONS if o != "players")
            usage(f"--rules: unknown rule option {clip(name)!r} (known: {known})")
        if value.startswith("-") and value[1:].isdigit():
            usage(f"--rules: {name} must not be negative, got {value}")
        changes[name] = int(value) if value.isdigit() and len(value) <= 4 else value
    try:
        return rules.with_options(changes)
    except ValueError as exc:
        usage(f"--rules: {exc}")


def stakes_of(stakes: str | None, match: int) -> StakeRule | None:
    """The stake rule ``--stakes`` names (R21), ``None`` for the variant's; an unknown rule is a
    usage error naming the option, and ``--stakes`` without ``--match`` is noted (no effect)."""
    if stakes is None:
        return None
    try:
        rule = StakeRule(stakes.strip().lower())
    except ValueError:
        usage(
            f"--stakes: unknown stake rule {clip(stakes)!r} "
            f"(known: {', '.join(r.value for r in StakeRule)})"
        )
    if not match:
        note("--stakes is the stake rule of a match: it has no effect without --match N")
    return rule


def bots_arg(text: str, option: str = "--bots", rules: Rules | None = None) -> list[str]:
    """The comma-separated bot names of ``option`` (lower case, options kept; an empty entry, as
    in ``greedy,`` or ``greedy,,random``, is refused), each one made once
    to check it: an unknown bot, or an option it does not take or whose value it refuses (an
    unknown hint engine), is a usage error naming the text.  A bot whose optional library is
    missing stays a domain error (:class:`MissingExtraError`: nothing to fix on the command line).
    With ``rules``, a bot is also asked whether its options act in that variant
    (``check_variant``: ``hint:c=0.4`` in ``classic``, whose engine has no such option).
    """
    names = [part.strip().lower() for part in text.split(",")]
    if not all(names):
        what = "is empty" if not text.strip() else "has an empty entry"
        usage(f"{option} {clip(text)!r} {what}: give bot names separated by single commas")
    for name in names:
        try:
            base, _ = parse_bot(name)
        except ConquianError as exc:
            usage(f"{option} {clip(name)!r}: {exc}")
        if base not in BOTS:
            usage(f"unknown bot: {clip(base)!r} (known: {', '.join(BOTS)})")
    for name in dict.fromkeys(names):
        try:
            check_bot(name, rules)
        except MissingExtraError:
            raise
        except ConquianError as exc:
            usage(f"{option} {clip(name)!r}: {exc}")
    return names


def cards_arg(text: str, labels: Labels | None, what: str) -> int:
    """Cards typed on the command line as a mask; a bad card is a usage error naming it."""
    try:
        return mask_of(parse_cards(text, labels))
    except CardError as exc:
        usage(f"{what}: {exc}")


STDIN_CLOSED = [False]
"""Set by the entry point when it started with standard input closed (it then reads as empty)."""

MAX_INPUT = 32 * 1024 * 1024
"""Most bytes read from one input (a position, record, puzzle or meld query file, or standard
input): far more than any of them needs, and a device such as ``/dev/zero`` or an endless pipe
ends with a usage error instead of filling the memory."""


def _read_capped(handle: Any, name: str, what: str | None) -> str:
    label = name if what is None else f"{what} {clip(name)!r}"
    data = handle.read(MAX_INPUT + 1)
    if len(data) > MAX_INPUT:
        usage(
            f"{label} is larger than {MAX_INPUT // (1024 * 1024)} MB: "
            "not a file this command reads"
        )
    try:
        return bytes(data).decode("utf-8-sig")  # a byte-order mark from an editor is accepted
    except UnicodeDecodeError:
        domain(f"{label} is not UTF-8 text")


def input_text(path_text: str, what: str) -> tuple[str, str]:
    """Read a file named on the command line (``-`` is standard input): (text, printable name).

    A missing path, a directory or more than :data:`MAX_INPUT` bytes is a
    usage error (exit 2); content that is not UTF-8 text is a domain error
    (exit 1).
    """
    if path_text == "-":
        if getattr(sys.stdin, "name", None) == os.devnull and STDIN_CLOSED[0]:
            domain("standard input is closed: give a position in a file, as text, or pipe it in")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes (tests): read it as it is
            return sys.stdin.read(MAX_INPUT + 1).removeprefix("\ufeff"), "standard input"
        return _read_capped(stream, "standard input", None), "standard input"
    if not path_text.strip():
        usage(f"an empty argument where a {what} was expected: give its path, or '-' for standard input")
    path = Path(path_text)
    try:
        found = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        usage(f"no such {what}: {clip(path_text)!r}")
    except (OSError, ValueError) as exc:  # a name too long, a loop of links, a NUL byte
        usage(f"cannot read {clip(path_text)!r}: {getattr(exc, 'strerror', None) or exc}")
    if stat.S_ISDIR(found.st_mode):
        usage(f"{what} {clip(path_text)!r} is a directory, not a file")
    try:
        with open(path, "rb") as handle:
            return _read_capped(handle, path_text, what), path_text
    except OSError as exc:
        usage(f"cannot read {clip(path_text)!r}: {exc.strerror or exc}")


def json_input(text: str, name: str, expected: str = "a position") -> Any:
    """Parse JSON read by :func:`input_text`; invalid JSON is a domain error naming the file
    (``expected``: what the file should hold, for the message when it is a game record)."""
    return parse_json(text, name if name == "standard input" else repr(name), expected)


@dataclass(frozen=True, slots=True)
class PositionInput:
    """A position read from the command line.

    Attributes
    ----------
    state : GameState
        The position, printing its cards in the output labels
        (``state.rules.labels``).
    name : str
        The file name, ``standard input`` or the bundled position.
    labels : Labels
        The position's own labels (R2): they decide the moves typed for it.
    """

    state: GameState
    name: str
    labels: Labels


BUNDLED = "the bundled position (RULES.md worked example 5)"

POSITION_HELP = (
    "Position: a JSON file, the one-line notation in quotes (docs/notation.md), or - for stdin."
)
"""The help of every POSITION argument."""


def _names_a_file(text: str) -> bool:
    """True if a file exists by the name ``text`` (False for text that cannot be a file name)."""
    try:
        return Path(text).exists()
    except (OSError, ValueError):
        return False


def position_arg(position: str | None, labels: Labels | None) -> PositionInput:
    """Read the POSITION argument (a file, ``-``, notation text, or the bundled position when
    ``None``); answers in ``labels``.  (:func:`analyzer.formats.position.read_position`, by contrast,
    loads a JSON position file.)

    POSITION names a file when one exists by that name; otherwise text whose
    first word is a variant (``classic ...``) is read as the one-line
    notation (:mod:`analyzer.formats.notation`): a notation that does not parse is a
    usage error (exit 2) naming the field and column, like a bad card on the
    command line.  A file or standard input may also hold the notation
    instead of JSON; there, as for JSON, every error is a domain error
    (exit 1).  Shape, labels and rules are checked in that order (domain
    errors, exit 1).
    """
    if position is None:
        text = resources.files("cli").joinpath("data/default-position.json").read_text("utf-8")
        name = BUNDLED
    elif position != "-" and not _names_a_file(position) and looks_like_notation(position):
        try:
            state = parse_notation(position)  # rule errors are PositionError, domain errors
        except NotationError as exc:
            usage(f"POSITION: {exc}")
        return PositionInput(relabel(state, labels), clip(position, 60), state.rules.labels)
    elif (
        position != "-" and not _names_a_file(position) and position.strip().lower() in PRESETS
    ):
        # A variant alone: the start of a notation line, not a file name.
        usage(
            f"no such position file {clip(position, 60)!r}, and as the one-line notation it has "
            "only its first field: write at least variant, labels, dealer, to_act and the players "
            "(docs/notation.md; 'conquian notation FILE' prints a position's line)"
        )
    elif position != "-" and not _names_a_file(position) and len(position.split()) >= 3:
        # Several words and no such file: meant as the notation, with an unknown variant.
        first = position.split()[0]
        usage(
            f"no such position file {clip(position, 60)!r}, and as the one-line notation its "
            f"first field must be a variant ({', '.join(PRESETS)}), got {clip(first)!r}"
            f"{_meant(first)}"
        )
    elif not position.strip():
        usage("an empty position: give a file, the one-line notation, or '-' for standard input")
    else:
        text, name = input_text(position, "position file")
        if looks_like_notation(text.strip()) and not text.lstrip().startswith("{"):
            state = parse_notation(text.strip())
            return PositionInput(relabel(state, labels), name, state.rules.labels)
    try:
        data = json_input(text, name)
    except PositionError:
        words = text.lstrip("\ufeff").split(None, 1)
        if not words:
            raise PositionError(
                f"{name} is empty: give a position, as JSON or the one-line notation"
            ) from None
        if not words[0].startswith(("{", "[")):
            # Neither kind: say both, as a file or standard input may hold either.
            raise PositionError(
                f"{name} is neither JSON nor the one-line notation, which starts with a variant "
                f"({', '.join(PRESETS)}); it starts with {clip(words[0], 40)!r}{_meant(words[0])}"
            ) from None
        raise
    state = load_position(unwrap_position(data))
    return PositionInput(relabel(state, labels), name, state.rules.labels)


def _meant(word: str) -> str:
    """``; did you mean 'mexican'?`` for a word that is a misspelt variant, else nothing."""
    near = nearest_variant(word)
    return f"; did you mean {near!r}?" if near else ""
