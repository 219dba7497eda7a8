"""bench/pool.py: strength runs played in parts (seeds, continued runs) pooled into one figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "pool.py"
SEATS = ["hint", "hint-v2", "greedy"]


def _part(path: Path, winners: list[str | None], seed: int, first: int = 0, match: str = "megajogos-hint-old") -> Path:
    data = [{"match": match, "variant": "megajogos", "seed": seed, "first": first,
             "seats": SEATS, "winners": winners}]  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _pool(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *map(str, files)], capture_output=True, text=True)


def test_parts_add_up(tmp_path: Path) -> None:
    a = _part(tmp_path / "a.json", ["hint", "hint-v2", None], seed=2)
    b = _part(tmp_path / "b.json", ["hint", "greedy"], seed=2, first=3)  # continued at deal 3
    c = _part(tmp_path / "c.json", ["hint", "hint", "hint-v2"], seed=3)
    out = _pool(a, b, c)
    assert out.returncode == 0, out.stderr
    assert "8 deals (5 of seed 2, 3 of seed 3)" in out.stdout
    assert "hint                         wins 4/8 = 50.0%" in out.stdout
    assert "hint-v2                      wins 2/8 = 25.0%" in out.stdout
    assert "greedy                       wins 1/8" in out.stdout and "draws 1 (12.5%)" in out.stdout
    assert "hint took 4 of the 6 deals that hint or hint-v2 won: 66.7%" in out.stdout
    assert "note" not in out.stderr  # no deal left out


def test_a_gap_between_parts_is_pointed_out(tmp_path: Path) -> None:
    a = _part(tmp_path / "a.json", ["hint", "hint-v2"], seed=2)  # deals 0-1
    b = _part(tmp_path / "b.json", ["greedy"], seed=2, first=5)  # deal 5: 2-4 never played
    c = _part(tmp_path / "c.json", ["hint"], seed=3, first=2)  # deals 0-1 of seed 3 absent
    out = _pool(a, b, c)
    assert out.returncode == 0, out.stderr
    assert "seed 2 has no deals 2-4" in out.stderr and "seed 3 has no deals 0-1" in out.stderr
    assert "4 deals (3 of seed 2, 1 of seed 3)" in out.stdout


def test_a_deal_counted_twice_or_another_match_is_refused(tmp_path: Path) -> None:
    a = _part(tmp_path / "a.json", ["hint", "hint-v2"], seed=2)
    b = _part(tmp_path / "b.json", ["greedy"], seed=2, first=1)
    out = _pool(a, b)
    assert out.returncode == 1 and "repeats deals of seed 2" in out.stderr
    c = _part(tmp_path / "c.json", ["greedy"], seed=4, match="megajogos-hint-greedy")
    out = _pool(a, c)
    assert out.returncode == 1 and "another match" in out.stderr


def test_unreadable_or_misshapen_files_are_named_not_tracebacks(tmp_path: Path) -> None:
    # Each is named, in paired.py and pool.py alike, not a traceback.
    cases = {"missing.json": None, "text.json": "not json", "object.json": '{"a": 1}',
             "empty-entry.json": "[{}]", "none.json": "[]"}  # fmt: skip
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        for script in (BENCH, BENCH.with_name("paired.py")):
            out = subprocess.run([sys.executable, str(script), str(path), str(path)], capture_output=True, text=True)
            # A file that cannot be read is a usage error (2, as the conquian commands); one
            # that is read but is no strength.py result is a domain error (1).
            expected = 2 if text is None else 1
            assert out.returncode == expected and "Traceback" not in out.stderr and name in out.stderr


def test_hand_edited_fields_are_refused_by_name(tmp_path: Path) -> None:
    # No traceback ("first": "x", "seed": null) and no silent nonsense (a negative or
    # fractional first deal, a deal count that disagrees, a winner who is no seat).
    good = {"match": "megajogos-hint-old", "variant": "megajogos", "seed": 0, "first": 0,
            "seats": SEATS, "deals": 2, "winners": ["hint", None]}  # fmt: skip
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps([good]), encoding="utf-8")
    cases = [({"first": "x"}, "'first' must be a whole number"), ({"seed": None}, "'seed' must be"),
             ({"first": -5}, "not -5"), ({"first": 1.5}, "not 1.5"), ({"deals": "3"}, "'deals' must be a whole number"),
             ({"deals": 5}, "'deals' is 5 but 'winners' lists 2"),
             ({"winners": ["martian", None]}, "winner \"martian\" is none of the seats"),
             ({"seats": "hint"}, "'seats' must be a list")]  # fmt: skip
    for change, named in cases:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps([{**good, **change}]), encoding="utf-8")
        for script in (BENCH, BENCH.with_name("paired.py")):
            out = subprocess.run([sys.executable, str(script), str(path), str(ok)], capture_output=True, text=True)
            assert out.returncode == 1 and named in out.stderr and "Traceback" not in out.stderr, (change, script)


def test_a_run_stopped_before_its_first_deal_is_skipped(tmp_path: Path) -> None:
    # strength.py writes such a file when Ctrl-C comes before the first deal ends.
    empty = _part(tmp_path / "empty.json", [], seed=2)
    out = _pool(empty)
    assert out.returncode == 1 and "no deals to pool" in out.stderr and "Traceback" not in out.stderr
    a = _part(tmp_path / "a.json", ["hint", None], seed=2)
    out = _pool(empty, a)
    assert out.returncode == 0 and "holds no deals" in out.stderr and "2 deals (2 of seed 2)" in out.stdout
