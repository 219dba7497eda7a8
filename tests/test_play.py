"""``conquian play``: a deal against bots in the terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_run import run
from conftest import EXAMPLES

from analyzer.core.dealing import view
from analyzer.formats.sniff import read_position
from analyzer.solver.why import explain
from cli.play import typed_move


def test_play_refuses_bad_moves_and_prompts_again() -> None:
    code, out, _ = run("play", "--seed", "4", input="foo\n999\ntake [AS 2S 3S] out\nhint\nquit\n")
    assert "Not a move" in out or "not a move" in out
    assert "No move number 999" in out and "Illegal here" in out
    assert out.count("your move>") >= 5 and "Game abandoned" in out
    assert code == 0  # quitting is the player's choice, not an error
    # '01' and an Arabic-Indic '١' are not read as move 1.
    code, out, _ = run("play", "--seed", "4", input="01\n\u0661\nquit\n")
    assert code == 0 and "No move number '01': choose 1 to" in out and "Not a move: '\u0661'" in out
    assert out.count("your move>") >= 3
    # A number of 5,000 digits is past Python's limit on converting digits: no traceback.
    code, out, _ = run("play", "--seed", "4", input="9" * 5000 + "\nquit\n")
    assert code == 0 and "No move number '99999" in out and out.count("your move>") >= 2
    # '-1' is told which numbers to type, as '999' is, not "not a move".
    code, out, _ = run("play", "--seed", "4", input="-1\n+2\nquit\n")
    assert code == 0 and "No move number '-1': choose 1 to" in out and "No move number '+2'" in out


def test_an_illegal_move_is_told_the_reasons_why_gives_from_the_players_view() -> None:
    """play gives the rule facts of `why` (analyzer.solver.why), as the player sees the deal:
    a card in another hand is "not yours", never "in player 0's hand" (R6)."""
    state = read_position(EXAMPLES / "forcing.json")  # player 1 to act; player 0 holds KS KH
    move = "take [AC 2C 3C 4C 5C] [4S 5S 6S 7S] [KS KH KD] pay 2H"
    said = typed_move(move, state.legal_moves(), state, seat=1)
    facts = explain(view(state, 1), move).facts
    assert isinstance(said, str) and said.startswith("Illegal here") and facts
    assert all(f"  - {fact}" in said for fact in facts), said
    assert "KS is not yours" in said and "player 0's hand" not in said
    # At the prompt: the reasons under the refusal, then the prompt again.
    code, out, _ = run("play", "--seed", "4", input="take [AS 2S 3S] out\nquit\n")
    refusal = out.split("Illegal here", 1)[1]
    assert code == 0 and ", because:\n  - " in refusal and "cannot meld it" in refusal


def test_play_to_the_end_with_record(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    code, out, _ = run("play", "--seed", "4", "--record", str(path), input="1\n" * 200)
    assert code == 0 and ("draw" in out or "won" in out)
    code, out, _ = run("replay", str(path), "--json")
    assert code == 0 and json.loads(out)["finished"] is True


def test_play_records_seed_and_players(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    code, _, _ = run("play", "--seed", "2", "--record", str(path), input="1\n" * 300)
    header = json.loads(path.read_text().splitlines()[0])
    assert code == 0 and header["seed"] == 2 and header["players"] == ["human", "greedy"]


def test_play_hides_the_exchange() -> None:
    _code, out, _ = run("play", "--variant", "megajogos", "--seed", "5", "--seat", "2", input="1\nquit\n")
    assert "(greedy): give" not in out  # the bots' passes stay face down (R9)
    assert "has chosen a card to pass" in out


def test_play_shows_turned_cards() -> None:
    code, out, _ = run("play", "--seed", "3", input="quit\n")
    assert code == 0 and " turns " in out


def test_play_keeps_the_case_of_its_messages() -> None:
    _code, out, _ = run("play", "--seed", "3", input="take [9z] out\nquit\n")
    assert "'9z'" in out and "French" in out


def test_play_reads_moves_in_the_labels_it_shows() -> None:
    code, out, _ = run("play", "--seed", "3", "--labels", "spanish", input="pass\nquit\n")
    assert code == 0 and "Illegal here" not in out.split("your move>")[1]


@pytest.mark.parametrize("bot", ["oracle", "oracle-greedy", "peek"])
def test_play_against_a_bot_that_sees_every_card(bot: str) -> None:
    # A ceiling bot is given the whole deal, as in simulate, and the player is told so.
    code, out, err = run("play", "--seed", "1", "--bots", bot, input="1\n" * 300)
    assert code == 0, err
    assert f"({bot}) sees every" in out and "a ceiling" in out
    assert "error" not in out + err


def test_the_record_is_in_place_after_every_move(tmp_path: Path) -> None:
    # '--record' is "kept up to date after every move", as the help says: each move puts it in
    # place, so a killed game keeps it.
    import os
    import signal
    import subprocess
    import time

    from cli_run import CONQUIAN

    path = tmp_path / "k.jsonl"
    game = subprocess.Popen(
        [*CONQUIAN, "play", "--seed", "4", "--record", str(path), "--confirm"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert game.stdin is not None
        game.stdin.write("1\n1\n")
        game.stdin.flush()
        # Wait until the game waits for the third move: the record then stops changing (a kill
        # during a write would leave its temporary file, the record itself whole either way).
        deadline = time.monotonic() + 180
        seen, since = "", time.monotonic()
        while time.monotonic() < deadline:
            now = path.read_text() if path.exists() else ""
            if now != seen:
                seen, since = now, time.monotonic()
            elif sum('"move"' in line for line in now.splitlines()) >= 4 and time.monotonic() - since > 2:
                break
            time.sleep(0.2)
        os.kill(game.pid, signal.SIGKILL)  # nothing can be saved on the way out
        game.wait(timeout=30)
    finally:
        if game.poll() is None:
            game.kill()
    assert [p.name for p in tmp_path.iterdir()] == ["k.jsonl"]  # whole, no temporary file left
    code, out, err = run("replay", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["finished"] is False and json.loads(out)["moves"] >= 4


def test_the_hint_numbers_are_the_move_numbers() -> None:
    # A typed number plays the move of that number in the 'moves' list, so the hint shows each
    # move's own number, not its rank 1..5.
    import re

    _code, out, _ = run("play", "--seed", "3", input="moves\nhint\nquit\n")
    listed = dict(re.findall(r"^\s*(\d+)\. (.+)$", out.split("Best first")[0], re.M))
    hinted = re.findall(r"^\s*(\d+)\. (.+?)  \(wins", out.split("Best first")[1], re.M)
    assert hinted
    for number, text in hinted:
        assert listed[number].strip() == text.strip()


def _prompts_with_only_pass(out: str) -> int:
    """Prompts whose listed moves were 'pass' alone."""
    import re

    return sum(bool(re.search(r"\n\s+1\. pass\n$", chunk)) for chunk in out.split("your move>")[:-1])


def test_play_passes_for_you_when_pass_is_the_only_move() -> None:
    # R12: nothing to choose, so no prompt; the card going by is shown in one line.
    import re

    code, out, _ = run("play", "--seed", "3", input="1\n" * 100)
    assert code == 0 and ("draw" in out or "won" in out)
    passes = re.findall(r"^you pass (\S+) \((turned|paid) by player \d\): the only legal move$", out, re.M)
    assert passes and _prompts_with_only_pass(out) == 0
    # --confirm keeps asking, as before.
    code, confirmed, _ = run("play", "--seed", "3", "--confirm", input="1\n" * 200)
    assert code == 0 and "the only legal move" not in confirmed
    assert _prompts_with_only_pass(confirmed) == len(passes)
    assert confirmed.count("your move>") == out.count("your move>") + len(passes)


def test_play_exits_1_when_its_input_ends_before_the_deal(tmp_path: Path) -> None:
    from cli_run import one_error_line

    path = tmp_path / "g.jsonl"
    code, out, err = run("play", "--seed", "3", "--record", str(path), input="1\n")
    assert code == 1 and one_error_line(err)
    assert "the input ended before the deal did, after " in err and f"record is saved in {path}" in err
    assert "Game abandoned" not in out
    code, replayed, _ = run("replay", str(path), "--json")
    assert code == 0 and json.loads(replayed)["finished"] is False and json.loads(replayed)["moves"] >= 2
    code, _, err = run("play", "--seed", "3", input="")
    assert code == 1 and one_error_line(err) and err.rstrip().endswith(" moves")  # no record named
    # 'quit' is the player's choice: exit 0.
    assert run("play", "--seed", "3", input="quit\n")[0] == 0


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_hint_in_play_is_the_default_hint_with_its_verdict(variant: str) -> None:
    # The same hint as `conquian hint` (sampled until its verdict is settled), verdict first.
    code, out, _ = run("play", "--variant", variant, "--seed", "3", "--bots", "greedy", input="hint\nquit\n")
    text = " ".join(out.split())
    assert code == 0
    assert re.search(
        r"is clearly best \(ahead of|is best, by a small margin \(ahead of|Close call: |is the only choice\.", text
    ), text
    assert "Best first, each with its move number" in text


def test_the_hint_in_play_is_seeded_as_the_hint_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """play's hint samples with `conquian hint`'s default seed (0), from the player's view, so
    the command on that view answers the same (it used the count of dead cards as its seed)."""
    import cli.play

    seen: list[tuple[int, int | None]] = []
    real = cli.play.advise

    def spy(state: Any, **kwargs: Any) -> Any:
        seen.append((kwargs["seed"], state.to_act))
        return real(state, **kwargs)

    monkeypatch.setattr(cli.play, "advise", spy)
    code, _, _ = run("play", "--seed", "3", "--bots", "greedy", input="hint\nquit\n")
    assert code == 0 and seen and all(seed == 0 for seed, _ in seen)


def test_a_win_at_the_end_of_the_stock_says_why() -> None:
    # megajogos: nobody went out, the stock ran out, the fewest cards in hand won (R18).
    from cli_run import run

    code, out, err = run("play", "--variant", "megajogos", "--seed", "1", input="1\n" * 300)
    assert code == 0, err
    assert "won: the stock ran out, and the fewest cards in hand win (R18)" in " ".join(out.split())


def test_the_ending_says_how_a_deal_was_won_where_nobody_went_out() -> None:
    """analyzer.service.board.ending, which the board's play answers carry as ``ending``: the R18
    words where the stock ran out, nothing where the winner went out (R15) or for a draw."""
    from analyzer.bots.game import play_game
    from analyzer.service.board import ending

    seen = set()
    for seed in range(40):
        final = play_game("megajogos", ["greedy"] * 3, seed=seed).final
        went_out = final.winner is not None and final.melded(final.winner) >= final.rules.target
        expected = "" if final.winner is None or went_out else "the stock ran out, and the fewest cards in hand win (R18)"
        assert ending(final) == expected
        seen.add(expected)
    assert len(seen) == 2  # both kinds of end met


def test_the_table_names_each_seat_and_the_dealer_echoes_your_moves_and_shows_all_at_the_end() -> None:
    """Each seat by its bot's name with the dealer marked ("1 (greedy, dealer)"), the situation
    on its own line above the table (a title wrapped mid-phrase), your moves in the log as the
    bots' are, and every hand shown once the deal is over."""
    code, out, _ = run("play", "--seed", "5", "--bots", "greedy", input="1\n" * 300)
    assert code == 0
    rows = re.findall(r"│ (\d) \(([a-z, ]+)\)", out)
    assert {who for p, who in rows if p == "1"} == {"greedy, dealer"}, rows
    assert {who for p, who in rows if p == "0"} == {"you"}, rows
    assert re.search(r"(^|your move> )you: \S", out, re.M)  # after the prompt when piped
    last = out.rsplit("┏", 1)[1]  # the final table
    assert not re.search(r"│ 1 \(greedy, dealer\) *│ \d+ cards", last), last
    assert re.search(r"^classic, (offer|over)", out, re.M)
