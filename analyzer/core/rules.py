"""The options of a Conquian variant and the two seed presets (RULES.md section 4).

Every point where public sources disagree is a field of :class:`Rules`;
a preset is one value of it.  Shared mechanics read the fields, so a new
historical variant is a new preset, not a new code path.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from analyzer.core.cards import Labels, clip
from analyzer.core.errors import UnknownVariantError

__all__ = [
    "BOOL_OPTIONS",
    "CLASSIC",
    "COONCAN1913",
    "HOYLE1897",
    "MEGAJOGOS",
    "MEXICAN",
    "MEXICAN_9_10",
    "PRESETS",
    "RULE_OPTIONS",
    "Exchange",
    "ForceFit",
    "ForceWhen",
    "Rearrange",
    "Rules",
    "StockOut",
    "get_rules",
    "nearest_variant",
    "unknown_variant",
]


class Exchange(enum.StrEnum):
    """R9: the exchange before play."""

    NONE = "none"
    PASS_ONE = "pass_one"


class Rearrange(enum.StrEnum):
    """R13: how a player may rearrange his layout when he melds.

    ``own``: freely, every melded card staying melded; ``borrow`` (Foster 1897): each meld stays,
    but may lend one card of a set of four, or cards from either end of a run as long as three in
    sequence stay, each lent card to a different meld (R13a).
    """

    OWN = "own"
    BORROW = "borrow"


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
        Number of players (2 to 4; R8).
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
    player_counts : tuple of int
        The player counts the variant is played by (R8), sorted; ``players`` is one of them.
        Empty (the default) means ``(players,)``.
    upcard : bool
        Whether the dealer turns a card face up at the deal, offered first to the player after
        him and to himself last (R10a).
    discard_force : bool
        Whether a player who pays may force another player with his paid card (R14a).

    Raises
    ------
    ValueError
        If the numbers cannot make a deal of 40 cards with a stock left (R1, R8), the
        target cannot be melded (R15), or ``players`` is not one of ``player_counts``; the
        message names the rule.
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
    player_counts: tuple[int, ...] = ()
    upcard: bool = False
    discard_force: bool = False

    def __post_init__(self) -> None:
        counts = tuple(sorted(set(self.player_counts or (self.players,))))
        object.__setattr__(self, "player_counts", counts)
        for count in counts:
            if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 4:
                raise ValueError(f"players must be 2 to 4 in {self.name!r}, got {count!r} (R8)")
        if self.players not in counts:
            raise ValueError(_not_played_by(self.name, counts, self.players))
        if self.hand_size < 2:
            raise ValueError(
                f"hand_size must be at least 2 in {self.name!r}, got {self.hand_size}: going out "
                f"melds hand_size + 1 cards in melds of 3 or more (R4, R15)"
            )
        if not 3 <= self.max_run <= 10:
            raise ValueError(f"max_run must be 3 to 10 in {self.name!r}, got {self.max_run} (R5)")
        for count in counts:
            dealt = count * self.hand_size
            if dealt >= 40:
                raise ValueError(
                    f"{self.name} deals {count} x {self.hand_size} = {dealt} cards: the deck has "
                    f"40 and a stock must be left (R1, R8)"
                )
            if self.upcard and dealt + 1 >= 40:
                raise ValueError(
                    f"{self.name} deals {count} x {self.hand_size} = {dealt} cards and turns one "
                    f"up: the deck has 40 and a stock must be left (R1, R8, R10a)"
                )
        if self.target == 5 and self.max_run < 5:
            raise ValueError(
                f"{self.name} needs 5 melded cards to go out, which takes a run of 5, but max_run "
                f"is {self.max_run} (R5, R15)"
            )

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
        """Cards left in the stock once the hands are dealt (R8); the upcard, where one is
        turned (R10a), is the first of them."""
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

    @property
    def exact_preset(self) -> bool:
        """True when these rules are their preset exactly: its own player count and no option
        changed, the labels aside (R2); what was fitted or measured on a preset (an evaluation,
        a move prior, the bot's budget) applies only then."""
        preset = PRESETS.get(self.name)
        return preset is not None and preset.with_labels(self.labels) == self

    @property
    def title(self) -> str:
        """The rules in a few words: the preset's name, with the player count when it is not
        the preset's own and the options changed: ``classic``, ``megajogos, 4 players``,
        ``classic (max_run=10, hand_melds=true)``."""
        text = self.name
        preset = PRESETS.get(self.name)
        if preset is not None and self.players != preset.players:
            text += f", {self.players} players"
        changed = self.overrides() if preset is not None else {}
        if changed:
            values = ", ".join(
                f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in changed.items()
            )
            text += f" ({values})"
        return text

    @property
    def player_counts_text(self) -> str:
        """The player counts in words: ``"2"``, ``"2, 3 or 4"``."""
        return _counts_text(self.player_counts)

    def with_players(self, players: int) -> Rules:
        """The same rules for ``players`` players, one of :attr:`player_counts` (R8).

        Raises
        ------
        ValueError
            If the variant is not played by that many players.
        """
        return self.with_options({"players": players})

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset of the same name, as JSON values.

        The player count and the labels are not options here (a position states them in its
        ``players`` and ``labels``); a rules value with no preset of its name returns every
        option.
        """
        preset = PRESETS.get(self.name)
        changed: dict[str, Any] = {}
        for name in RULE_OPTIONS:
            if name == "players":
                continue
            value = getattr(self, name)
            if preset is None or value != getattr(preset, name):
                changed[name] = str(value) if isinstance(value, enum.Enum) else value
        return changed

    def with_options(self, options: Mapping[str, Any]) -> Rules:
        """These rules with some options changed (RULES.md section 4).

        ``options`` maps any of :data:`RULE_OPTIONS` to a value: ``players``, ``hand_size``,
        ``max_run`` a whole number; ``exchange``, ``rearrange``, ``force_fit``, ``force_when``,
        ``on_stock_out`` their text values (e.g. ``"after_decline"``); ``hand_melds``,
        ``upcard`` and ``discard_force`` a bool or ``"true"``/``"false"``.  ``None``, ``-1`` and ``""`` keep the value.  The player counts
        kept are those the new numbers can deal.

        Raises
        ------
        ValueError
            For an unknown option, a bad value, or a combination the rules forbid; the message
            names the option and the rule.
        """
        unknown = sorted(set(options) - set(RULE_OPTIONS))
        if unknown:
            raise ValueError(
                f"unknown rule option(s) {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(RULE_OPTIONS)})"
            )
        changes: dict[str, Any] = {}
        for name, value in options.items():
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            if name in ("players", "hand_size", "max_run"):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"{name} must be a whole number, not {value!r}")
                if value != -1:
                    changes[name] = value
            elif name in BOOL_OPTIONS:
                text = str(value).strip().lower()
                if text not in ("true", "false"):
                    raise ValueError(f"{name} must be true or false, not {value!r}")
                changes[name] = text == "true"
            else:
                kind = _ENUMS[name]
                try:
                    changes[name] = kind(str(value).strip().lower())
                except ValueError:
                    known = ", ".join(str(v.value) for v in kind)
                    raise ValueError(f"{name}={value!r} is not one of {known}") from None
        changes = {k: v for k, v in changes.items() if v != getattr(self, k)}
        if not changes:
            return self
        players = changes.pop("players", self.players)
        if players not in self.player_counts:
            raise ValueError(_not_played_by(self.name, self.player_counts, players))
        # The counts the new hand size still deals, and the one asked for (refused with the
        # deck's reason by __post_init__ if it cannot be dealt).
        hand_size = changes.get("hand_size", self.hand_size)
        upcard = int(changes.get("upcard", self.upcard))
        counts = tuple(
            c for c in self.player_counts if c * hand_size + upcard < 40 or c == players
        )
        return replace(self, players=players, player_counts=counts, **changes)

    def __repr__(self) -> str:
        """``get_rules('classic')``, ``get_rules('megajogos').with_labels('french')`` or
        ``get_rules('megajogos').with_options({'players': 4, 'max_run': 8})``."""
        preset = PRESETS.get(self.name)
        if preset is not None:
            options = {"players": self.players} if self.players != preset.players else {}
            options.update(self.overrides())
            try:
                same = preset.with_labels(self.labels).with_options(options) == self
            except ValueError:
                same = False
            if same:
                text = f"get_rules({self.name!r})"
                if self.labels != preset.labels:
                    text += f".with_labels({str(self.labels)!r})"
                if options:
                    text += f".with_options({options!r})"
                return text
        values = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Rules({values})"

    def as_dict(self) -> dict[str, Any]:
        """The options as plain JSON-ready data, with ``target`` and ``stock_size``."""
        data = {k: (str(v) if isinstance(v, enum.Enum) else v) for k, v in asdict(self).items()}
        data["player_counts"] = list(self.player_counts)
        data["target"] = self.target
        data["stock_size"] = self.stock_size
        return data


RULE_OPTIONS = (
    "players",
    "hand_size",
    "max_run",
    "exchange",
    "rearrange",
    "force_fit",
    "force_when",
    "hand_melds",
    "on_stock_out",
    "upcard",
    "discard_force",
)
"""The :class:`Rules` fields that :meth:`Rules.with_options` and a position's ``rules`` change."""

BOOL_OPTIONS = ("hand_melds", "upcard", "discard_force")
"""The options of :data:`RULE_OPTIONS` whose values are true or false."""

_ENUMS: dict[str, type[enum.Enum]] = {
    "exchange": Exchange,
    "rearrange": Rearrange,
    "force_fit": ForceFit,
    "force_when": ForceWhen,
    "on_stock_out": StockOut,
}


def _not_played_by(name: str, counts: tuple[int, ...], players: object) -> str:
    """``classic is played by 2 players, not 3 (R8)``."""
    return f"{name} is played by {_counts_text(counts)} players, not {players} (R8)"


def _counts_text(counts: tuple[int, ...]) -> str:
    """``(2,)`` -> ``"2"``, ``(2, 3, 4)`` -> ``"2, 3 or 4"``."""
    words = [str(c) for c in counts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


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
    player_counts=(2,),
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
    # The MegaJogos text: "traditionally played by 2 to 6 players", 3 on its site; with 8
    # cards each the 40-card pack deals 2, 3 or 4 with a stock left (R8).
    player_counts=(2, 3, 4),
)

MEXICAN = Rules(
    name="mexican",
    # pagat.com's current page (PM): 2-3 players (3: "tercerilla"), Spanish pack, 8 dealt one at
    # a time, 9 to go out, anticlockwise.  Where it was not read (docs/RULES.md section 4 lists
    # each reading): no run cap, the exchange as Spanish Wikipedia's swap of one card, forcing
    # after a decline, hand cards meld only with a centre card, a draw when the stock runs out.
    players=2,
    hand_size=8,
    labels=Labels.SPANISH,
    max_run=10,
    exchange=Exchange.PASS_ONE,
    rearrange=Rearrange.OWN,
    force_fit=ForceFit.LAYOFF,
    force_when=ForceWhen.AFTER_DECLINE,
    hand_melds=False,
    on_stock_out=StockOut.DRAW,
    player_counts=(2, 3),
)

# Diario Popular's "Conquian a la mexicana" (DP; Spanish Wikipedia: "some places"): the Mexican
# game with 9 dealt and 10 to go out, 2-4 players, a swap with the player on the right (the next
# in the anticlockwise play), the card offered round the table, hand melds.  Unsaid: section 4.
MEXICAN_9_10 = replace(
    MEXICAN, name="mexican_9_10", hand_size=9, hand_melds=True, player_counts=(2, 3, 4)
)

# Foster's Complete Hoyle (1897), with the modern Hoyle (Bicycle) where they agree (F97, BIC):
# classic's game with no run cap ("3 or more"), borrowing within its limits (R13a) and forcing
# with one's own discard (R14a).  Unsaid or read: docs/RULES.md section 4.
HOYLE1897 = replace(
    CLASSIC, name="hoyle1897", max_run=10, rearrange=Rearrange.BORROW, discard_force=True
)

# Foster's *Cooncan* (1913), the two-player "original conquian" (F13): the 21st card turned up
# at the deal (R10a), no run cap, rearranging only one's own melds, the opponent's melds reached
# only through one's discards (R14a).  Unsaid or read: docs/RULES.md section 4.
COONCAN1913 = replace(CLASSIC, name="cooncan1913", max_run=10, upcard=True, discard_force=True)

PRESETS: dict[str, Rules] = {
    r.name: r for r in (CLASSIC, MEGAJOGOS, MEXICAN, MEXICAN_9_10, HOYLE1897, COONCAN1913)
}


def nearest_variant(name: str) -> str | None:
    """The preset ``name`` was most likely meant to be (``mexcan``: ``mexican``), by
    :func:`difflib.get_close_matches` with the cutoff of the nearest unknown key (0.6), or
    ``None`` when no preset is that close."""
    close = difflib.get_close_matches(str(name).strip().lower(), list(PRESETS), n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_variant(name: str) -> str:
    """The message for a variant name that is no preset: the name, the nearest preset if one
    is close (``did you mean 'mexican'?``) and the presets."""
    near = nearest_variant(name)
    hint = f"; did you mean {near!r}?" if near else ""
    return f"unknown variant: {clip(str(name))!r}{hint} (known: {', '.join(sorted(PRESETS))})"


def get_rules(name: str | Rules) -> Rules:
    """Return the preset called ``name`` (case-insensitive), or ``name`` if it is a Rules.

    Every variant name read (options, positions, records, requests) comes here.

    Raises
    ------
    UnknownVariantError
        If no preset has that name; the message names the nearest preset
        (:func:`unknown_variant`) and lists the presets.
    """
    if isinstance(name, Rules):
        return name
    rules = PRESETS.get(str(name).strip().lower())
    if rules is None:
        raise UnknownVariantError(unknown_variant(str(name)))
    return rules
