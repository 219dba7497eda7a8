"""``conquian show``: a position drawn for people, in the terminal or as an SVG picture."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.text import Text

from analyzer.core.cards import counted
from analyzer.core.plain import dump_position
from cli.console import out
from cli.inputs import POSITION_HELP, position_arg
from cli.options import ForceOpt, LabelsOpt
from cli.outputs import maybe, svg_file
from cli.svg import no_centre_text, position_svg

__all__ = ["card_text", "show", "table_lines"]

FRENCH_SUITS = {"S": ("♠", "bold"), "H": ("♥", "bold red"), "D": ("♦", "bold red"),
                "C": ("♣", "bold")}  # fmt: skip
SPANISH_SUITS = {"o": "bold yellow", "c": "bold red", "e": "bold blue", "b": "bold green"}
"""Terminal styles of the suits: French red and black; Spanish in the colours of the
traditional deck (oros gold, copas red, espadas blue, bastos green)."""


def show(
    position: Annotated[str, typer.Argument(metavar="POSITION", help=POSITION_HELP)],
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            metavar="FILE",
            help="Write an SVG picture of the table (card faces, the player to act marked) "
            "instead of drawing it in the terminal; checked before the work.",
        ),
    ] = None,
    force: ForceOpt = False,
    labels: LabelsOpt = None,
) -> None:
    """Draw POSITION: each player's hand and layout, the centre card, the stock and the dead
    cards, cards as coloured rank-suit glyphs; --svg writes a picture a page can embed."""
    target = svg_file(svg, force=force, inputs=[position])
    with maybe(target):
        pos = position_arg(position, labels)
        state = pos.state
        data = dump_position(state)
        if state.is_terminal():
            data["to_act"] = None  # the deal is over: nobody acts (R15, R18)
        if target is not None:
            target.write_text(position_svg(data, caption=state.describe(), over=state.is_terminal()) + "\n")
            target.commit()
            out.print(f"Wrote the picture of {pos.name} to {svg}.", markup=False, soft_wrap=True)
            return
    for line in table_lines(data, state.describe(), over=state.is_terminal(), glyphs=symbols_fit()):
        out.print(line)


def symbols_fit() -> bool:
    """True when standard output's encoding can write the suit symbols and marks (``K♠``,
    ``▶``); else the drawing uses letters (``KS``, ``>``), as the cards are written (R2)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        "♠♥♦♣▶🂠".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def card_text(card: str, labels: str, *, glyphs: bool = True) -> Text:
    """One card as a coloured glyph: ``K♥`` in red, ``12o`` in gold (R2).

    Parameters
    ----------
    card : str
        A card text as positions write it (``KH``, ``12o``).
    labels : str
        ``"french"`` or ``"spanish"``: the label set of the text.
    glyphs : bool
        French suits as symbols (``K♥``); False: as letters (``KH``), in the same colour.

    Returns
    -------
    rich.text.Text
    """
    rank, suit = card[:-1], card[-1]
    if labels == "spanish" and suit.lower() in SPANISH_SUITS:
        return Text(f"{rank}{suit.lower()}", style=SPANISH_SUITS[suit.lower()])
    glyph, style = FRENCH_SUITS.get(suit.upper(), (suit, ""))
    return Text(f"{rank}{glyph if glyphs else suit.upper()}", style=style)


def _cards(cards: list[str], labels: str, glyphs: bool) -> Text:
    return Text(" ").join(card_text(c, labels, glyphs=glyphs) for c in cards)


def _melds(layout: list[list[str]], labels: str, glyphs: bool) -> Text:
    if not layout:
        return Text("no melds", style="dim")
    return Text("  ").join(Text("[") + _cards(m, labels, glyphs) + Text("]") for m in layout)


def table_lines(
    data: dict[str, Any], describe: str, *, over: bool = False, glyphs: bool = True
) -> list[Text]:
    """The terminal drawing of position data: one line per part.

    Parameters
    ----------
    data : dict
        A position as :func:`analyzer.formats.position.dump_position` writes it.
    describe : str
        The position's one-line description, the first line.
    over : bool
        The deal is over (R15, R18): the centre line says so.
    glyphs : bool
        Suit symbols and marks (``♠``, ``▶``, ``🂠``); False: letters and ASCII marks, for an
        output encoding without them.

    Returns
    -------
    list of rich.text.Text
        The description; per player his name (the player to act marked), hand and layout;
        the centre card (R10-R14), the stock, the dead cards (R17) and the exchange (R9).
    """
    labels = str(data["labels"])
    lines = [Text(describe + ".", style="bold")]  # it starts with the variant's id, as typed
    for p, entry in enumerate(data["players"]):
        acting = p == data["to_act"]
        head = Text(("▶ " if glyphs else "> ") if acting else "  ", style="bold yellow")
        head += Text(f"Player {p}", style="bold")
        if p == data["dealer"]:
            head += Text(" (dealer)")
        if acting:
            head += Text(" to act", style="bold yellow")
        melded = sum(len(m) for m in entry["layout"])
        hand = entry["hand"]
        count = hand if isinstance(hand, int) else len(hand)
        head += Text(f"   {melded} melded, {count} in hand", style="dim")
        lines.append(head)
        if isinstance(hand, int) and hand:
            hand_text = Text(("🂠 " if glyphs else "# ") * min(hand, 3) + f"{hand} hidden", style="dim")
        elif isinstance(hand, int):
            hand_text = Text("empty", style="dim")  # nothing is hidden in an empty hand
        else:
            hand_text = _cards(hand, labels, glyphs) if hand else Text("empty", style="dim")
        lines.append(Text("    hand    ") + hand_text)
        lines.append(Text("    layout  ") + _melds(entry["layout"], labels, glyphs))
        if entry.get("gave"):
            lines.append(Text("    gave    ") + card_text(entry["gave"], labels, glyphs=glyphs))
        if entry.get("paid"):
            lines.append(Text("    paid    ") + _cards(entry["paid"], labels, glyphs))
    centre = data["centre"]
    if centre is None:
        lines.append(
            Text("  Centre    none: " + no_centre_text(data, over=over))
        )
    else:
        note = f"  {centre['kind']} by player {centre['source']}"
        if centre["declined"]:
            note += ", declined by " + ", ".join(str(d) for d in centre["declined"])
        if centre.get("forced") is not None:
            note += f", forced on player {centre['forced']}"
        lines.append(Text("  Centre    ") + card_text(centre["card"], labels, glyphs=glyphs) + Text(note))
    stock = data["stock"]
    if isinstance(stock, int):
        lines.append(Text(f"  Stock     {counted(stock, 'card')}, order unknown"))
    else:
        lines.append(
            Text("  Stock     ")
            + (_cards(stock, labels, glyphs) if stock else Text("empty", style="dim"))
            + Text("  (top first)" if stock else "", style="dim")
        )
    dead = data["dead"]
    lines.append(Text("  Dead      ") + (_cards(dead, labels, glyphs) if dead else Text("none", style="dim")))
    if "exchange" in data:
        chosen = data["exchange"]["chosen"]
        lines.append(
            Text("  Exchange  chosen so far: ")
            + Text(" ").join(
                Text("-", style="dim") if c is None else card_text(c, labels, glyphs=glyphs) for c in chosen
            )
        )
    return lines
