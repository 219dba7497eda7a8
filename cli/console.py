"""Standard output and error: the consoles and JSON output (always valid JSON, never NaN)."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from typing import Any

from rich.console import Console
from rich.text import Text

from analyzer.core.errors import ConquianError

__all__ = ["emit", "err", "hanging", "indented", "json_out", "note", "out", "paragraph"]

class _Console(Console):
    """A rich console whose plain text (strings with ``markup=False``, or with no ``[`` that could
    be markup) wraps without trailing spaces: a line longer than the width breaks between words,
    each wrapped line indented as the line began (rich's own wrap leaves the space it broke at)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        markup = kwargs.get("markup")
        plain = bool(objects) and all(
            isinstance(o, str) and (markup is False or (markup is None and "[" not in o)) for o in objects
        )
        if plain and not kwargs.get("soft_wrap"):
            text = str(kwargs.pop("sep", " ")).join(objects)
            objects = (Text("\n".join(_wrapped(line, self.width) for line in text.split("\n")), overflow="fold"),)
        super().print(*objects, **kwargs)


_GLUE = re.compile(r"\[[^\[\]\n]*\]|\d(?= s\b)\s")
"""What a wrap keeps on one line: a bracketed group of cards (a meld, ``[5S 6S 7S]``) and a
number with its unit of seconds (``1.1 s``)."""


def _fill(text: str, **options: Any) -> str:
    """:func:`textwrap.fill` that never breaks inside :data:`_GLUE` (its spaces held as no-break
    spaces, which textwrap does not break at, while it wraps)."""
    held = _GLUE.sub(lambda m: m.group(0).replace(" ", "\xa0"), text)
    return textwrap.fill(held, break_on_hyphens=False, **options).replace("\xa0", " ")


def _wrapped(line: str, width: int) -> str:
    """``line`` as is when it fits ``width`` columns, else wrapped between words (no trailing
    spaces, never inside a meld), its wrapped lines indented as it is."""
    if len(line) <= width:
        return line
    indent = line[: len(line) - len(line.lstrip(" "))]
    return _fill(
        line, width=max(len(indent) + 20, width), subsequent_indent=indent,
        replace_whitespace=False, expand_tabs=False,
    )  # fmt: skip


out = _Console(highlight=False)
err = _Console(stderr=True, highlight=False)


def note(message: str) -> None:
    """One line on standard error about an option that has no effect here: the command goes on
    (an option that changes nothing is not an error; standard output stays the answer)."""
    err.print(f"Note: {message}.", markup=False, soft_wrap=True)


def hanging(label: str, text: str) -> Text:
    """``label`` then ``text`` (plain, not markup), wrapped to standard output's width with its
    wrapped lines indented under the text's start (no trailing spaces): a numbered paragraph that
    reads at any width."""
    indent = " " * (len(label) + 1)
    body = _fill(
        text, width=max(len(indent) + 20, out.width), initial_indent=f"{label} ", subsequent_indent=indent
    )
    return Text(body, overflow="fold")


def paragraph(text: str, style: str = "") -> Text:
    """``text`` (plain, not markup) wrapped to standard output's width without trailing spaces,
    in rich's ``style`` (``"bold"``)."""
    return Text(_fill(text, width=max(20, out.width)), style=style, overflow="fold")


def indented(text: str, spaces: int) -> Text:
    """``text`` (plain) with every line, wrapped ones too, indented by ``spaces``, wrapped to
    standard output's width without trailing spaces."""
    return Text(_wrapped(" " * spaces + text, out.width), overflow="fold")


def json_out(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text for standard output: always valid JSON.

    Never ``NaN`` or ``Infinity`` (not JSON: a :class:`ConquianError`
    instead), and text that standard output cannot encode (a lone surrogate
    read from a ``\\ud800`` escape in the input) as ``\\u`` escapes.

    Raises
    ------
    ConquianError
        If the data holds a number JSON cannot carry (NaN, an infinity).
    """
    try:
        text = json.dumps(data, ensure_ascii=False, indent=indent, allow_nan=False)
    except ValueError:
        raise ConquianError(
            "internal error: the answer holds a number JSON cannot carry (NaN or an infinity)"
        ) from None
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(data, ensure_ascii=True, indent=indent, allow_nan=False)
    return text


def emit(data: Any) -> None:
    """Print JSON on standard output (see :func:`json_out`)."""
    sys.stdout.write(json_out(data, indent=2) + "\n")
