"""conquian deal (analyzer.bots.deals): valid dealt positions of both presets, a player's view, after N
greedy moves, as JSON or the notation; same seed, same deal; bad options one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error_line, run

from analyzer.bots.deals import deal_position
from analyzer.core.errors import ConquianError
from analyzer.formats.notation import parse_notation
from analyzer.formats.position import load_position
from analyzer.core.state import Phase


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_deal_writes_a_valid_position_that_every_command_reads(variant: str) -> None:
    code, out, _ = run("deal", "--variant", variant, "--seed", "5")
    assert code == 0
    state = load_position(json.loads(out))
    assert state.rules.name == variant and state.stock is not None
    assert all(h is not None and h.bit_count() == state.rules.hand_size for h in state.hands)
    assert state.phase is (Phase.EXCHANGE if variant == "megajogos" else Phase.TURN)
    assert run("deal", "--variant", variant, "--seed", "5", "--json")[1] == out  # the default
    assert run("deal", "--variant", variant, "--seed", "5")[1] == out  # same seed, same deal
    assert run("deal", "--variant", variant, "--seed", "6")[1] != out
    code, line, _ = run("deal", "--variant", variant, "--seed", "5", "--notation")
    assert code == 0 and parse_notation(line.strip()) == state
    code, analyzed, _ = run("analyze", "-", "--json", input=out)
    assert code == 0 and json.loads(analyzed)["valid"] is True


def test_view_and_after() -> None:
    code, out, _ = run("deal", "--seed", "2", "--after", "6", "--view", "0")
    assert code == 0
    state = load_position(json.loads(out))
    assert state.hands[0] is not None and state.hands[1] is None and state.stock is None
    full, moves = deal_position("classic", seed=2, after=6)
    assert sum(1 for player, _ in moves if player is not None) == 6
    assert state.counts == full.counts and state.layouts == full.layouts
    assert state.hands[0] == full.hands[0]
    code, analyzed, _ = run("analyze", "-", "--json", input=out)
    assert code == 0 and json.loads(analyzed)["players"][1]["outs"] is None  # hidden hand


def test_after_past_the_end_says_how_many_moves_there_are() -> None:
    code, _, err = run("deal", "--seed", "3", "--after", "200")
    assert code == 1 and "the deal ended after 32 greedy moves" in err and "ask for at most 32" in err
    code, out, _ = run("deal", "--seed", "3", "--after", "32")
    assert code == 0 and load_position(json.loads(out)).is_terminal()


def test_megajogos_after_the_exchange_keeps_what_was_passed() -> None:
    state, moves = deal_position("megajogos", seed=1, after=4)
    assert [m.text().split()[0] for _, m in moves[:3]] == ["give"] * 3
    assert state.gave and all(g is not None for g in state.gave)


def test_a_deal_that_ends_before_n_moves_is_a_domain_error() -> None:
    with pytest.raises(ConquianError, match="the deal ended after"):
        deal_position("classic", seed=0, after=200)
    code, out, err = run("deal", "--after", "200")
    assert code == 1 and "the deal ended after" in err and one_error_line(err) and out == ""


def test_output_file_says_what_it_wrote(tmp_path: Path) -> None:
    # In words, not "Written deal over, draw to end.json".
    end = tmp_path / "end.json"
    code, out, _ = run("deal", "--seed", "4", "--after", "44", "-o", str(end))
    assert code == 0 and out == f"Wrote the position after 44 moves (deal over, a draw) to {end}.\n"
    view = tmp_path / "v.txt"
    code, out, _ = run("deal", "--seed", "1", "--after", "1", "--view", "0", "--notation", "-o", str(view))
    assert code == 0 and out.startswith("Wrote player 0's view of the position after 1 move (classic, offer,")
    assert out.rstrip().endswith(f"to {view} as the one-line notation.")


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "p.json"
    code, out, _ = run("deal", "--seed", "1", "-o", str(target))
    assert code == 0 and out.startswith("Wrote the position as dealt (classic, turn, player")
    # One line: a wrap would part the file name from the sentence.
    assert len(out.splitlines()) == 1 and out.rstrip().endswith(f"to {target}.")
    assert load_position(json.loads(target.read_text())).stock_count == 20
    code, _, err = run("deal", "--seed", "1", "-o", str(target))
    assert code == 2 and "--force" in err and one_error_line(err)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("deal", "--variant", "gin"), "unknown variant"),
        (("deal", "--view", "2"), "--view"),
        (("deal", "--dealer", "3", "--variant", "megajogos"), "--dealer"),
        (("deal", "--after", "-1"), "--after"),
        (("deal", "--notation", "--json"), "give one"),
        (("deal", "-o", "/proc/x.json"), "cannot write into"),
    ],
)
def test_bad_options_exit_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and needle in err and one_error_line(err) and out == ""


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_naming_the_seeds_dealer_keeps_the_deal(variant: str) -> None:
    # 'deal --seed 3 --dealer 0' (the dealer seed 3 draws) gives the same hands.
    for seed in range(6):
        drawn, _ = deal_position(variant, seed=seed)
        named, _ = deal_position(variant, seed=seed, dealer=drawn.dealer)
        assert named == drawn
        other, _ = deal_position(variant, seed=seed, dealer=(drawn.dealer + 1) % drawn.rules.players)
        assert other.stock == drawn.stock and other.dealer != drawn.dealer


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_to_choice_turns_the_stock_until_a_player_chooses(variant: str) -> None:
    """--to-choice (R10): where N choices leave a stock card to turn, it is turned (and the next,
    if nobody takes it) until someone chooses; the hint then answers; elsewhere nothing changes."""
    stopped = [
        (seed, after)
        for seed in range(1, 7)
        for after in (2, 8)
        if deal_position(variant, seed=seed, after=after)[0].is_chance_node()
    ]
    assert stopped  # some N stop before a turn (a fresh user's pipe failed on them)
    for seed, after in stopped[:3]:
        state, moves = deal_position(variant, seed=seed, after=after, to_choice=True)
        before, played = deal_position(variant, seed=seed, after=after)
        assert moves[: len(played)] == played and moves[len(played)][0] is None  # a turn first
        assert state.is_terminal() or not state.is_chance_node()
        code, out, err = run("deal", "--variant", variant, "--seed", str(seed), "--after", str(after), "--to-choice")
        assert code == 0 and load_position(json.loads(out)) == state
        code, _, err = run("hint", "-", "--samples", "8", input=out)
        assert code == 0 or state.is_terminal(), err
    seed, after = next((s, a) for s in range(1, 7) for a in (2, 8) if (s, a) not in stopped)
    chosen = deal_position(variant, seed=seed, after=after)
    assert deal_position(variant, seed=seed, after=after, to_choice=True) == chosen  # nothing to turn
