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
