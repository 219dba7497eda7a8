"""bench/paired.py: two strength runs compared deal by deal (the new-against-old figures)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "paired.py"


def _run(path: Path, bot: str, winners: list[str | None], seed: int = 0) -> Path:
    data = [{"match": "megajogos-hint-greedy", "variant": "megajogos", "seed": seed,
             "seats": [bot, "greedy", "greedy"], "winners": winners}]  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _paired(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *map(str, files)], capture_output=True, text=True)


def test_the_paired_difference_counts_each_deal_once(tmp_path: Path) -> None:
    new = _run(tmp_path / "new.json", "hint", ["hint", "hint", None, "greedy", "hint"])
    old = _run(tmp_path / "old.json", "hint-v2", ["hint-v2", "greedy", "greedy", "greedy"])
    out = _paired(new, old)
    assert out.returncode == 0, out.stderr
    # The first 4 deals: new +1 +1 0 -1, old +1 -1 -1 -1: differences 0 2 1 0, mean 0.75.
    assert "4 deals" in out.stdout
    assert "new: won 2, drew 1, lost 1 of 4" in out.stdout
    assert "old: won 1, drew 0, lost 3 of 4" in out.stdout
    assert "per deal (win +1, draw 0, loss -1): +0.750" in out.stdout
    assert "2 of 4 deals ended differently" in out.stdout


def test_runs_of_different_deals_are_refused(tmp_path: Path) -> None:
    new = _run(tmp_path / "new.json", "hint", ["hint"], seed=0)
    old = _run(tmp_path / "old.json", "hint-v2", ["greedy"], seed=1)
    out = _paired(new, old)
    assert out.returncode == 1 and "differ in seed" in out.stderr
    assert _paired(new).returncode == 2
