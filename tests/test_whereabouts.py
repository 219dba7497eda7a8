"""What can the others hold (analyzer.analysis.whereabouts, ``hint --cards``): per unseen card the
chance of each other hand and the stock, from the hint's own sampler."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from cli_run import run
from conftest import late_position
from web_support import FORCING

from analyzer.analysis.engines import ENGINES
from analyzer.analysis.whereabouts import STOCK, Whereabouts, whereabouts
from analyzer.core.cards import format_card, iter_mask
from analyzer.core.dealing import deal, view
from analyzer.core.errors import PositionError
from analyzer.core.melds import catalog
from analyzer.core.moves import Pass, Take
from analyzer.core.state import GameState, Phase
from analyzer.search.sampling import sample_deal, unseen_cards
from analyzer.service.requests import answer

# The sampler is the same in both cores (the same draws for a seed): every test on each.
pytestmark = pytest.mark.usefixtures("both_cores")


def _passing(state: GameState, moves: list, rng: random.Random):  # type: ignore[no-untyped-def]
    """Pass whenever possible: the dead cards pile up, each declined by the other player."""
    return next((m for m in moves if isinstance(m, Pass)), moves[0])


def _sums_hold(found: Whereabouts, tol: float) -> None:
    """Each card's chances sum to 1; each place's chances sum to its count (R8: every card is
    somewhere, every hand holds its count)."""
    for card, chances in found.chances.items():
        assert sum(chances) == pytest.approx(1.0, abs=tol), format_card(card)
        assert all(0.0 <= p <= 1.0 for p in chances)
    for k, count in enumerate(found.counts):
        assert sum(ch[k] for ch in found.chances.values()) == pytest.approx(count, abs=tol)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
@pytest.mark.parametrize("engine", ["v1", "v2", "v3", "read"])
def test_chances_sum_to_one_per_card_and_to_the_count_per_place(variant: str, engine: str) -> None:
    for seed in range(3):
        state = late_position(variant, seed, 12, _passing)
        if state is None:
            continue
        chosen = replace(ENGINES["v2"], read=True) if engine == "read" else engine
        found = whereabouts(state, engine=chosen, samples=300, seed=seed)
        _sums_hold(found, 1e-9)
        mine = view(state, state.to_act)
        # Every card he cannot see has a row, and no other.
        assert set(found.chances) == set(iter_mask(unseen_cards(mine, state.to_act)))
        assert found.places == (*(q for q in range(state.rules.players) if q != state.to_act), STOCK)


def test_the_uniform_chances_are_exact_and_proportional_to_the_counts() -> None:
    state = late_position("megajogos", 2, 10, _passing)
    assert state is not None
    found = whereabouts(state, engine="v3")  # v3 draws uniformly (no declines, no reading)
    assert found.exact and found.samples == 0
    free = sum(found.counts) - len(found.exchange)
    for card, chances in found.chances.items():
        if card in found.exchange.values():
            continue
        for k, place in enumerate(found.places):
            slots = found.counts[k] - (1 if place in found.exchange else 0)
            assert chances[k] == slots / free
    # ... and they are the sampler's own: its frequencies agree within five standard errors.
    mine = view(state, state.to_act)
    rng = random.Random(5)
    draws = 3000
    held = {c: 0 for c in found.chances}
    q = found.places[0]
    for _ in range(draws):
        hand = sample_deal(mine, state.to_act, rng).hands[q]
        assert hand is not None
        for c in iter_mask(hand):
            held[c] += 1
    for card, chances in found.chances.items():
        p = chances[0]
        spread = 5 * (p * (1 - p) / draws) ** 0.5 + 1e-9
        assert abs(held[card] / draws - p) <= spread, format_card(card)


def test_a_card_passed_in_the_exchange_is_the_receivers_until_shown() -> None:
    # R9: player 0 passed a card to player 1; until it shows it is in player 1's hand, surely.
    checked = 0
    for seed in range(40):
        state = deal("megajogos", seed, dealer=2)
        while state.phase is Phase.EXCHANGE:
            state = state.apply(state.legal_moves()[-1])
        passed = state.gave[0]
        assert passed is not None
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.hands[0] is not None and state.phase is Phase.OFFER:
                found = whereabouts(state, 0, samples=200, seed=seed)
                _sums_hold(found, 1e-9)
                if state.table_mask() >> passed & 1:
                    assert passed not in found.chances  # shown: no longer unseen
                    break
                receiver = found.places.index(1)
                assert found.exchange == {1: passed}
                assert found.chances[passed][receiver] == 1.0
                assert found.possible[passed] == tuple(k == receiver for k in range(len(found.places)))
                checked += 1
            state = state.apply(rng.choice(state.legal_moves()) if not state.is_chance_node()
                                else state.chance_outcomes()[0][0])  # fmt: skip
        if checked > 20:
            break
    assert checked > 20


def _partners(state: GameState, found: Whereabouts, q: int) -> set[int]:
    """Unseen cards that make a three-card meld with a card ``q`` declined and another unseen card."""
    could = set(found.chances)
    out: set[int] = set()
    for declined in found.declined.get(q, ()):
        for meld in catalog(state.rules):
            if meld.bit_count() == 3 and meld >> declined & 1:
                pair = [c for c in iter_mask(meld) if c != declined]
                if all(c in could for c in pair):
                    out.update(pair)
    return out


def test_cards_that_meld_with_a_declined_card_are_less_likely_with_the_declines_read() -> None:
    # R11, R17: a player who declined a card would have taken it with two cards that meld with
    # it, so the hint's sampler (v2: infer) avoids such hands; the uniform one (v1) does not.
    seen = 0
    for seed in range(6):
        state = late_position("classic", seed, 14, _passing)
        if state is None:
            continue
        read = whereabouts(state, engine="v2", samples=1500, seed=seed)
        plain = whereabouts(state, engine="v1")
        other = 1 - state.to_act
        assert plain.exact and not plain.declined
        assert not read.exact and read.declined, "dead cards declined by the other player"
        assert set(read.declined[other]) <= set(state.dead) | {state.centre.card if state.centre else -1}
        partners = _partners(state, read, other)
        assert partners
        k = read.places.index(other)
        with_reading = sum(read.chances[c][k] for c in partners) / len(partners)
        without = sum(plain.chances[c][k] for c in partners) / len(partners)
        assert with_reading < without - 0.03, (seed, with_reading, without)
        _sums_hold(read, 1e-9)
        seen += 1
    assert seen >= 4


def test_cards_near_a_paid_card_are_less_likely_with_the_reading_on() -> None:
    # R13: a player pays the card he needs least, so cards that meld with it are read as less
    # likely in his hand (analyzer.search.inference), with 'read' on.
    def taking(state: GameState, moves: list, rng: random.Random):  # type: ignore[no-untyped-def]
        return next((m for m in moves if isinstance(m, Take) and m.pay is not None), moves[-1])

    # A played deal keeps its pays (GameState.paid).
    found = (late_position("classic", seed, 16, taking) for seed in range(20))
    state = next(s for s in found if s is not None and s.paid and s.paid[1 - s.to_act])
    other = 1 - state.to_act
    reader = replace(ENGINES["v3"], read=True)  # uniform apart from the reading
    read = whereabouts(state, engine=reader, samples=2000)
    plain = whereabouts(state, engine="v3")
    assert read.paid and other in read.paid and not read.exact
    near = {
        c for c in read.chances
        for paid in read.paid[other]
        if c // 4 == paid // 4 or (c % 4 == paid % 4 and abs(c // 4 - paid // 4) == 1)
    }  # fmt: skip
    assert near
    k = read.places.index(other)
    assert sum(read.chances[c][k] for c in near) < sum(plain.chances[c][k] for c in near) - 0.05


def test_the_view_of_another_player_at_a_turn_and_the_errors() -> None:
    state = deal("classic", 3)
    assert state.is_chance_node()  # a turn: nobody chooses, yet a view is there
    for player in (0, 1):
        found = whereabouts(state, player)
        assert found.player == player and found.places == (1 - player, STOCK)
        assert found.exact  # nothing declined yet: the uniform sampler, computed
        _sums_hold(found, 1e-9)
    with pytest.raises(PositionError, match="no player 2"):
        whereabouts(state, 2)
    with pytest.raises(PositionError, match="hand is hidden"):
        whereabouts(view(state, 0), 1)


def test_the_same_seed_draws_the_same_chances() -> None:
    state = late_position("classic", 1, 14, _passing)
    assert state is not None
    a = whereabouts(state, engine="v2", samples=200, seed=4)
    assert a == whereabouts(state, engine="v2", samples=200, seed=4)
    assert a.chances != whereabouts(state, engine="v2", samples=200, seed=5).chances


def test_hint_cards_json_text_and_the_engine_agree() -> None:
    code, out, err = run("hint", FORCING, "--cards", "--json", "--samples", "8", "--card-samples", "500")
    assert code == 0 and not err
    data = json.loads(out)
    cards = data["cards"]
    assert cards["view"] == 1 and cards["places"] == ["0", "stock"]
    assert cards["counts"] == {"0": 2, "stock": 18}
    assert cards["based_on"]["declined"] == {"0": ["7D", "5C"]} and cards["based_on"]["infer"]
    assert "declined 7D 5C" in cards["based_on_text"]
    for card, chances in cards["unseen"].items():
        assert set(chances) == {"0", "stock"}
        assert sum(chances.values()) == pytest.approx(1.0, abs=1e-6), card
    for place, count in cards["counts"].items():
        assert sum(ch[place] for ch in cards["unseen"].values()) == pytest.approx(count, abs=1e-4)
    request = {"id": 1, "cmd": "hint", "position": FORCING, "cards": True, "samples": 8, "card_samples": 500}
    reply, _ = answer(json.dumps(request))
    assert reply["ok"] and reply["result"]["cards"] == cards
    # The text: a row per unseen card, a column per place.
    code, out, _ = run("hint", FORCING, "--cards", "--samples", "8", "--card-samples", "500")
    assert code == 0 and "What the others can hold" in out and "player 0" in out
    row = next(line for line in out.splitlines() if line.startswith("KD "))
    assert row.split()[1:] == [f"{100 * cards['unseen']['KD'][p]:.0f}%" for p in ("0", "stock")]


def test_hint_cards_view_gives_the_table_alone_and_refuses_a_bad_seat() -> None:
    code, out, err = run("hint", FORCING, "--cards", "--view", "0", "--json", "--samples", "4")
    assert code == 0 and "--samples has no effect" in " ".join(err.split())
    data = json.loads(out)
    assert data["evaluation"] == "cards" and "moves" not in data and data["cards"]["view"] == 0
    assert data["cards"]["counts"] == {"1": 10, "stock": 18}
    reply, _ = answer(json.dumps({"id": 2, "cmd": "hint", "position": FORCING, "cards": True, "view": 0}))
    assert reply["ok"] and reply["result"]["cards"]["view"] == 0
    reply, _ = answer(json.dumps({"id": 3, "cmd": "hint", "position": FORCING, "cards": True, "view": 2}))
    assert not reply["ok"] and reply["field"] == "view" and "seats 0 to 1" in reply["error"]
    code, _, err = run("hint", FORCING, "--cards", "--view", "2")
    assert code == 2 and "--view names a seat: classic has seats 0 to 1, not 2" in err
    # Without --cards, --view changes nothing: noted, the hint as ever.
    code, out, err = run("hint", FORCING, "--view", "0", "--samples", "8")
    assert code == 0 and "Best move" in out and "without --cards it has no effect" in err
    reply, _ = answer(json.dumps({"id": 4, "cmd": "hint", "position": FORCING, "view": 0, "samples": 8}))
    assert reply["ok"] and reply["result"]["notes"] == ["'view' has no effect without \"cards\": true"]
    # A view whose hand the position hides is a domain error.
    hidden = json.loads(run("notation", FORCING, "--json")[1])["position"]
    hidden["players"][0]["hand"] = 2  # a hidden hand is its count
    code, _, err = run("hint", "-", "--cards", "--view", "0", input=json.dumps(hidden))
    assert code == 1 and "hand is hidden" in err


def test_card_samples_and_a_static_hint() -> None:
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": FORCING, "cards": True, "card_samples": 0}))
    assert not reply["ok"] and reply["field"] == "card_samples"
    code, _, err = run("hint", FORCING, "--cards", "--card-samples", "0")
    assert code == 2
    # --static with --cards: the static ranking, then the table (which reads --seed).
    code, out, err = run("hint", FORCING, "--static", "--cards", "--seed", "3", "--json")
    assert code == 0 and not err
    data = json.loads(out)
    assert data["evaluation"] == "static" and data["cards"]["seed"] == 3
    assert "5C" not in data["cards"]["unseen"]  # the centre card is seen: no row for it
