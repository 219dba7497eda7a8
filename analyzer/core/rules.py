"""The options of a Conquian variant and the two seed presets (RULES.md section 4).

Every point where public sources disagree is a field of :class:`Rules`;
a preset is one value of it.  Shared mechanics read the fields, so a new
historical variant is a new preset, not a new code path.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from analyzer.core.cards import Labels
from analyzer.core.errors import UnknownVariantError

__all__ = [
    "CLASSIC",
    "MEGAJOGOS",
    "PRESETS",
    "Exchange",
    "ForceFit",
    "ForceWhen",
    "Rearrange",
    "Rules",
    "StockOut",
    "get_rules",
]


class Exchange(enum.StrEnum):
    """R9: the exchange before play."""

    NONE = "none"
    PASS_ONE = "pass_one"


class Rearrange(enum.StrEnum):
    """R13: which melds a player may rearrange when he melds."""

    OWN = "own"


class ForceFit(enum.StrEnum):
    """R14: when a centre card fits a layout for forcing."""

    LAYOFF = "layoff"
    REARRANGE = "rearrange"


class ForceWhen(enum.StrEnum):
    """R14: who may be forced, and when."""

    AFTER_DECLINE = "after_decline"
    ANY_OFFER = "any_offer"


class StockOut(enum.StrEnum):
    """R18: the result when the stock runs out."""

    DRAW = "draw"
    FEWEST_IN_HAND = "fewest_in_hand"


@dataclass(frozen=True, slots=True)
class Rules:
    """All options of one Conquian variant (RULES.md section 4).

    Attributes
    ----------
    name : str
        Preset name, e.g. ``"classic"``.
    players : int
        Number of players (2 or 3).
    hand_size : int
        Cards dealt to each player (R8), in cards.
    labels : Labels
        Default card labels for reading and printing (R2).
    max_run : int
        Longest legal run in cards (R5); 10 means no cap.
    exchange : Exchange
        R9.
    rearrange : Rearrange
        R13.
    force_fit : ForceFit
        R14.
    force_when : ForceWhen
        R14.
    hand_melds : bool
        Whether hand-only melds may be laid when offered a card (R16).
    on_stock_out : StockOut
        R18.

    Raises
    ------
    ValueError
        If the numbers cannot make a deal of 40 cards.
    """

    name: str
    players: int
    hand_size: int
    labels: Labels
    max_run: int
    exchange: Exchange
    rearrange: Rearrange
    force_fit: ForceFit
    force_when: ForceWhen
    hand_melds: bool
    on_stock_out: StockOut

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2 to 4 in {self.name!r}, got {self.players}")
        if self.hand_size < 1:
            raise ValueError(f"hand_size must be at least 1 in {self.name!r}, got {self.hand_size}")
        if self.players * self.hand_size >= 40:
            raise ValueError(f"{self.name!r} deals more than the 40-card deck")
        if not 3 <= self.max_run <= 10:
            raise ValueError(f"max_run must be 3..10 in {self.name!r}")

    def __hash__(self) -> int:
        # Rules key every cache of the engine: hash the name only, whose hash Python caches
        # (equal rules still hash equal; eq compares every field).
        return hash(self.name)

    @property
    def target(self) -> int:
        """Melded cards needed to go out: ``hand_size + 1`` (R15)."""
        return self.hand_size + 1

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after the deal (R8)."""
        return 40 - self.players * self.hand_size

    @property
    def reading_default(self) -> Labels | None:
        """The labels that decide a card text whose every card reads both ways, when nobody chose (R2).

        French, R2's default, for a variant whose labels are French; ``None``
        (nothing decides: the text is refused) for a variant whose labels are
        Spanish, since it accepts French cards too, so that ``5C 6C 7C`` is
        never silently read as copas.  See :func:`analyzer.core.cards.text_labels`.
        """
        return Labels.FRENCH if self.labels == Labels.FRENCH else None

    def with_labels(self, labels: Labels | str) -> Rules:
        """The same rules, reading and printing cards with ``labels`` (R2).

        A position's labels travel with its state this way, so that every
        answer about it (moves, descriptions, reasons) uses them.

        Raises
        ------
        ValueError
            If ``labels`` is not ``"french"`` or ``"spanish"``.
        """
        labels = Labels(labels)
        return self if labels == self.labels else replace(self, labels=labels)

    def __repr__(self) -> str:
        """``get_rules('classic')``, or ``get_rules('megajogos').with_labels('french')``."""
        preset = PRESETS.get(self.name)
        if preset is not None and preset.with_labels(self.labels) == self:
            text = f"get_rules({self.name!r})"
            if self.labels != preset.labels:
                text += f".with_labels({str(self.labels)!r})"
            return text
        values = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Rules({values})"

    def as_dict(self) -> dict[str, Any]:
        """The options as plain JSON-ready data, with ``target`` and ``stock_size``."""
        data = {k: (str(v) if isinstance(v, enum.Enum) else v) for k, v in asdict(self).items()}
        data["target"] = self.target
        data["stock_size"] = self.stock_size
        return data


CLASSIC = Rules(
    name="classic",
    players=2,
    hand_size=10,
    labels=Labels.FRENCH,
    max_run=8,
    exchange=Exchange.NONE,
    rearrange=Rearrange.OWN,
    force_fit=ForceFit.LAYOFF,
    force_when=ForceWhen.AFTER_DECLINE,
    hand_melds=False,
    on_stock_out=StockOut.DRAW,
)

MEGAJOGOS = Rules(
    name="megajogos",
    players=3,
    hand_size=8,
    labels=Labels.SPANISH,
    max_run=10,
    exchange=Exchange.PASS_ONE,
    rearrange=Rearrange.OWN,
    force_fit=ForceFit.LAYOFF,
    force_when=ForceWhen.ANY_OFFER,
    hand_melds=True,
    on_stock_out=StockOut.FEWEST_IN_HAND,
)

PRESETS: dict[str, Rules] = {r.name: r for r in (CLASSIC, MEGAJOGOS)}


def get_rules(name: str | Rules) -> Rules:
    """Return the preset called ``name`` (case-insensitive), or ``name`` if it is a Rules.

    Raises
    ------
    UnknownVariantError
        If no preset has that name; the message lists the presets.
    """
    if isinstance(name, Rules):
        return name
    rules = PRESETS.get(str(name).strip().lower())
    if rules is None:
        raise UnknownVariantError(
            f"unknown variant: {name!r} (known: {', '.join(sorted(PRESETS))})"
        )
    return rules
