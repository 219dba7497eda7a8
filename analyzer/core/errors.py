"""The exception hierarchy of conquian.

Every error raised by :mod:`analyzer` derives from :class:`ConquianError`.
Errors caused by bad user text (card notation, positions, moves) also
derive from :class:`ValueError`, following python-chess.

"No legal arrangement" is never an exception: solvers return ``None``.
"""

from __future__ import annotations

from typing import Self

__all__ = [
    "AmbiguousCardError",
    "CardError",
    "ConquianError",
    "DuplicateCardError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MissingExtraError",
    "PositionError",
    "UnknownVariantError",
]


class ConquianError(Exception):
    """Root of every error raised by conquian.

    Attributes
    ----------
    option : str or None
        The option the problem is about, when one decides it (``"open"`` for
        ``--open``): the message names it as typed on the command line
        (``--open``), and the engine (docs/engine.md), whose requests spell
        options as fields, answers :attr:`request_message` naming that field.
    request_message : str or None
        The message in the engine's words (``'open' needs ...``).
    """

    option: str | None = None
    request_message: str | None = None

    def naming(self, option: str, request_message: str) -> Self:
        """This error, marked as about ``option``; ``request_message`` says it in the engine's
        words (the request field instead of the command-line option)."""
        self.option = option
        self.request_message = request_message
        return self


class CardError(ConquianError, ValueError):
    """A card token could not be parsed (R2).

    The message names the offending text.
    """


class AmbiguousCardError(CardError):
    """A card token reads as two different cards (R2).

    Attributes
    ----------
    problem : str or None
        The problem without the advice on where to choose the labels, for a reader that
        gives its own (a position's ``"labels"`` key, the notation's second field), where
        the message's ``--labels`` would not help: for a position that option only sets
        the labels of the answer.
    """

    problem: str | None = None


class DuplicateCardError(CardError):
    """The same card was given twice where cards must be distinct (R1)."""


class UnknownVariantError(ConquianError, ValueError):
    """A variant name is not one of the presets."""


class PositionError(ConquianError, ValueError):
    """A position is malformed or impossible under the rules (R6, R7, R11)."""


class IllegalMoveError(ConquianError, ValueError):
    """A move is malformed or not legal in the given position."""


class InvalidMoveError(IllegalMoveError):
    """A move text cannot be read as a move (R9-R16), whatever the position; as python-chess,
    apart from a readable move that is illegal, yet caught by ``except IllegalMoveError``."""


class MissingExtraError(ConquianError, ImportError):
    """An optional library is not installed; the message names the extra that installs it
    (``pip install 'conquian[openspiel]'``, ``[pettingzoo]``, ``[ray]``)."""
