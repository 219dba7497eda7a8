"""Pictures as SVG: a position's table and a review's win-chance plot.

Rendering only, in the manner of ``chess.svg.board``: each picture is a pure
function of plain data (the JSON answers of the commands: a position as
``analyzer.formats.position.dump_position`` writes it, a review as ``review --json``
prints it) with keyword options and a default colour table that a caller
overrides key by key (``colors={"table": "#fff"}``).  Elements carry CSS
classes (``card``, ``back``, ``hand``, ``meld``, ``centre``, ``to-act``,
``blunder``, ...) and colours are presentation attributes, so a page that
embeds a picture can restyle it with CSS.  Built with
:mod:`xml.etree.ElementTree`; nothing in :mod:`analyzer` imports this module.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from analyzer.core.cards import counted

__all__ = ["DEFAULT_COLORS", "position_svg", "review_svg"]

DEFAULT_COLORS: dict[str, str] = {
    "table": "#1f5e3a",
    "panel": "#24704a",
    "text": "#f5f5f0",
    "muted": "#c9dccf",
    "card": "#fffdf7",
    "card_edge": "#2b2b2b",
    "back": "#27408b",
    "back_pattern": "#8fa8e8",
    "black": "#141414",
    "red": "#c8102e",
    "oros": "#b8860b",
    "copas": "#c8102e",
    "espadas": "#1f4e9c",
    "bastos": "#2e7d32",
    "to_act": "#ffd54f",
    "plot_background": "#ffffff",
    "grid": "#dddddd",
    "axis": "#333333",
    "blunder": "#c8102e",
    "mistake": "#e67e22",
    "inaccuracy": "#d4ac0d",
    "player0": "#1f77b4",
    "player1": "#2ca02c",
    "player2": "#9467bd",
    "player3": "#8c564b",
}
"""The colours of the pictures by name; every picture takes ``colors`` to override some."""

_SVG = "http://www.w3.org/2000/svg"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_FRENCH = {"S": ("♠", "black", "spades"), "H": ("♥", "red", "hearts"),
           "D": ("♦", "red", "diamonds"), "C": ("♣", "black", "clubs")}  # fmt: skip
_SPANISH = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}

CARD_W = 40
CARD_H = 56


def _colors(colors: Mapping[str, str] | None) -> dict[str, str]:
    table = dict(DEFAULT_COLORS)
    if colors:
        table.update(colors)
    return table


def _root(width: float, height: float, title: str) -> ET.Element:
    root = ET.Element(
        "svg",
        {
            "xmlns": _SVG,
            "version": "1.1",
            "width": f"{width:g}",
            "height": f"{height:g}",
            "viewBox": f"0 0 {width:g} {height:g}",
            "font-family": _FONT,
        },
    )
    ET.SubElement(root, "title").text = title
    return root


def _text(
    parent: ET.Element, x: float, y: float, text: str, *, size: float, fill: str,
    cls: str, anchor: str = "start", weight: str = "normal",
) -> ET.Element:  # fmt: skip
    node = ET.SubElement(
        parent,
        "text",
        {
            "x": f"{x:g}",
            "y": f"{y:g}",
            "font-size": f"{size:g}",
            "fill": fill,
            "class": cls,
            "text-anchor": anchor,
            "font-weight": weight,
        },
    )
    node.text = text
    return node


def _suit(card: str, labels: str) -> tuple[str, str, str]:
    """(rank text, suit class, colour key) of a card text such as ``KH`` or ``12o`` (R2)."""
    rank, letter = card[:-1], card[-1]
    if labels == "spanish" and letter.lower() in _SPANISH:
        name = _SPANISH[letter.lower()]
        return rank, name, name
    symbol = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(letter, letter.upper())
    _, colour, name = _FRENCH.get(symbol, ("?", "black", "unknown"))
    return rank, name, colour


def _spanish_symbol(parent: ET.Element, suit: str, cx: float, cy: float, fill: str) -> None:
    """A small drawing of a Spanish suit: a coin, a cup, a sword or a club."""
    g = ET.SubElement(parent, "g", {"class": f"pip {suit}", "fill": fill, "stroke": fill})
    if suit == "oros":
        ET.SubElement(g, "circle", {"cx": f"{cx:g}", "cy": f"{cy:g}", "r": "8", "fill-opacity": "0.85"})
        ET.SubElement(g, "circle", {"cx": f"{cx:g}", "cy": f"{cy:g}", "r": "4", "fill": "none",
                                    "stroke": "#fffdf7", "stroke-width": "1.5"})  # fmt: skip
    elif suit == "copas":
        ET.SubElement(g, "path", {"d": f"M{cx - 8:g},{cy - 8:g} Q{cx:g},{cy + 8:g} {cx + 8:g},{cy - 8:g} Z"})
        ET.SubElement(g, "rect", {"x": f"{cx - 1.5:g}", "y": f"{cy - 1:g}", "width": "3", "height": "7"})
        ET.SubElement(g, "rect", {"x": f"{cx - 5:g}", "y": f"{cy + 6:g}", "width": "10", "height": "2.5"})
    elif suit == "espadas":
        ET.SubElement(g, "path", {"d": f"M{cx:g},{cy - 10:g} L{cx + 2.5:g},{cy + 4:g} L{cx - 2.5:g},{cy + 4:g} Z"})
        ET.SubElement(g, "rect", {"x": f"{cx - 6:g}", "y": f"{cy + 4:g}", "width": "12", "height": "2.5"})
        ET.SubElement(g, "rect", {"x": f"{cx - 1.5:g}", "y": f"{cy + 6:g}", "width": "3", "height": "5"})
    else:
        ET.SubElement(g, "line", {"x1": f"{cx - 5:g}", "y1": f"{cy + 9:g}", "x2": f"{cx + 5:g}",
                                  "y2": f"{cy - 9:g}", "stroke-width": "5",
                                  "stroke-linecap": "round"})  # fmt: skip


def _card(
    parent: ET.Element, x: float, y: float, card: str, labels: str, colors: dict[str, str],
    extra: str = "",
) -> None:  # fmt: skip
    """A card face: its rank in a corner and its suit in the middle, in the suit's colour."""
    rank, suit, colour_key = _suit(card, labels)
    fill = colors.get(colour_key, colors["black"])
    g = ET.SubElement(
        parent, "g", {"class": f"card {suit} {extra}".strip(), "transform": f"translate({x:g},{y:g})"}
    )
    ET.SubElement(g, "title").text = card
    ET.SubElement(
        g,
        "rect",
        {"width": str(CARD_W), "height": str(CARD_H), "rx": "4", "fill": colors["card"],
         "stroke": colors["card_edge"], "stroke-width": "1", "class": "face"},
    )  # fmt: skip
    _text(g, 4, 15, rank, size=13, fill=fill, cls="rank", weight="bold")
    # The suit in the corner under the rank, seen when cards overlap, and large in the middle.
    if labels == "spanish" and suit in _SPANISH.values():
        corner = ET.SubElement(g, "g", {"transform": "translate(3.5,19) scale(0.55)"})
        _spanish_symbol(corner, suit, 10, 12, fill)
        _spanish_symbol(g, suit, CARD_W / 2 + 4, CARD_H / 2 + 10, fill)
    else:
        symbol = _FRENCH.get(card[-1].upper(), ("?",))[0]
        _text(g, 4, 29, symbol, size=12, fill=fill, cls="pip corner")
        _text(g, CARD_W / 2 + 4, CARD_H - 8, symbol, size=20, fill=fill, cls="pip", anchor="middle")


def _back(parent: ET.Element, x: float, y: float, colors: dict[str, str]) -> None:
    g = ET.SubElement(parent, "g", {"class": "card back", "transform": f"translate({x:g},{y:g})"})
    ET.SubElement(
        g,
        "rect",
        {"width": str(CARD_W), "height": str(CARD_H), "rx": "4", "fill": colors["back"],
         "stroke": colors["card_edge"], "stroke-width": "1"},
    )  # fmt: skip
    ET.SubElement(
        g,
        "rect",
        {"x": "5", "y": "5", "width": str(CARD_W - 10), "height": str(CARD_H - 10), "rx": "2",
         "fill": "none", "stroke": colors["back_pattern"], "stroke-width": "1.5"},
    )  # fmt: skip


def _row(
    parent: ET.Element, x: float, y: float, cards: Sequence[str], labels: str,
    colors: dict[str, str], step: float, cls: str,
) -> float:  # fmt: skip
    """Cards overlapping by ``step``; returns the x after the last card."""
    g = ET.SubElement(parent, "g", {"class": cls})
    for k, card in enumerate(cards):
        _card(g, x + k * step, y, card, labels, colors)
    return x + (len(cards) - 1) * step + CARD_W if cards else x


def _seats(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def no_centre_text(position: Mapping[str, Any], *, over: bool) -> str:
    """What comes when no card is in the centre: the end of the deal (R15, R18), the exchange
    (R9: a player has a card to choose, so no stock card is turned next) or the next turn (R10).

    Parameters
    ----------
    position : dict
        A dumped position (:func:`analyzer.formats.position.dump_position`); ``"exchange"`` is present
        during the exchange.
    over : bool
        The deal is over.

    Returns
    -------
    str
    """
    if over:
        return "the deal is over"
    if "exchange" in position:
        return "the exchange comes first (R9), then a stock card is turned"
    return "a stock card is turned next"


def position_svg(
    position: Mapping[str, Any],
    *,
    colors: Mapping[str, str] | None = None,
    caption: str | None = None,
    title: str = "Conquian position",
    over: bool = False,
) -> str:
    """The table of a position as an SVG picture (card faces in suit colours, hidden hands as
    card backs, the player to act marked).

    Parameters
    ----------
    position : mapping
        Position data as :func:`analyzer.formats.position.dump_position` writes it
        (``docs/position-format.md``): ``players`` with ``hand`` (cards, or a
        count when hidden) and ``layout``; ``dealer``, ``to_act``, ``labels``,
        ``stock`` (count or cards), ``dead``, ``centre``, ``exchange``.
    colors : mapping, optional
        Colours overriding :data:`DEFAULT_COLORS` key by key.
    caption : str, optional
        A line of text above the table (e.g. the position's description).
    title : str
        The picture's ``<title>``.
    over : bool
        The deal is over (R15, R18): no centre card, and none to come.

    Returns
    -------
    str
        The SVG document.
    """
    palette = _colors(colors)
    labels = str(position.get("labels") or "french")
    players = list(position.get("players", []))
    to_act = position.get("to_act")
    dealer = position.get("dealer")
    width = 900
    top = 40 if caption else 12
    panel_h = 96
    bottom_h = 120
    height = top + len(players) * (panel_h + 8) + bottom_h
    root = _root(width, height, title)
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": palette["table"],
                                 "class": "table"})  # fmt: skip
    if caption:
        _text(root, 16, 26, caption, size=15, fill=palette["text"], cls="caption")
    y = float(top)
    for p, entry in enumerate(players):
        acting = p == to_act
        panel = ET.SubElement(
            root, "g", {"class": "player to-act" if acting else "player", "id": f"player-{p}"}
        )
        ET.SubElement(
            panel,
            "rect",
            {"x": "8", "y": f"{y:g}", "width": str(width - 16), "height": str(panel_h), "rx": "8",
             "fill": palette["panel"],
             "stroke": palette["to_act"] if acting else "none", "stroke-width": "3"},
        )  # fmt: skip
        name = f"Player {p}" + (" (dealer)" if p == dealer else "")
        _text(panel, 20, y + 22, name, size=14, fill=palette["text"], cls="name", weight="bold")
        if acting:
            _text(panel, 20, y + 42, "▶ to act", size=13, fill=palette["to_act"], cls="to-act-mark",
                  weight="bold")  # fmt: skip
        hand = entry.get("hand", [])
        x0, cy = 160.0, y + 30.0
        _text(panel, x0, y + 22, "hand", size=11, fill=palette["muted"], cls="label")
        if isinstance(hand, int):
            g = ET.SubElement(panel, "g", {"class": "hand hidden"})
            for k in range(hand):
                _back(g, x0 + k * 12, cy, palette)
            end = x0 + (hand - 1) * 12 + CARD_W if hand else x0
            _text(panel, end + 8, cy + 34, f"{hand} hidden", size=12, fill=palette["muted"],
                  cls="count")  # fmt: skip
            end += 70
        else:
            end = _row(panel, x0, cy, hand, labels, palette, 24, "hand")
            if not hand:
                _text(panel, x0, cy + 34, "empty", size=12, fill=palette["muted"], cls="count")
                end = x0 + 50
        x = max(end + 28, 450)
        _text(panel, x, y + 22, "layout", size=11, fill=palette["muted"], cls="label")
        layout = ET.SubElement(panel, "g", {"class": "layout"})
        for meld in entry.get("layout", []):
            x = _row(layout, x, cy, meld, labels, palette, 22, "meld") + 14
        if not entry.get("layout"):
            _text(panel, x, cy + 34, "no melds", size=12, fill=palette["muted"], cls="count")
        history = []
        if entry.get("paid"):
            history.append("paid " + " ".join(entry["paid"]))
        if entry.get("gave"):
            history.append(f"gave {entry['gave']}")
        if history:
            _text(panel, width - 24, y + 22, ", ".join(history), size=11,
                  fill=palette["muted"], cls="gave", anchor="end")  # fmt: skip
        y += panel_h + 8
    # The centre, the stock and the dead cards.
    middle = ET.SubElement(root, "g", {"class": "middle"})
    _text(middle, 20, y + 18, "centre", size=11, fill=palette["muted"], cls="label")
    centre = position.get("centre")
    if centre:
        _card(middle, 20, y + 26, str(centre["card"]), labels, palette, "centre")
        kind = centre.get("kind", "turned")
        how = "turned up at the deal" if kind == "upcard" else kind
        words = [f"{how} by player {centre.get('source')}"]
        if centre.get("declined"):
            words.append(f"declined by {_seats(centre['declined'])}")
        if centre.get("forced") is not None:
            words.append(f"forced on player {centre['forced']}")
        for k, line in enumerate(words):
            _text(middle, 68, y + 42 + 16 * k, line, size=12, fill=palette["text"], cls="centre-note")
    else:
        _text(middle, 20, y + 56, "none: " + no_centre_text(position, over=over), size=12,
              fill=palette["text"], cls="centre-note")  # fmt: skip
    sx = 260.0
    _text(middle, sx, y + 18, "stock", size=11, fill=palette["muted"], cls="label")
    stock = position.get("stock", 0)
    stock_g = ET.SubElement(middle, "g", {"class": "stock"})
    if isinstance(stock, int):
        if stock:
            _back(stock_g, sx, y + 26, palette)
        _text(stock_g, sx + (CARD_W + 8 if stock else 0), y + 58, counted(stock, "card"), size=12,
              fill=palette["text"], cls="count")  # fmt: skip
        dx = sx + 140
    else:
        end = _row(stock_g, sx, y + 26, stock[:8], labels, palette, 14, "stock-order")
        more = f"+{len(stock) - 8}" if len(stock) > 8 else ""
        _text(stock_g, end + 6, y + 58, f"{more} top first".strip(), size=11,
              fill=palette["muted"], cls="count")  # fmt: skip
        dx = end + 90
    _text(middle, dx, y + 18, "dead", size=11, fill=palette["muted"], cls="label")
    dead = list(position.get("dead", []))
    if dead:
        _row(middle, dx, y + 26, dead, labels, palette, min(18, (width - dx - 60) / len(dead)), "dead")
    else:
        _text(middle, dx, y + 58, "none", size=12, fill=palette["muted"], cls="count")
    exchange = position.get("exchange")
    if exchange:
        chosen = ["-" if c is None else str(c) for c in exchange.get("chosen") or []]
        _text(middle, 20, y + bottom_h - 8, f"exchange (R9), chosen so far: {' '.join(chosen)}",
              size=12, fill=palette["text"], cls="exchange")  # fmt: skip
    return ET.tostring(root, encoding="unicode")


_MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}


def review_svg(
    review: Mapping[str, Any],
    *,
    players: int | None = None,
    plies: int | None = None,
    colors: Mapping[str, str] | None = None,
    width: int = 800,
    height: int = 360,
    title: str = "Conquian game review",
) -> str:
    """Each player's win chance over the game as an SVG line plot, blunders marked.

    Parameters
    ----------
    review : mapping
        ``review --json`` data: ``moves`` with ``ply``, ``player``,
        ``win_played`` (0..1) and ``label``; ``summary`` with one entry per
        player.
    players : int, optional
        Number of players; the length of ``summary`` when omitted.
    plies : int, optional
        Moves in the game (the x axis runs from 1 to it); the last reviewed
        ply when omitted.
    colors : mapping, optional
        Colours overriding :data:`DEFAULT_COLORS` key by key
        (``player0``..``player3``, ``blunder``, ``mistake``, ...).
    width, height : int
        Size in pixels.
    title : str

    Returns
    -------
    str
        The SVG document: one polyline per player (its win chance after each
        of his decisions, by ply), a red ring and ``??`` at each blunder,
        smaller marks at mistakes and inaccuracies.
    """
    palette = _colors(colors)
    moves = list(review.get("moves", []))
    count = players if players is not None else len(review.get("summary", [])) or 2
    left, right, top, bottom = 56, 24, 40, 48
    plot_w, plot_h = width - left - right, height - top - bottom
    last = max([int(m["ply"]) for m in moves] + [1, plies or 1])
    root = _root(width, height, title)
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%",
                                 "fill": palette["plot_background"], "class": "background"})  # fmt: skip
    _text(root, left, 24, title, size=15, fill=palette["axis"], cls="caption", weight="bold")

    def px(ply: float) -> float:
        return left + (ply - 1) / max(1, last - 1) * plot_w if last > 1 else left + plot_w / 2

    def py(win: float) -> float:
        return top + (1.0 - win) * plot_h

    grid = ET.SubElement(root, "g", {"class": "grid"})
    for k in range(5):
        value = k / 4
        ET.SubElement(grid, "line", {"x1": f"{left:g}", "x2": f"{left + plot_w:g}",
                                     "y1": f"{py(value):g}", "y2": f"{py(value):g}",
                                     "stroke": palette["grid"], "stroke-width": "1"})  # fmt: skip
        _text(grid, left - 8, py(value) + 4, f"{100 * value:.0f}%", size=11,
              fill=palette["axis"], cls="tick", anchor="end")  # fmt: skip
    axis = ET.SubElement(root, "g", {"class": "axis"})
    ET.SubElement(axis, "line", {"x1": f"{left:g}", "x2": f"{left + plot_w:g}",
                                 "y1": f"{top + plot_h:g}", "y2": f"{top + plot_h:g}",
                                 "stroke": palette["axis"]})  # fmt: skip
    ET.SubElement(axis, "line", {"x1": f"{left:g}", "x2": f"{left:g}", "y1": f"{top:g}",
                                 "y2": f"{top + plot_h:g}", "stroke": palette["axis"]})  # fmt: skip
    step = max(1, round(last / 10))
    for ply in range(1, last + 1, step):
        _text(axis, px(ply), top + plot_h + 16, str(ply), size=11, fill=palette["axis"],
              cls="tick", anchor="middle")  # fmt: skip
    _text(axis, left + plot_w / 2, height - 10, "move (ply)", size=12, fill=palette["axis"],
          cls="axis-label", anchor="middle")  # fmt: skip
    _text(axis, 14, top + plot_h / 2, "win chance", size=12, fill=palette["axis"],
          cls="axis-label", anchor="middle").set("transform", f"rotate(-90 14 {top + plot_h / 2:g})")
    # A view review (docs/review.md) is one player's: only his line and legend.
    seats = [review["view"]] if review.get("view") is not None else list(range(count))
    for slot, p in enumerate(seats):
        colour = palette.get(f"player{p}", palette["axis"])
        mine = sorted((m for m in moves if m.get("player") == p), key=lambda m: int(m["ply"]))
        g = ET.SubElement(root, "g", {"class": f"series player-{p}"})
        if mine:
            points = " ".join(f"{px(m['ply']):.1f},{py(float(m['win_played'])):.1f}" for m in mine)
            ET.SubElement(g, "polyline", {"points": points, "fill": "none", "stroke": colour,
                                          "stroke-width": "2"})  # fmt: skip
        for m in mine:
            x, y = px(m["ply"]), py(float(m["win_played"]))
            label = str(m.get("label", ""))
            dot = ET.SubElement(g, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": "3",
                                              "fill": colour, "class": f"move {label}"})  # fmt: skip
            ET.SubElement(dot, "title").text = (
                f"ply {m['ply']}, player {p}: {m.get('move', '')} ({label})"
            )
            if label in _MARKS:
                ring = palette[label]
                ET.SubElement(g, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}",
                                            "r": "8" if label == "blunder" else "6",
                                            "fill": "none", "stroke": ring, "stroke-width": "2.5",
                                            "class": label})  # fmt: skip
                _text(g, x, y - 12, _MARKS[label], size=12 if label == "blunder" else 10,
                      fill=ring, cls=f"mark {label}", anchor="middle", weight="bold")  # fmt: skip
        lx = left + 10 + slot * 110
        ET.SubElement(root, "line", {"x1": f"{lx:g}", "x2": f"{lx + 18:g}", "y1": f"{top + 10:g}",
                                     "y2": f"{top + 10:g}", "stroke": colour, "stroke-width": "3",
                                     "class": f"legend player-{p}"})  # fmt: skip
        _text(root, lx + 24, top + 14, f"player {p}", size=12, fill=palette["axis"],
              cls=f"legend player-{p}")  # fmt: skip
    if not moves:
        _text(root, left + plot_w / 2, top + plot_h / 2, "no decisions to review", size=14,
              fill=palette["axis"], cls="empty", anchor="middle")  # fmt: skip
    return ET.tostring(root, encoding="unicode")
