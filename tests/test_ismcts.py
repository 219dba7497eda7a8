"""The ismcts bot: OpenSpiel's IS-MCTS from a player's view, usable wherever bots are named."""

from __future__ import annotations

import random

import pytest
from cli_run import run

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")

from analyzer import bots
from analyzer.interop.ismcts import (
    DEFAULT_SIMULATIONS,
    IsmctsBot,
    RolloutEvaluator,
)
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Take
from analyzer.core.dealing import deal, view
from analyzer.formats.position import load_position
from analyzer.bots.simulate import play_game


@pytest.fixture
def quick_ismcts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot ``ismcts`` with a tiny budget, so that whole games stay quick."""
    monkeypatch.setitem(bots.BOTS, "ismcts", lambda: IsmctsBot(simulations=6))


def test_the_registered_bot_has_the_documented_budget() -> None:
    bot = bots.make_bot("ismcts")
    assert isinstance(bot, IsmctsBot)
    assert (bot.simulations, bot.policy, bot.rollouts) == (DEFAULT_SIMULATIONS, "eager", 1)
    assert bot.name == "ismcts" and bot.sees_all is False


@pytest.mark.usefixtures("quick_ismcts")
@pytest.mark.parametrize(
    ("variant", "seats"),
    [("classic", ["ismcts", "greedy"]), ("megajogos", ["greedy", "ismcts", "random"])],
)
def test_whole_games_are_legal_and_reproducible(variant: str, seats: list[str]) -> None:
    first = play_game(variant, seats, seed=5)
    again = play_game(variant, seats, seed=5)
    assert first.final.is_terminal()
    assert first == again  # same seed, same game: budgets are simulations, not seconds
    acted = {seat for seat, _ in first.moves if seat is not None}
    assert seats.index("ismcts") in acted


@pytest.mark.usefixtures("quick_ismcts")
def test_simulate_names_the_bot() -> None:
    code, out, err = run("simulate", "--games", "1", "--bots", "ismcts,greedy", "--json")
    assert code == 0, err
    assert '"ismcts"' in out


def test_choose_from_a_view_plays_a_legal_move_and_goes_out_at_once() -> None:
    state = deal("megajogos", 8)
    rng = random.Random(0)
    bot = IsmctsBot(simulations=5)
    mine = view(state, state.to_act)
    move = bot.choose(mine, rng)  # the exchange (R9): give a card
    assert move in mine.legal_moves()
    # Going out needs no search (R15): a classic player with 10 cards melded is offered 7S.
    out = load_position(
        {
            "variant": "classic",
            "dealer": 1,
            "to_act": 0,
            "players": [
                {
                    "hand": [],
                    "layout": [["AS", "2S", "3S", "4S", "5S", "6S"], ["KH", "KD", "KC", "KS"]],
                },
                {"hand": 10, "layout": []},
            ],
            # Two cards dead: player 0 took the first card turned and paid QH, passed by
            # player 1, who turned QD, passed by both (R13, R17).
            "stock": 17,
            "dead": ["QH", "QD"],
            "centre": {"card": "7S", "kind": "turned", "source": 0, "declined": []},
        }
    )
    chosen = bot.choose(view(out, 0), rng)
    assert isinstance(chosen, Take) and chosen.pay is None


def test_bad_settings_are_refused() -> None:
    # The bot's options are checked up front, as every bot's are: 'ismcts:simulations=0' is no
    # traceback, and 'ismcts:uct_c=x' does not fail in the middle of a game.
    for options, needle in (
        ({"simulations": 0}, "option simulations=0 must be at least 1"),
        ({"policy": "clever"}, "option policy=clever must be one of eager, random"),
        ({"uct_c": "x"}, "option uct_c=x must be a finite number"),
        ({"uct_c": -1}, "option uct_c=-1 must be at least 0"),
        ({"rollouts": 0}, "option rollouts=0 must be at least 1"),
        ({"simulations": 2.5}, "option simulations=2.5 must be a whole number"),
    ):
        with pytest.raises(ConquianError, match=needle):
            IsmctsBot(**options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rollouts must be at least 1"):
        RolloutEvaluator(rollouts=0)
