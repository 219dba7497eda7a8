"""Which core runs the rules and the searches, and the plain data that crosses to the native one.

The native core (``native/``, Rust bound with PyO3 as ``analyzer._native``) answers as the Python
engine does, faster; the Python engine stays the reference and the fallback.  The core in use is

* the one named by the environment variable ``CONQUIAN_CORE`` (``native`` or ``python``), or
* ``native`` when the module was built at install time (cargo present), else ``python``.

:func:`use_core` switches it for a block (the tests run every rules and search test on both).

Everything crosses with named fields, read by name on both sides (``native/src/pydata.rs``), so
that a field added, renamed or dropped on one side is an error naming it, never a value misread:
the rules as a ``NativeRules`` made once per :class:`~analyzer.core.rules.Rules` from its named
attributes (:func:`pack_rules`); a state as itself, read by its field names, and back as a dict
with the same keys (:class:`StateData`, :class:`OfferData`); a move as a dict with the keys of
:class:`MoveData`.  :func:`pack_state`, :func:`unpack_state`, :func:`pack_move` and
:func:`unpack_move` are the one adapter.  Positions are validated in Python before they cross.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from types import ModuleType
from typing import Any, Literal, TypedDict, TypeVar

from analyzer.core.errors import ConquianError
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.offers import Offer, Phase
from analyzer.core.rules import Rules

__all__ = [
    "CORES",
    "CORE_ENV",
    "CoreUnavailableError",
    "MoveData",
    "MovesData",
    "OfferData",
    "PlayoutData",
    "PlayoutOptions",
    "SampleData",
    "SampleOptions",
    "StateData",
    "core_description",
    "core_in_use",
    "native_available",
    "native_module",
    "pack_move",
    "pack_rules",
    "pack_state",
    "unpack_move",
    "unpack_moves",
    "unpack_state",
    "use_core",
]

Core = Literal["native", "python"]
CORES: tuple[Core, ...] = ("native", "python")
_S = TypeVar("_S")
CORE_ENV = "CONQUIAN_CORE"
"""The environment variable that chooses the core: ``native`` or ``python``."""


class CoreUnavailableError(ConquianError):
    """The native core was asked for (``CONQUIAN_CORE=native``) but is not built."""


_module: ModuleType | None
try:  # the module is absent where the install had no cargo, or its build failed
    # By name: an import of the package itself would put a circle in the import graph.
    _module = importlib.import_module("analyzer._native")
except ImportError:  # pragma: no cover - depends on the install
    _module = None

_NOT_BUILT = (
    "the native core is not built (CONQUIAN_CORE=native): reinstall with cargo on the PATH "
    "(pip install -e .), or set CONQUIAN_CORE=python"
)


def _from_environment() -> tuple[Core, str | None]:
    """The core the environment asks for, and the error to raise if it cannot be had."""
    asked = os.environ.get(CORE_ENV, "").strip().lower()
    if asked == "native":
        return ("native", None) if _module is not None else ("python", _NOT_BUILT)
    if asked == "python":
        return "python", None
    if asked:
        return "python", f"{CORE_ENV}={os.environ[CORE_ENV]!r} names no core (native or python)"
    return ("native" if _module is not None else "python"), None


_selected, _problem = _from_environment()

ACTIVE: bool = _selected == "native" and _problem is None
"""True while the native core runs the rules and searches (read by the hot paths)."""


def native_available() -> bool:
    """True when the native module was built and imports."""
    return _module is not None


def native_module() -> ModuleType:
    """The native module.

    Raises
    ------
    CoreUnavailableError
        If it was not built.
    """
    if _module is None:
        raise CoreUnavailableError(_NOT_BUILT)
    return _module


def core_in_use() -> Core:
    """The core that runs the rules and searches now (module docstring).

    Raises
    ------
    CoreUnavailableError
        If ``CONQUIAN_CORE`` names the native core and it is not built, or names no core.
    """
    if _problem is not None:
        raise CoreUnavailableError(_problem)
    return "native" if ACTIVE else "python"


def core_description() -> str:
    """One line for ``--version``: the core in use and why."""
    try:
        core = core_in_use()
    except CoreUnavailableError as exc:
        return f"core: unavailable ({exc})"
    if core == "native":
        return f"core: native (Rust, analyzer._native {native_module().__version__})"
    if _module is None:
        return "core: python (the native core is not built: install with cargo on the PATH for faster searches)"
    return f"core: python (chosen by {CORE_ENV}; the native core is built)"


@contextmanager
def use_core(core: Core) -> Iterator[None]:
    """Run the block with ``core``, whatever the environment says.

    Raises
    ------
    CoreUnavailableError
        If ``core`` is ``native`` and it is not built.
    ConquianError
        If ``core`` names no core.
    """
    global ACTIVE, _problem
    if core not in CORES:
        raise ConquianError(f"no core {core!r} (native or python)")
    if core == "native":
        native_module()
    before = ACTIVE, _problem
    ACTIVE, _problem = core == "native", None
    try:
        yield
    finally:
        ACTIVE, _problem = before


# ------------------------------------------------------------------------------- named data
_PHASE_OF = {p.value: p for p in Phase}


class OfferData(TypedDict):
    """The centre card as the native core writes it (``OfferData`` in ``native/src/pydata.rs``):
    the fields of :class:`~analyzer.core.offers.Offer`."""

    card: int
    kind: str
    source: int
    declined: Sequence[int]
    forced: int | None


class StateData(TypedDict):
    """A position as the native core writes it (``StateData`` in ``native/src/pydata.rs``): the
    fields of :class:`~analyzer.core.state.GameState` but the rules, by their names (``phase``
    the :class:`~analyzer.core.offers.Phase` value)."""

    dealer: int
    to_act: int
    phase: str
    winner: int | None
    stock_count: int
    hands: Sequence[int | None]
    counts: Sequence[int]
    layouts: Sequence[Sequence[int]]
    stock: Sequence[int] | None
    dead: Sequence[int]
    centre: OfferData | None
    gifts: Sequence[int | None]
    gave: Sequence[int | None]
    paid: Sequence[Sequence[int]]


class MovesData(TypedDict):
    """A move list as the native core writes it (``MovesData`` in ``native/src/pydata.rs``):
    each move's ``kind``, ``values`` and ``pay`` (as in :class:`MoveData`), in three lists."""

    kinds: Sequence[int]
    values: Sequence[Sequence[int]]
    pays: Sequence[int | None]


class MoveData(TypedDict):
    """A move as it crosses (``MoveData`` in ``native/src/pydata.rs``): ``kind`` 0 pass, 1 take,
    2 lay-in, 3 force, 4 meld, 5 give, 6 turn; ``values`` the layout's melds or the one player,
    meld or card; ``pay`` the card paid."""

    kind: int
    values: Sequence[int]
    pay: int | None


@lru_cache(maxsize=64)
def pack_rules(rules: Rules) -> Any:
    """The native core's ``NativeRules`` of ``rules``, made once per rules: it reads the named
    fields of every mechanic (``players``, ``hand_size``, ``max_run``, ``exchange``,
    ``rearrange``, ``force_fit``, ``force_when``, ``hand_melds``, ``on_stock_out``, ``upcard``,
    ``discard_force``; not the name or labels) from ``rules``.

    Raises
    ------
    ValueError
        If a field holds a value the native core does not know (named in the message).
    """
    return native_module().NativeRules(rules)


def pack_state(state: _S) -> _S:
    """A :class:`~analyzer.core.state.GameState` as the native core reads it: the state itself,
    whose fields (and its centre card's) the core reads by name (``StateData`` and
    ``OfferData`` in ``native/src/pydata.rs``), with no copy made per call.  A field the core
    reads and the state lacks is an ``AttributeError`` naming it."""
    return state


def unpack_state(rules: Rules, data: StateData, cls: Callable[..., _S]) -> _S:
    """The state of the native core's :class:`StateData`, built by ``cls`` (``GameState``, which
    this module cannot import: it imports this one)."""
    offer = None
    c = data["centre"]
    if c is not None:
        offer = Offer(c["card"], c["kind"], c["source"], tuple(c["declined"]), c["forced"])
    stock = data["stock"]
    return cls(
        rules,
        data["dealer"],
        tuple(data["hands"]),
        tuple(data["counts"]),
        tuple(tuple(m) for m in data["layouts"]),
        None if stock is None else tuple(stock),
        data["stock_count"],
        tuple(data["dead"]),
        offer,
        data["to_act"],
        _PHASE_OF[data["phase"]],
        data["winner"],
        tuple(data["gifts"]),
        tuple(data["gave"]),
        tuple(tuple(p) for p in data["paid"]),
    )


_PASS_DATA: MoveData = {"kind": 0, "values": (), "pay": None}


def pack_move(move: Move) -> MoveData:
    """A move as the native core reads it (:class:`MoveData`)."""
    if isinstance(move, Pass):
        return _PASS_DATA
    if isinstance(move, Take):
        return {"kind": 1, "values": move.layout, "pay": move.pay}
    if isinstance(move, LayIn):
        return {"kind": 2, "values": move.layout, "pay": move.pay}
    if isinstance(move, Force):
        return {"kind": 3, "values": (move.player,), "pay": None}
    if isinstance(move, Meld):
        return {"kind": 4, "values": (move.meld,), "pay": None}
    if isinstance(move, Give):
        return {"kind": 5, "values": (move.card,), "pay": None}
    if isinstance(move, Turn):
        return {"kind": 6, "values": (move.card,), "pay": None}
    raise ConquianError(f"not a move: {move!r}")


_PASS = Pass()


def unpack_move(data: MoveData) -> Move:
    """The move of the native core's :class:`MoveData`."""
    return _move(data["kind"], data["values"], data["pay"])


def unpack_moves(data: MovesData) -> list[Move]:
    """The moves of the native core's :class:`MovesData`, in order."""
    return list(map(_move, data["kinds"], data["values"], data["pays"]))


def _move(kind: int, values: Sequence[int], pay: int | None) -> Move:
    """The move of ``kind`` with ``values`` and ``pay`` (:class:`MoveData`)."""
    if kind == 0:
        return _PASS
    if kind == 1:
        return Take(tuple(values), pay)
    if kind == 2:
        return LayIn(tuple(values), pay)
    (value,) = values
    if kind == 3:
        return Force(value)
    if kind == 4:
        return Meld(value)
    if kind == 5:
        return Give(value)
    return Turn(value)


class SampleOptions(TypedDict):
    """The options of the native ``sample`` (``sample_deal``, or ``sample_world`` with
    ``world``): the sampling player, the generator state, hand reading, per-seat card weights
    (``None`` for a seat drawn uniformly) and, for a world, whether the known stock order is kept."""

    player: int
    rng: Sequence[int]
    infer: bool
    weights: Sequence[Sequence[float] | None] | None
    world: bool
    ordered: bool


class SampleData(TypedDict):
    """A sampled deal and the generator's state after it."""

    state: StateData
    rng: Sequence[int]


class PlayoutOptions(TypedDict):
    """The options of the native ``playout``: the eager policy (else random), the generator
    state, the quiet limit (-1: none) and the number of playouts."""

    eager: bool
    rng: Sequence[int]
    quiet: int
    count: int


class PlayoutData(TypedDict):
    """The outcomes of native playouts, the generator's state and the moves played in all."""

    outcomes: Sequence[Sequence[float]]
    rng: Sequence[int]
    plies: int


# ------------------------------------------------------------------ random generators
def rng_state(rng: Any) -> tuple[int, ...]:
    """A ``random.Random``'s Mersenne Twister words and position (``getstate()[1]``), the form
    in which the native core continues its stream."""
    words: tuple[int, ...] = rng.getstate()[1]
    return words


def set_rng_state(rng: Any, words: Any) -> None:
    """Set ``rng`` to the words and position a native search left (its Gaussian cache kept)."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(words), gauss))


# ------------------------------------------------------------------- the rules, natively
def legal_moves(state: Any) -> list[Move] | None:
    """``GameState.legal_moves`` by the native core; ``None`` where a hand the moves need is
    hidden or the stock cards are unknown (the Python engine then raises its own error)."""
    try:
        found = native_module().legal_moves(pack_rules(state.rules), pack_state(state))
    except ValueError:
        return None
    return unpack_moves(found)


def apply(state: _S, move: Move) -> _S:
    """``GameState._apply`` (a legal move) by the native core."""
    rules: Rules = state.rules  # type: ignore[attr-defined]
    data = native_module().apply(pack_rules(rules), pack_state(state), pack_move(move))
    return unpack_state(rules, data, type(state))


def run_forced(state: _S, limit: int, turns: bool) -> tuple[_S, int]:
    """``GameState.run_forced`` by the native core."""
    rules: Rules = state.rules  # type: ignore[attr-defined]
    found = native_module().run_forced(pack_rules(rules), pack_state(state), limit, turns)
    if found is None:
        return state, 0
    return unpack_state(rules, found["state"], type(state)), found["steps"]


def max_melded(cards: int, rules: Rules, must: int) -> int:
    """``analyzer.core.melds.max_melded`` by the native core (``must`` inside ``cards``)."""
    return int(native_module().max_melded(pack_rules(rules), cards, must))
