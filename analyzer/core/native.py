"""Which core runs the rules and the searches, and the plain data that crosses to the native one.

The native core (``native/``, Rust bound with PyO3 as ``analyzer._native``) answers as the Python
engine does, faster; the Python engine stays the reference and the fallback.  The core in use is

* the one named by the environment variable ``CONQUIAN_CORE`` (``native`` or ``python``), or
* ``native`` when the module was built at install time (cargo present), else ``python``.

:func:`use_core` switches it for a block (the tests run every rules and search test on both).
States cross as plain tuples (:func:`pack_state`, :func:`unpack_state`), moves as
``(code, values, pay)`` (:func:`pack_move`, :func:`unpack_move`); positions are validated in
Python before they cross.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from types import ModuleType
from typing import Any, Literal, TypeVar

from analyzer.core.errors import ConquianError
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.offers import Offer, Phase
from analyzer.core.rules import Exchange, ForceFit, ForceWhen, Rearrange, Rules, StockOut

__all__ = [
    "CORES",
    "CORE_ENV",
    "CoreUnavailableError",
    "core_description",
    "core_in_use",
    "native_available",
    "native_module",
    "pack_move",
    "pack_rules",
    "pack_state",
    "unpack_move",
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


# ------------------------------------------------------------------------------- plain data
_PHASES = (Phase.EXCHANGE, Phase.TURN, Phase.OFFER, Phase.FORCED, Phase.OVER)
_PHASE_CODE = {p: k for k, p in enumerate(_PHASES)}
_KINDS = ("turned", "paid", "upcard")  # the centre card's kind, as the native Offer's code
_KIND_CODE = {k: code for code, k in enumerate(_KINDS)}


@lru_cache(maxsize=64)
def pack_rules(rules: Rules) -> int:
    """The fields of ``rules`` the native core reads (every mechanic's field, not the name), as
    one whole number: players (bits 0-2), hand size (3-7), longest run (8-11), then one bit each
    for the exchange, ``force_fit = rearrange``, ``force_when = any_offer``, hand-only melds and
    ``on_stock_out = fewest_in_hand``, ``rearrange = borrow``, the upcard and ``discard_force``
    (``native/src/pydata.rs``)."""
    flags = (
        rules.exchange is Exchange.PASS_ONE,
        rules.force_fit is ForceFit.REARRANGE,
        rules.force_when is ForceWhen.ANY_OFFER,
        rules.hand_melds,
        rules.on_stock_out is StockOut.FEWEST_IN_HAND,
        rules.rearrange is Rearrange.BORROW,
        rules.upcard,
        rules.discard_force,
    )
    code = rules.players | rules.hand_size << 3 | rules.max_run << 8
    for k, flag in enumerate(flags):
        code |= int(flag) << (12 + k)
    return code


def pack_state(state: Any) -> tuple[Any, ...]:
    """A :class:`~analyzer.core.state.GameState` as the plain tuple the native core reads."""
    c = state.centre
    centre = None if c is None else (c.card, _KIND_CODE[c.kind], c.source, c.declined, c.forced)
    return (
        (state.dealer, state.to_act, _PHASE_CODE[state.phase], state.winner, state.stock_count),
        state.hands,
        state.counts,
        state.layouts,
        state.stock,
        state.dead,
        centre,
        (state.gifts or None, state.gave or None, state.paid or None),
    )


def unpack_state(rules: Rules, data: tuple[Any, ...], cls: Callable[..., _S]) -> _S:
    """The state of the native core's plain tuple, built by ``cls`` (``GameState``, which this
    module cannot import: it imports this one)."""
    (dealer, to_act, phase, winner, stock_count), hands, counts, layouts, stock, dead, centre, (
        gifts,
        gave,
        paid,
    ) = data
    offer = None
    if centre is not None:
        card, kind, source, declined, forced = centre
        offer = Offer(card, _KINDS[kind], source, tuple(declined), forced)
    return cls(
        rules,
        dealer,
        tuple(hands),
        tuple(counts),
        tuple(tuple(m) for m in layouts),
        None if stock is None else tuple(stock),
        stock_count,
        tuple(dead),
        offer,
        to_act,
        _PHASES[phase],
        winner,
        () if gifts is None else tuple(gifts),
        () if gave is None else tuple(gave),
        () if paid is None else tuple(tuple(p) for p in paid),
    )


def pack_move(move: Move) -> tuple[int, tuple[int, ...], int | None]:
    """A move as ``(code, values, pay)`` (see ``native/src/pydata.rs``)."""
    if isinstance(move, Pass):
        return (0, (), None)
    if isinstance(move, Take):
        return (1, move.layout, move.pay)
    if isinstance(move, LayIn):
        return (2, move.layout, move.pay)
    if isinstance(move, Force):
        return (3, (move.player,), None)
    if isinstance(move, Meld):
        return (4, (move.meld,), None)
    if isinstance(move, Give):
        return (5, (move.card,), None)
    if isinstance(move, Turn):
        return (6, (move.card,), None)
    raise ConquianError(f"not a move: {move!r}")


_PASS = Pass()


def unpack_move(data: tuple[int, Any, int | None]) -> Move:
    """The move of ``(code, values, pay)``."""
    code, values, pay = data
    if code == 0:
        return _PASS
    if code == 1:
        return Take(tuple(values), pay)
    if code == 2:
        return LayIn(tuple(values), pay)
    (value,) = values
    if code == 3:
        return Force(value)
    if code == 4:
        return Meld(value)
    if code == 5:
        return Give(value)
    return Turn(value)


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
    return [unpack_move(m) for m in found]


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
    data, steps = found
    return unpack_state(rules, data, type(state)), steps


def max_melded(cards: int, rules: Rules, must: int) -> int:
    """``analyzer.core.melds.max_melded`` by the native core (``must`` inside ``cards``)."""
    return int(native_module().max_melded(pack_rules(rules), cards, must))
