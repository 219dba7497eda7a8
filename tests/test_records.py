"""Game records, golden playthroughs, bots and simulation (R8-R19)."""

from __future__ import annotations

import json
import re
import random
from pathlib import Path

import pytest
from cli_run import run
from conftest import ROOT

from analyzer.bots.registry import GreedyBot, RandomBot, make_bot, usefulness
from analyzer.core.errors import ConquianError
from analyzer.core.melds import catalog
from analyzer.core.dealing import deal, view
from analyzer.formats.records import RecordError, record_lines, replay_file, replay_lines
from analyzer.core.rules import CLASSIC, MEGAJOGOS, PRESETS
from analyzer.bots.simulate import Summary, play_game, simulate, wilson

GOLDEN_DIR = ROOT / "tests" / "golden"
GOLDEN = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_golden_files_exist() -> None:
    # One golden playthrough at least for every preset and every player count it allows (R8).
    played = {(r.start.rules.name, r.start.rules.players) for r in map(replay_file, GOLDEN)}
    wanted = {(rules.name, n) for rules in PRESETS.values() for n in rules.player_counts}
    assert played >= wanted and len(GOLDEN) >= 8


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_playthrough_replays_and_regenerates(path: Path) -> None:
    """The stored game replays legally, and the same seed and bots play it again move by move."""
    replay = replay_file(path)
    assert replay.finished
    header = replay.header
    result = play_game(replay.start.rules, header["players"], header["seed"])
    labels = result.start.rules.labels
    assert result.start == replay.start
    assert [m.text(labels) for _, m in result.moves] == [m.text(labels) for m in replay.moves]
    assert result.final == replay.final


def test_record_round_trip_and_result_line() -> None:
    result = play_game("classic", ["random", "random"], 42)
    lines = record_lines(result.start, result.moves, result.final, seed=42)
    assert json.loads(lines[-1])["result"]["winner"] == result.final.winner
    replay = replay_lines(lines)
    assert replay.final == result.final and len(replay.moves) == len(result.moves)


def _lines() -> list[str]:
    return GOLDEN[0].read_text().splitlines()


def test_replay_names_first_illegal_move() -> None:
    lines = _lines()
    entry = json.loads(lines[5])
    entry["move"] = "force 1" if entry["move"] != "force 1" else "pass"
    lines[5] = json.dumps(entry)
    with pytest.raises(RecordError) as info:
        replay_lines(lines)
    message = str(info.value)
    assert message.startswith(f"line 6 (move {entry['n']})") and entry["move"] in message


@pytest.mark.parametrize(
    ("index", "text", "needle"),
    [
        (3, "{oops", "line 4: not valid JSON"),
        (3, '{"n": 3, "player": 0, "move": "dance"}', "line 4 (move 3): not a move"),
        (0, '{"format": "other"}', "line 1: not a conquian record header"),
        (-1, '{"result": {"winner": 7}, "moves": 1}', "the record says winner 7"),
    ],
)
def test_replay_corrupt_records(index: int, text: str, needle: str) -> None:
    lines = _lines()
    lines[index] = text
    with pytest.raises(RecordError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        replay_lines(lines)


def test_a_position_or_puzzle_given_as_a_record_is_named() -> None:
    # Pretty-printed over many lines, or on one line: either way it is not a record.
    position = (ROOT / "examples" / "positions" / "forcing.json").read_text()
    with pytest.raises(RecordError, match="^this is a position, not a game record"):
        replay_lines(position.splitlines(keepends=True))
    with pytest.raises(RecordError, match="^line 1: this is a position, not a game record"):
        replay_lines([json.dumps(json.loads(position))])
    puzzle = next((ROOT / "examples" / "puzzles").glob("*.json")).read_text()
    with pytest.raises(RecordError, match="this is a puzzle, not a game record"):
        replay_lines(puzzle.splitlines(keepends=True))
    # Anything else that is not JSON is still named by its line.
    with pytest.raises(RecordError, match="^line 1: not valid JSON"):
        replay_lines(["{", '"a": 1,', "}}"])


@pytest.mark.parametrize("players", [["hint"], ["a", "b", "c"]])
def test_the_header_names_as_many_players_as_the_variant_seats(players: list[str]) -> None:
    lines = _lines()
    header = json.loads(lines[0])
    header["players"] = players
    lines[0] = json.dumps(header)
    with pytest.raises(RecordError, match=f"the header names {len(players)} player"):
        replay_lines(lines)


def test_replay_wrong_player_is_named() -> None:
    lines = _lines()
    for k, line in enumerate(lines[1:], 1):
        entry = json.loads(line)
        if entry.get("player") is not None:
            entry["player"] = 1 - entry["player"]
            lines[k] = json.dumps(entry)
            break
    with pytest.raises(RecordError, match="the record says player"):
        replay_lines(lines)


def test_a_null_or_missing_player_and_the_headers_variant() -> None:
    # "player": null on a player's move is a contradiction that says what null means; the
    # header's "Classic" is classic, and an unknown variant is named as unknown, not as a
    # mismatch.
    lines = _lines()
    k, entry = next((k, json.loads(line)) for k, line in enumerate(lines[1:], 1)
                    if json.loads(line).get("player") is not None)  # fmt: skip
    missing = {key: value for key, value in entry.items() if key != "player"}
    assert replay_lines([*lines[:k], json.dumps(missing), *lines[k + 1 :]]).finished
    with pytest.raises(RecordError, match=r"says player null \(a chance move\), but player \d acts here"):
        replay_lines([*lines[:k], json.dumps({**entry, "player": None}), *lines[k + 1 :]])
    header = json.loads(lines[0])
    upper = {**header, "variant": header["start"].get("variant", "classic").capitalize()}
    assert replay_lines([json.dumps(upper), *lines[1:]]).finished
    with pytest.raises(RecordError, match=r"^line 1: the header's variant: unknown variant: 'klassic'"):
        replay_lines([json.dumps({**header, "variant": "klassic"}), *lines[1:]])


def test_unfinished_record_is_valid_but_not_finished() -> None:
    lines = _lines()[:10]
    replay = replay_lines(lines)
    assert not replay.finished and len(replay.moves) == 9


def test_bots_choose_legal_moves_from_their_view() -> None:
    rng = random.Random(0)
    for rules in (CLASSIC, MEGAJOGOS):
        for bot in (RandomBot(), GreedyBot()):
            state = deal(rules, 9)
            steps = 0
            while not state.is_terminal() and steps < 400:
                if state.is_chance_node():
                    state = state.apply(state.chance_outcomes()[0][0])
                    continue
                mine = view(state, state.current_player())
                move = bot.choose(mine, rng)
                assert move in state.legal_moves()
                state = state.apply(move)
                steps += 1
            assert state.is_terminal()


def test_greedy_goes_out_when_it_can() -> None:
    from analyzer.formats.sniff import read_position

    state = read_position(ROOT / "examples" / "positions" / "example6-going-out.json")
    move = GreedyBot().choose(view(state, 0), random.Random(0))
    assert move.text() .endswith(" out")


def test_greedy_pays_the_least_useful_card() -> None:
    from analyzer.formats.sniff import read_position

    state = read_position(ROOT / "examples" / "positions" / "example4-rearrangement.json")
    move = GreedyBot().choose(view(state, 0), random.Random(0))
    # Most cards melded (5H 6H 7H + JS JH JD), and not a club of the AC 2C pair.
    assert move.text().startswith("take [5H 6H 7H] [JS JH JD] pay ")
    assert not move.text().endswith(("AC", "2C"))


def test_usefulness_counts_partners() -> None:
    melds = catalog(CLASSIC)
    from analyzer.core.cards import mask_of, parse_card, parse_cards

    hand = mask_of(parse_cards("2C 3C"))
    unseen = ~hand & ((1 << 40) - 1)
    # AC with 2C and 3C in hand: the run AC 2C 3C has two partners held.
    assert usefulness(parse_card("AC"), hand, unseen, melds) > usefulness(parse_card("KH"), hand, unseen, melds)
    assert usefulness(parse_card("KH"), 0, 0, melds) == 0


def test_unknown_bot() -> None:
    with pytest.raises(ConquianError, match="unknown bot"):
        make_bot("alphazero")


def test_simulation_is_reproducible_across_jobs() -> None:
    one = [(r.seed, r.final.winner, len(r.moves)) for r in simulate("classic", ["greedy", "random"], 6, seed=5)]
    two = [(r.seed, r.final.winner, len(r.moves)) for r in simulate("classic", ["greedy", "random"], 6, seed=5, jobs=2)]
    assert one == two


def test_a_run_continued_from_a_later_deal_plays_the_same_deals_and_seats() -> None:
    def key(r):
        return (r.index, r.seed, r.seats, r.final.winner, r.moves)

    bots = ["greedy", "random", "random"]
    whole = [key(r) for r in simulate("megajogos", bots, 7, seed=3, rotate=True)]
    tail = [key(r) for r in simulate("megajogos", bots, 3, seed=3, rotate=True, first=4)]
    assert tail == whole[4:]
    assert [key(r) for r in simulate("megajogos", bots, 3, seed=3, rotate=True, first=4, jobs=2)] == tail
    with pytest.raises(ConquianError, match="first game index"):
        list(simulate("classic", ["greedy"], 1, first=-1))


def test_summary_counts_and_rotation() -> None:
    summary = Summary(2)
    results = list(simulate("classic", ["greedy", "random"], 10, seed=1, rotate=True))
    assert [r.seats for r in results[:2]] == [("greedy", "random"), ("random", "greedy")]
    for r in results:
        summary.add(r)
    data = summary.as_dict()
    assert data["games"] == 10 and sum(data["wins"]) + data["draws"] == 10
    assert sum(data["wins_by_bot"].values()) == sum(data["wins"])


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high and abs((low + high) / 2 - 0.5) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 20)
    assert low == 0.0 and 0.1 < high < 0.2


def test_replay_checks_header_numbers_and_result() -> None:
    lines = (GOLDEN_DIR / "classic-1.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    for change, needle in (({"version": 2}, "version"), ({"variant": "megajogos"}, "variant")):
        bad = [json.dumps({**header, **change}), *lines[1:]]
        with pytest.raises(RecordError, match=needle):
            replay_lines(bad)
    jumped = list(lines)
    entry = json.loads(jumped[2])
    entry["n"] = 7
    jumped[2] = json.dumps(entry)
    with pytest.raises(RecordError, match="move number 7 should be 2"):
        replay_lines(jumped)
    result = json.loads(lines[-1])
    result["moves"] = 5
    with pytest.raises(RecordError, match="says 5 moves"):
        replay_lines([*lines[:-1], json.dumps(result)])


def test_replay_checks_returns_stock_order_and_version() -> None:
    lines = (GOLDEN_DIR / "classic-2.jsonl").read_text().splitlines()
    result = json.loads(lines[-1])
    result["result"]["returns"] = [5, 5]
    with pytest.raises(RecordError, match="returns"):
        replay_lines([*lines[:-1], json.dumps(result)])
    header = json.loads(lines[0])
    with pytest.raises(RecordError, match="the number 1"):
        replay_lines([json.dumps({**header, "version": "1"}), *lines[1:]])
    hidden = json.loads(json.dumps(header))
    hidden["start"]["players"][0]["hand"] = len(hidden["start"]["players"][0]["hand"])
    # A start hiding a hand is refused at the header, not at its first move.
    with pytest.raises(RecordError, match=r"^line 1: the start position hides player 0's hand"):
        replay_lines([json.dumps(hidden), *lines[1:]])
    # The version is the number 1, not 1.0 (as 'n' and 'moves' refuse 2.0); NaN returns are
    # not JSON, not a mismatch; a start that is no object is named as such, not told that it
    # "must list the stock".
    with pytest.raises(RecordError, match="the number 1, got 1.0"):
        replay_lines([json.dumps({**header, "version": 1.0}), *lines[1:]])
    result["result"]["returns"] = [1.0, float("nan")]
    with pytest.raises(RecordError, match=r"not valid JSON \(NaN is not a JSON number \(standard"):
        replay_lines([*lines[:-1], json.dumps(result)])
    for start, needle in (
        ("classic french 1 0 - -", "got the one-line notation: 'conquian notation"),
        (5, "'start' must be a position object (docs/position-format.md), got 5"),
    ):
        with pytest.raises(RecordError, match=re.escape(needle)):
            replay_lines([json.dumps({**header, "start": start}), *lines[1:]])
    header["start"]["stock"] = len(header["start"]["stock"])
    with pytest.raises(RecordError, match="stock cards in order"):
        replay_lines([json.dumps(header), *lines[1:]])


def test_a_wrong_turned_card_names_the_stocks_next_card() -> None:
    # "illegal move 'turn 3C'" says which card the stock turns (R10).
    lines = (GOLDEN_DIR / "classic-2.jsonl").read_text().splitlines()
    entry = json.loads(lines[1])
    assert entry["move"].startswith("turn ")
    right = entry["move"].split()[1]
    entry["move"] = "turn 3C" if right != "3C" else "turn 4C"
    with pytest.raises(RecordError, match=rf"^line 2 \(move 1\): illegal move .*: the stock's next card is {right}$"):
        replay_lines([lines[0], json.dumps(entry), *lines[2:]])


def test_replay_messages_quote_json_not_python() -> None:
    # JSON's null, not Python's None ("the record says player None").
    lines = (GOLDEN_DIR / "classic-1.jsonl").read_text().splitlines()
    for k, line in enumerate(lines[1:], 1):
        entry = json.loads(line)
        if entry.get("player") is not None:
            entry["player"] = None
            lines[k] = json.dumps(entry)
            break
    with pytest.raises(RecordError, match="the record says player null") as info:
        replay_lines(lines)
    assert "None" not in str(info.value)
    last = json.loads(lines[-1])
    last["result"]["winner"] = None if last["result"]["winner"] is not None else 0
    with pytest.raises(RecordError) as info:
        replay_lines([*(GOLDEN_DIR / "classic-1.jsonl").read_text().splitlines()[:-1], json.dumps(last)])
    assert "None" not in str(info.value) and "winner" in str(info.value)


def test_record_lines_refuse_unknown_keys_with_the_nearest() -> None:
    lines = (GOLDEN_DIR / "classic-1.jsonl").read_text().splitlines()
    entry = json.loads(lines[3])
    entry["plyer"] = entry.pop("player")
    with pytest.raises(RecordError, match=r"line 4: unknown key 'plyer'; did you mean 'player'\?"):
        replay_lines([*lines[:3], json.dumps(entry), *lines[4:]])
    header = json.loads(lines[0])
    header["start"]["toAct"] = header["start"].pop("to_act")
    with pytest.raises(RecordError, match="unknown key 'toAct' in start; did you mean 'to_act'"):
        replay_lines([json.dumps(header), *lines[1:]])
    entry = json.loads(lines[3])
    entry["x-comment"] = "a note"
    assert replay_lines([*lines[:3], json.dumps(entry), *lines[4:]]).finished


@pytest.mark.parametrize(("key", "typo"), [("start", "strat"), ("format", "fromat")])
def test_a_misspelt_header_key_gets_its_suggestion(key: str, typo: str) -> None:
    # "strat" is not only "need format and start"; "fromat" is not "a position, not a game
    # record": each misspelt key gets its suggestion.
    lines = _lines()
    header = json.loads(lines[0])
    header[typo] = header.pop(key)
    with pytest.raises(RecordError, match=rf"^line 1: unknown key '{typo}'; did you mean '{key}'\?$"):
        replay_lines([json.dumps(header), *lines[1:]])


def test_a_header_without_start_or_a_position_instead_says_so() -> None:
    lines = _lines()
    header = json.loads(lines[0])
    position = header.pop("start")
    with pytest.raises(RecordError, match=r"^line 1: missing key 'start'$"):
        replay_lines([json.dumps(header), *lines[1:]])
    with pytest.raises(RecordError, match="this is a position, not a game record"):
        replay_lines([json.dumps(position)])


def test_a_misspelt_result_line_gets_its_suggestion() -> None:
    # "reslut" is not read as a move line ("known: move, n, player").
    lines = _lines()
    last = json.loads(lines[-1])
    assert "result" in last
    last["reslut"] = last.pop("result")
    with pytest.raises(RecordError, match=r"unknown key 'reslut'; did you mean 'result'\?$"):
        replay_lines([*lines[:-1], json.dumps(last)])


def test_replay_counts_one_move_in_the_singular(tmp_path: Path) -> None:
    # "1 move", not "Valid record: 1 moves".
    path = tmp_path / "one.jsonl"
    path.write_text("\n".join(_lines()[:2]) + "\n")
    code, out, _ = run("replay", str(path))
    assert code == 0 and "Valid record: 1 move," in out


def test_a_misspelt_key_of_the_start_is_named_before_the_stock_rule() -> None:
    # "stok" in the start is named, not told "must list the stock cards in order", and with a
    # stock count an unknown key "x" is named too.
    lines = (GOLDEN_DIR / "classic-2.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    start = header["start"]
    misspelt = {("stok" if k == "stock" else k): v for k, v in start.items()}
    with pytest.raises(RecordError, match=r"^line 1: unknown key 'stok' in start; did you mean 'stock'\?$"):
        replay_lines([json.dumps({**header, "start": misspelt}), *lines[1:]])
    counted = {**start, "stock": len(start["stock"]), "x": [1]}
    with pytest.raises(RecordError, match=r"^line 1: unknown key 'x' in start"):
        replay_lines([json.dumps({**header, "start": counted}), *lines[1:]])
    # The position is well formed but for the record's own rule: the stock rule is said.
    counted.pop("x")
    with pytest.raises(RecordError, match="must list the stock cards in order"):
        replay_lines([json.dumps({**header, "start": counted}), *lines[1:]])


def test_an_illegal_move_is_quoted_as_written() -> None:
    # 'turn 11e' (Spanish labels) in a French record is not only "illegal move 'turn QS'":
    # the move as written comes first when it differs.
    lines = (GOLDEN_DIR / "classic-2.jsonl").read_text().splitlines()
    entry = json.loads(lines[1])
    right = entry["move"].split()[1]
    wrong, written = ("3C", "turn  3b") if right != "3C" else ("4C", "turn 4b")  # b: bastos, clubs
    entry["move"] = written
    with pytest.raises(
        RecordError, match=rf"^line 2 \(move 1\) '{written}': illegal move 'turn {wrong}' .*next card is {right}$"
    ):
        replay_lines([lines[0], json.dumps(entry), *lines[2:]])
    entry["move"] = f"turn {wrong}"  # as the engine writes it: quoted once
    with pytest.raises(RecordError, match=rf"^line 2 \(move 1\): illegal move 'turn {wrong}'"):
        replay_lines([lines[0], json.dumps(entry), *lines[2:]])
