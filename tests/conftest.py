"""Shared helpers for the tests."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "positions"

if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import settings  # noqa: E402

# No per-example deadline: speed is measured in bench/, never in tests, and a loaded machine
# (CI, a benchmark on the other core) must not turn a slow example into a failure.
settings.register_profile("conquian", deadline=None)
settings.load_profile("conquian")


def late_position(variant, seed, stock_left, pick):  # type: ignore[no-untyped-def]
    """A seeded deal, every card known, played with ``pick(state, moves, rng)`` until the stock is
    down to ``stock_left``, at an offer with a choice (None if the deal ends first)."""
    import random

    from analyzer.core.dealing import deal
    from analyzer.core.state import Phase

    rng = random.Random(seed)
    state = deal(variant, rng)
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        moves = state.legal_moves()
        if state.stock_count <= stock_left and len(moves) > 1 and state.phase is Phase.OFFER:
            return state
        state = state.apply(pick(state, moves, rng))
    return None


import pytest  # noqa: E402

from analyzer.core import native  # noqa: E402


@pytest.fixture(scope="module", params=["python", "native"])
def both_cores(request):  # type: ignore[no-untyped-def]
    """Run a module's tests on each core (``pytestmark = pytest.mark.usefixtures("both_cores")``):
    the Python engine, the reference, and the native core, which must answer the same."""
    if request.param == "native" and not native.native_available():
        pytest.skip("the native core is not built (install with cargo on the PATH; .ci/run builds it)")
    with native.use_core(request.param):
        yield request.param
