"""Puzzles mined from games (analyzer.analysis.mining, conquian puzzle --mine): exactly one choice
wins, proven (R19, R20); the plies to the win, the theme and the hint's difficulty."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import ROOT, late_position

from analyzer.analysis.candidates import goes_out, same_choice
from analyzer.analysis.mining import (
    THEMES,
    Deal,
    MiningOptions,
    MiningStats,
    hint_difficulty,
    mine,
    plies_to_win,
    theme,
    unique_win,
)
from analyzer.analysis.puzzles import check_puzzle, load_puzzle, read_puzzle, solve_puzzle
from analyzer.core import native
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import Force, Move, Pass, Turn, parse_move
from analyzer.core.state import GameState
from analyzer.formats.records import replay_file
from analyzer.search.exact import Solver

MINED = ROOT / "examples" / "puzzles" / "mined"
SHIPPED = sorted(MINED.rglob("*.json"))
HAND_MADE_WINS = sorted((ROOT / "examples" / "puzzles").glob("*-win-*.json"))
RECORDS = ROOT / "examples" / "records"
FULL_RECORDS = [p for p in sorted(RECORDS.glob("*.jsonl")) if replay_file(p).view is None]
SAMPLE = [SHIPPED[i * len(SHIPPED) // 20] for i in range(20)] if len(SHIPPED) >= 20 else SHIPPED
"""20 shipped puzzles, chosen deterministically: evenly spread over the files sorted by folder
(preset), so that every preset is checked."""

NOT_OVER = 10**6


def _dtw(state: GameState, player: int) -> int:
    """Reference plies to ``player``'s sure win: plain recursion over every move, one at a time
    (no forced runs, no iterative deepening); :data:`NOT_OVER` or more when he cannot be sure."""

    @cache
    def value(s: GameState) -> int:
        if s.is_terminal():
            return 0 if s.winner == player else NOT_OVER
        if s.is_chance_node():
            return value(s.apply(s.chance_outcomes()[0][0]))
        after = [value(s.apply(m)) for m in s.legal_moves()]
        best = min(after) if s.to_act == player else max(after)
        return min(NOT_OVER, 1 + best)

    return value(state)


def _line_plies(line: tuple[Move, ...]) -> int:
    return sum(not isinstance(m, Turn) for m in line)


# --- unique_win against the puzzle solver -------------------------------------------------


@pytest.mark.parametrize("path", HAND_MADE_WINS, ids=lambda p: p.name)
def test_unique_win_agrees_with_the_puzzle_answer(path: Path) -> None:
    # The hand-made win puzzles: the winning moves are the solver's, and "unique" exactly when
    # they form one choice (same cards melded, same pay) and the player to act wins.
    puzzle = read_puzzle(path)
    state = puzzle.state
    found = solve_puzzle(puzzle)
    win = unique_win(state)
    me = state.to_act
    wins = found["value"] > 1 - 1e-9
    if not wins:
        assert win.kind == "none"
        return
    best = [m for m in state.legal_moves() if m.text(state.rules.labels) in found["moves"]]
    one_choice = all(same_choice(state, best[0], m) for m in best)
    if state.rules.players == 2:
        assert win.kind == ("unique" if one_choice else "several")
    elif Solver(mode="paranoid").solve(state, player=me).values[me] < 1.0:
        assert win.kind == "none"  # max-n wins, but not for sure: not a mined puzzle
    else:
        assert win.kind in (("unique", "unsure") if one_choice else ("several",))
    if win.kind == "unique":
        assert sorted(m.text(state.rules.labels) for m in win.moves) == found["moves"]
        assert set(win.moves) <= set(win.choice)
        for move in win.moves:
            assert Solver().solve(state.apply(move), player=me).values[me] == 1.0


def test_unique_win_refuses_a_position_without_a_choice() -> None:
    # A turn of the stock (R10) along a shipped puzzle's line: nobody chooses there.
    puzzle = next(p for p in map(read_puzzle, SAMPLE) if any(m.startswith("turn ") for m in p.info["line"]))
    state = puzzle.state
    for text in puzzle.info["line"]:
        if text.startswith("turn "):
            break
        state = state.apply(parse_move(text, state.rules.labels))
    assert state.is_chance_node()
    with pytest.raises(PositionError, match="no move to choose"):
        unique_win(state)


def test_a_small_budget_is_unproven_not_wrong() -> None:
    state = read_puzzle(HAND_MADE_WINS[0]).state
    assert unique_win(state, budget=1).kind == "unproven"


# --- plies to the win -----------------------------------------------------------------------


def _positions() -> list[GameState]:
    """Late positions of random play (most without a sure win) and the shipped puzzles near the
    end (each a sure win of the player to act)."""
    found = []
    for variant in ("classic", "megajogos"):
        for seed in (0, 2, 3, 4, 5, 6):
            state = late_position(variant, seed, 3, lambda s, moves, rng: moves[rng.randrange(len(moves))])
            if state is not None:
                found.append(state)
    for path in SHIPPED:
        puzzle = read_puzzle(path)
        if puzzle.state.stock_count <= 4 and puzzle.info["difficulty"]["plies"] <= 12:
            found.append(puzzle.state)
    return found


def test_plies_to_win_is_the_reference_count_and_its_line_plays_it() -> None:
    checked = wins = 0
    for state in _positions():
        for player in range(state.rules.players):
            expected = _dtw(state, player)
            got = plies_to_win(state, player)
            checked += 1
            if expected >= NOT_OVER:
                assert got is None
                continue
            wins += 1
            assert got is not None
            plies, line = got
            assert plies == expected
            # The line: legal, the winner's win at its end, and exactly that many plies.
            end = state
            for move in line:
                end = end.apply(move)
            assert end.is_terminal() and end.winner == player
            assert _line_plies(line) == plies
    assert checked >= 50 and wins >= 20


def test_a_move_that_goes_out_is_one_ply() -> None:
    for path in SHIPPED:
        puzzle = read_puzzle(path)
        if puzzle.info["theme"] == "going_out":
            state = puzzle.state
            got = plies_to_win(state, state.to_act)
            assert got is not None and got[0] == 1 and len(got[1]) == 1 and goes_out(got[1][0])
            return
    pytest.skip("no going_out puzzle shipped")


# --- themes and difficulty ------------------------------------------------------------------


def test_theme_follows_the_winning_move_and_the_line() -> None:
    for path in SAMPLE:
        puzzle = read_puzzle(path)
        state = puzzle.state
        win = unique_win(state)
        assert win.kind == "unique"
        measured = plies_to_win(state, state.to_act)
        assert measured is not None
        _, line = measured
        found = theme(state, win, line)
        assert found in THEMES and found == puzzle.info["theme"]
        first = win.moves[0]
        assert (found == "going_out") == goes_out(first)
        assert (found == "declining") == isinstance(first, Pass)
        if isinstance(first, Force):
            assert found == "forcing"


def test_hint_difficulty_is_seeded_and_names_the_winning_move() -> None:
    puzzle = read_puzzle(SAMPLE[0])
    state = puzzle.state
    win = unique_win(state)
    a = hint_difficulty(state, win.moves, samples=(2, 4), seed=3)
    b = hint_difficulty(state, win.moves, samples=(2, 4), seed=3)
    assert a == b and a["hint_seed"] == 3 and [h["samples"] for h in a["hint"]] == [2, 4]
    labels = state.rules.labels
    for entry in a["hint"]:
        assert entry["found"] == (entry["move"] in {m.text(labels) for m in win.moves})
    found = [h["samples"] for h in a["hint"] if h["found"]]
    assert a["found_at"] == (min(found) if found else None)


# --- mining ---------------------------------------------------------------------------------


def _record_deals() -> list[Deal]:
    deals = []
    for path in FULL_RECORDS:
        replay = replay_file(path)
        deals.append(Deal(replay.start, tuple(replay.full_moves()), {"record": path.name}))
    return deals


def test_mining_records_is_deterministic_and_every_puzzle_checks() -> None:
    options = MiningOptions(max_stock=20, samples=(4,), seed=1)
    first = [m.data for m in mine(_record_deals(), options)]
    again = [m.data for m in mine(_record_deals(), options)]
    assert first and first == again
    for data in first:
        puzzle = load_puzzle(json.loads(json.dumps(data)))  # as written to a file
        found = solve_puzzle(puzzle)
        assert found["proven"] and check_puzzle(puzzle, found) == []
        assert data["theme"] in THEMES and data["difficulty"]["plies"] >= 1
        assert data["source"]["record"].endswith(".jsonl") and data["source"]["move"] >= 1


def test_both_cores_mine_the_same_puzzles() -> None:
    # The Python engine is the reference; the native core must find the same puzzles.
    options = MiningOptions(max_stock=20, samples=(4,), seed=2)
    found = {}
    for core in ("python", "native"):
        if core == "native" and not native.native_available():
            pytest.skip("the native core is not built")
        with native.use_core(core):
            found[core] = [m.data for m in mine(_record_deals(), options)]
    assert found["python"] and found["python"] == found["native"]


def test_mining_options_filter_and_count() -> None:
    deals = _record_deals()
    stats = MiningStats()
    every = [m.data for m in mine(deals, MiningOptions(max_stock=20, samples=()), stats=stats)]
    assert stats.deals == len(deals) and stats.puzzles == len(every)
    assert stats.tested == (
        stats.puzzles + stats.no_win + stats.several + stats.unsure + stats.unproven + stats.short + stats.repeated
    )
    longer = [m.data for m in mine(deals, MiningOptions(max_stock=20, samples=(), min_plies=2))]
    assert all(d["difficulty"]["plies"] >= 2 for d in longer)
    assert all("hint" not in d["difficulty"] for d in every)
    fewer = list(mine(deals, MiningOptions(max_stock=0, samples=())))
    assert all(d.data["position"]["stock"] == [] for d in fewer)


def test_a_deal_that_hides_cards_is_skipped() -> None:
    view = replay_file(RECORDS / "classic-view.jsonl")
    stats = MiningStats()
    assert list(mine([Deal(view.start, ())], stats=stats)) == [] and stats.skipped == 1


@pytest.mark.parametrize(
    ("change", "needle"),
    [({"budget": 0}, "budget"), ({"max_stock": -1}, "max_stock"), ({"samples": (0,)}, "samples")],
)
def test_bad_mining_options_are_refused(change: dict[str, object], needle: str) -> None:
    with pytest.raises(ConquianError, match=needle):
        MiningOptions(**change)  # type: ignore[arg-type]


# --- the shipped puzzles --------------------------------------------------------------------


def test_at_least_200_mined_puzzles_across_the_presets() -> None:
    assert len(SHIPPED) >= 200
    seen = set()
    for path in SHIPPED:
        data = json.loads(path.read_text())
        assert {"theme", "difficulty", "line", "source"} <= set(data)
        seen.add((data["position"]["variant"], len(data["position"]["players"])))
    wanted = {("classic", 2), ("megajogos", 2), ("megajogos", 3), ("megajogos", 4), ("mexican", 2),
              ("mexican_9_10", 2), ("hoyle1897", 2), ("cooncan1913", 2)}  # fmt: skip
    assert wanted <= seen


@pytest.mark.usefixtures("both_cores")
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_sample_of_the_shipped_puzzles_is_proven(path: Path) -> None:
    puzzle = read_puzzle(path)
    found = solve_puzzle(puzzle, time_limit=math.inf)
    assert found["proven"] and check_puzzle(puzzle, found) == []
    # Exactly one choice wins: every answer move is one choice, and no other move wins.
    state = puzzle.state
    moves = [m for m in state.legal_moves() if m.text(state.rules.labels) in found["moves"]]
    assert found["wins"] and moves and all(same_choice(state, moves[0], m) for m in moves)


def test_a_wrong_stored_line_is_caught() -> None:
    data = json.loads(SAMPLE[0].read_text())
    puzzle = load_puzzle(data)
    found = solve_puzzle(puzzle)
    data["difficulty"]["plies"] += 1
    (problem,) = check_puzzle(load_puzzle(data), found)
    assert problem.startswith("difficulty: 'plies' is")
    data = json.loads(SAMPLE[0].read_text())
    data["line"] = [*data["line"][:-1], "pass", *data["line"][-1:]]
    assert check_puzzle(load_puzzle(data), found)
    data = json.loads(SAMPLE[0].read_text())
    data["line"] = data["line"][:-1]
    (problem,) = check_puzzle(load_puzzle(data), found)
    assert "does not end with player" in problem


@pytest.mark.parametrize(
    ("key", "value", "needle"),
    [
        ("theme", "mate", "theme"),
        ("difficulty", {"plies": 0}, "plies"),
        ("difficulty", {"plies": 3, "ply": 3}, "ply"),
        ("source", {"record": 7}, "record"),
        ("line", "pass", "line"),
    ],
)
def test_malformed_mined_keys_are_refused(key: str, value: object, needle: str) -> None:
    data = json.loads(SAMPLE[0].read_text())
    data[key] = value
    with pytest.raises(PositionError, match=needle):
        load_puzzle(data)


# --- conquian puzzle --mine -----------------------------------------------------------------


def test_mine_command_writes_puzzles_that_check(tmp_path: Path) -> None:
    out = tmp_path / "mined"
    code, stdout, err = run("puzzle", "--mine", str(RECORDS), "--out", str(out), "--max-stock", "20",
                            "--hint-samples", "4", "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(stdout)
    views = [p for p in sorted(RECORDS.glob("*.jsonl")) if p not in FULL_RECORDS]
    assert views and len(data["skipped"]) == len(views)
    for path in views:
        assert f"skipped {path}: it hides cards" in err and "mined puzzles need every card known" in err
    files = sorted(out.glob("*.json"))
    assert data["puzzles"] and [p["file"] for p in data["puzzles"]] == [f.name for f in files]
    for path in files:
        code, stdout, _ = run("puzzle", str(path), "--json")
        checked = json.loads(stdout)
        assert code == 0 and checked["correct"] is True and checked["theme"] in THEMES
    code, stdout, _ = run("puzzle", str(files[0]))
    assert "Mined puzzle: theme" in stdout and "Line: " in stdout and "Source: record" in stdout


def test_self_play_mining_is_reproducible(tmp_path: Path) -> None:
    args = ["puzzle", "--mine", "--games", "6", "--variant", "megajogos", "--players", "2", "--seed", "5",
            "--max-stock", "12", "--hint-samples", "none"]  # fmt: skip
    assert run(*args, "--out", str(tmp_path / "a"))[0] == 0
    assert run(*args, "--out", str(tmp_path / "b"))[0] == 0
    a, b = sorted((tmp_path / "a").glob("*.json")), sorted((tmp_path / "b").glob("*.json"))
    assert a and [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
    assert all(p.name.startswith("megajogos-2p-") for p in a)
    source = json.loads(a[0].read_text())["source"]
    assert source["seed"] == 5 and source["bots"] == ["greedy", "greedy"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--mine", "--games", "2"], "--mine needs --out DIR"),
        (["--mine", "--out", "{tmp}/o"], "--mine needs game RECORDS"),
        (["--mine", "--games", "2", "--out", "{tmp}/o", "--try"], "--try is about one puzzle"),
        (["--mine", "--games", "2", "--out", "{tmp}/o", "--hint-samples", "8,x"], "--hint-samples: 'x'"),
        (["--mine", "--games", "2", "--out", "{tmp}/full"], "is not empty"),
        (["--mine", "--games", "2", "--out", "{tmp}/o", "--bots", "nobody"], "unknown bot"),
        (["--mine", "--games", "2", "--out", "{tmp}/o", "--variant", "classic", "--players", "3"], "--players"),
        (["--mine", "nowhere.jsonl", "--out", "{tmp}/o"], "no such record file"),
        (["--mine", "--games", "0", "--out", "{tmp}/o"], "--games"),
    ],
)
def test_mine_usage_errors(tmp_path: Path, args: list[str], needle: str) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    code, _, err = run("puzzle", *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and needle in err and one_error_line(err)


def test_a_corrupt_record_is_a_domain_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = FULL_RECORDS[0].read_text().splitlines()
    bad.write_text("\n".join([*lines[:3], '{"n": 3, "player": 0, "move": "take [AS] pay KS"}']) + "\n")
    code, _, err = run("puzzle", "--mine", str(bad), "--out", str(tmp_path / "o"))
    assert code == 1 and "bad.jsonl: line 4" in err and one_error_line(err)
    assert not (tmp_path / "o").exists()  # the records are read before the output is made


def test_options_without_effect_are_noted() -> None:
    path = ROOT / "examples" / "puzzles" / "classic-win-1.json"
    code, _, err = run("puzzle", str(path), "--games", "3", "--seed", "2")
    assert code == 0 and "Note: --games has no effect without --mine" in err and "--seed" in err
    code, _, err = run("puzzle", str(path), str(path))
    assert code == 2 and "give one puzzle FILE" in err
