"""conquian: rules engine, CP-SAT meld solver and analysis tools for Conquian.

Layers (data flows one way): :mod:`analyzer.cards` and :mod:`analyzer.rules`
-> :mod:`analyzer.melds` -> :mod:`analyzer.partition` (CP-SAT) ->
:mod:`analyzer.moves` and :mod:`analyzer.state` -> :mod:`analyzer.position`
-> :mod:`analyzer.hints`.
"""

from analyzer.cards import Card, CardSet, Labels
from analyzer.errors import (
    CardError,
    ConquianError,
    DuplicateCardError,
    IllegalMoveError,
    PositionError,
    UnknownVariantError,
)
from analyzer.moves import parse_move
from analyzer.notation import NotationError, format_notation, parse_notation
from analyzer.position import deal, dump_position, load_position, read_position, relabel, view
from analyzer.rules import CLASSIC, MEGAJOGOS, PRESETS, Rules, get_rules
from analyzer.state import GameState, Phase

__all__ = [
    "CLASSIC",
    "MEGAJOGOS",
    "PRESETS",
    "Card",
    "CardError",
    "CardSet",
    "ConquianError",
    "DuplicateCardError",
    "GameState",
    "IllegalMoveError",
    "Labels",
    "NotationError",
    "Phase",
    "PositionError",
    "Rules",
    "UnknownVariantError",
    "deal",
    "dump_position",
    "format_notation",
    "get_rules",
    "load_position",
    "parse_move",
    "parse_notation",
    "read_position",
    "relabel",
    "view",
]

__version__ = "0.1.0"
