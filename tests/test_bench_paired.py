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


def test_a_continued_run_is_compared_on_the_deals_both_played(tmp_path: Path) -> None:
    # strength.py --first 2 continues a run at deal 2: its winners are deals 2, 3, 4.
    new = _run(tmp_path / "new.json", "hint", ["greedy", "hint", "hint"])
    data = json.loads(new.read_text(encoding="utf-8"))
    data[0]["first"] = 2
    new.write_text(json.dumps(data), encoding="utf-8")
    old = _run(tmp_path / "old.json", "hint-v2", ["hint-v2", "hint-v2", "hint-v2", "greedy"])
    out = _paired(new, old)
    assert out.returncode == 0, out.stderr
    # Deals 2 and 3: new -1 +1, old +1 -1.
    assert "2 deals" in out.stdout and "new: won 1, drew 0, lost 1 of 2" in out.stdout
    assert "+0.000" in out.stdout and "2 of 2 deals ended differently" in out.stdout
