"""bench/equilibrium.py: the LP against the native CFR+ on the same endgames."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.core import native

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "equilibrium.py"


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, cwd=ROOT)


def test_prints_each_endgame_with_both_times_and_how_late_each_solves(tmp_path: Path) -> None:
    if not native.native_available():
        pytest.skip("the native core is not built")
    out = _bench("--games", "5", "--variants", "classic", "--stock", "5", "--limit", "1",
                 "--lp-max", "20000", "--cap", "300000", "--json", str(tmp_path / "rows.json"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("core: native") and lines[1].split()[:3] == ["preset", "seed", "stock"]
    rows = json.loads((tmp_path / "rows.json").read_text())["rows"]
    assert rows and all(r["variant"] == "classic" and r["stock"] <= 5 for r in rows)
    assert len(lines[2 : lines.index("")]) == len(rows)
    for r in rows:  # the LP only up to --lp-max, CFR+ to its tolerance
        assert r["lp"] is None or r["nodes"] <= 20_000
        assert r["cfr"] is None or r["exploitability"] <= 1e-4
    first = {r["seed"]: r for r in reversed(rows)}.values()  # each deal's latest: both methods ran
    assert all(r["lp"] is not None and r["cfr"] is not None for r in first if r["nodes"] <= 20_000)
    summary = lines[lines.index("") + 1 :]
    assert "median ratio" in summary[0] and summary[1].split()[0] == "classic"
    assert [x.split()[:2] for x in summary[2:6]] == [["LP", "1"], ["LP", "1"], ["CFR+", "1"], ["CFR+", "1"]]


def test_bad_arguments_are_refused() -> None:
    out = _bench("--variants", "clasic")
    assert out.returncode == 2 and "unknown preset 'clasic'" in out.stderr and "Traceback" not in out.stderr
    out = _bench("--games", "0")
    assert out.returncode == 2 and "at least 1" in out.stderr


def test_the_symmetry_bench_counts_the_suit_permutations_that_fix_the_public_state() -> None:
    """At the first offer of a deal only the centre card is public: the 6 permutations that keep
    its suit fix it; later, with layouts, only the identity (bench/endgame_symmetry.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import itertools

    from endgame_symmetry import fixes
    from equilibrium import turns, two_players

    from analyzer.bots.simulate import game_seed

    views = turns(two_players("classic"), game_seed(0, 1))
    first, late = views[-1], views[0]
    perms = list(itertools.permutations(range(4)))
    assert not any(first.layouts) and not first.dead
    assert sum(fixes(first, p) for p in perms) == 6
    assert fixes(late, (0, 1, 2, 3)) and sum(fixes(late, p) for p in perms) == 1
