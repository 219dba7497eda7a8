"""bench/regret.py: a bot's decisions scored by the best reply to greedy (analyzer.bots.reply)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "regret.py"


def _regret(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True)


def test_the_best_reply_bot_gives_nothing_away_and_greedy_does(tmp_path: Path) -> None:
    best = tmp_path / "best.json"
    out = _regret("--bot", "oracle-greedy", "--games", "4", "--json", str(best))
    assert out.returncode == 0, out.stderr
    data = json.loads(best.read_text(encoding="utf-8"))
    assert data["unproven"] == 0 and data["decisions"] > 0
    assert data["giving_away"] == 0 and data["points"] == 0
    assert all(r["value"] == r["best"] and r["played"] in r["best_moves"] for r in data["records"])
    assert "0 gave away a result the best reply kept" in out.stdout
    # Greedy on the same deals and seats does give results away (the best reply wins more).
    greedy = tmp_path / "greedy.json"
    out = _regret("--bot", "greedy", "--games", "12", "--json", str(greedy))
    assert out.returncode == 0, out.stderr
    data = json.loads(greedy.read_text(encoding="utf-8"))
    given = [r for r in data["records"] if r["category"] is not None]
    assert given and data["giving_away"] == len(given)
    assert data["points"] == sum(r["best"] - r["value"] for r in given) > 0
    assert all(r["value"] < r["best"] and r["played"] not in r["best_moves"] for r in given)
    assert sum(c["points"] for c in data["by_category"].values()) == data["points"]
    assert data["won"] + data["lost"] + data["drawn"] == 12


def test_categories_name_what_went_wrong() -> None:
    sys.path.insert(0, str(BENCH.parent))
    try:
        import regret
    finally:
        sys.path.remove(str(BENCH.parent))
    from analyzer.core.moves import parse_move

    played = parse_move("take [AH AD AC] pay 3H")
    assert regret.category(played, [parse_move("take [AH AD AC] pay JH")]) == "pay card"
    assert regret.category(played, [parse_move("take [AH AS AC] pay 3H")]) == "which take"
    assert regret.category(played, [parse_move("pass")]) == "take instead of pass"
    assert regret.category(parse_move("pass"), [played, parse_move("force 1")]) == "pass instead of force/take"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--games", "0"], "argument --games: 0 must be at least 1"),
        (["--bot", "nobody"], "unknown bot: 'nobody'"),
        (["--bot", "hint:samples=abc"], "samples=abc"),
        (["--variant", "rummy"], "rummy"),
        (["--max-nodes", "0"], "argument --max-nodes: 0 must be at least 1"),
        (["--seed", "-1"], "argument --seed: -1 must be at least 0"),
        (["--games", "x"], "'x' is not a whole number"),
        (["--json", "/proc/nowhere/x.json"], "--json /proc/nowhere/x.json"),
        (["--json", "/"], "a directory, not a file"),
    ],
)
def test_bad_arguments_are_one_line_before_any_deal(args: list[str], named: str) -> None:
    out = _regret(*args)
    assert out.returncode == 2 and named in out.stderr and "Traceback" not in out.stderr
    assert "deal 1/" not in out.stderr


def test_an_existing_json_file_is_kept(tmp_path: Path) -> None:
    kept = tmp_path / "kept.json"
    kept.write_text("mine", encoding="utf-8")
    out = _regret("--games", "1", "--bot", "greedy", "--json", str(kept))
    assert out.returncode == 2 and "the file exists" in out.stderr and kept.read_text(encoding="utf-8") == "mine"


def test_exchange_mode_scores_several_bots_on_the_same_gives() -> None:
    out = _regret("--variant", "megajogos", "--exchange", "greedy,oracle-greedy", "--games", "5")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    best = float(lines[0].split("the best give is worth ")[1].split(" ")[0])
    oracle = next(line for line in lines if line.strip().startswith("oracle-greedy "))
    greedy = next(line for line in lines if line.strip().startswith("greedy "))
    # The best reply's own give is never worth less than the best one; greedy's may be.
    assert "worth less than the best in 0 of 5" in oracle
    assert float(oracle.split("mean ")[1].split(",")[0]) == pytest.approx(best, abs=1e-3)
    assert float(greedy.split("mean ")[1].split(",")[0]) <= best + 1e-9
    assert "oracle-greedy - greedy: " in out.stdout and "0 best-reply searches hit" in out.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--exchange", "greedy"], "classic has no exchange (R9)"),
        (["--variant", "megajogos", "--exchange", "greedy,nobody"], "unknown bot: 'nobody'"),
        (["--variant", "megajogos", "--exchange", "greedy", "--json", "x.json"], "--exchange prints"),
        (["--variant", "megajogos", "--exchange", "greedy", "--bot", "hint"], "--bot has no effect with --exchange"),
    ],
)
def test_exchange_mode_refusals(args: list[str], named: str) -> None:
    out = _regret(*args)
    assert out.returncode == 2 and named in out.stderr and "Traceback" not in out.stderr


def test_one_deal_is_one_deal_in_the_text() -> None:
    out = _regret("--bot", "greedy", "--games", "1")
    assert out.returncode == 0, out.stderr
    assert "1 deal of seed 0" in out.stdout and "1 deals" not in out.stdout + out.stderr
