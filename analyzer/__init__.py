"""conquian: rules engine, CP-SAT meld solver and analysis tools for Conquian.

The library is layered; each layer imports only the layers below it, never
one above, not even inside a function (``lint-imports`` checks it in CI;
docs/architecture.md draws it):

1. :mod:`analyzer.core`: cards, rules and presets, melds, moves, the immutable
   :class:`GameState`, dealing and views, the rule checks of a position.
2. :mod:`analyzer.solver`: the CP-SAT models (arrangements, take / pay choices, why).
3. :mod:`analyzer.formats`: JSON shapes and hardened reading, positions, notation,
   game records, meld query files.
4. :mod:`analyzer.search`: exact search, lookahead, playouts, IS-MCTS, sampling and
   hand inference, the fitted evaluation, all-moves values, the networkx tree.
5. :mod:`analyzer.analysis`: static hints, the advisor (ranked moves with reasons),
   review, puzzles.
6. :mod:`analyzer.bots`: the bot protocol and registry, the bots, simulate.
7. :mod:`analyzer.interop`: OpenSpiel, PettingZoo and Ray bridges, each with its extra.

The front ends (``cli``, ``web``) sit above all of them.  The names below are the
stable API; the module paths of 0.1 (``analyzer.position``, ...) still import, with a
:class:`DeprecationWarning` (:mod:`analyzer._compat`).
"""

from analyzer import _compat
from analyzer.core.cards import Card, CardSet, Labels
from analyzer.core.dealing import deal, view
from analyzer.core.errors import (
    CardError,
    ConquianError,
    DuplicateCardError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    UnknownVariantError,
)
from analyzer.core.moves import parse_move
from analyzer.core.plain import dump_position, relabel
from analyzer.core.rules import CLASSIC, MEGAJOGOS, PRESETS, Rules, get_rules
from analyzer.core.state import GameState, Phase
from analyzer.formats.notation import NotationError, format_notation, parse_notation
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position

_compat.install()

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
    "InvalidMoveError",
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
