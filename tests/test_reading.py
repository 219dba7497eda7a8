"""The paid-card reading (analyzer/reading.py): its masks, weights, log and weighted sampler."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis.advisor import advise
from analyzer.bots.registry import GreedyBot, check_bot
from analyzer.core.cards import FULL_DECK, card_index, format_card, iter_mask, parse_card
from analyzer.core.errors import ConquianError
from analyzer.bots.searchbots import HintBot
from analyzer.core.dealing import deal, view
from analyzer.core.plain import dump_position
from analyzer.formats.position import load_position
from analyzer.search.inference import (
    NEAR1,
    NEAR2,
    coefficients,
    hand_weights,
    near_counts,
    read_cards,
    read_weights,
)
from analyzer.core.rules import CLASSIC, MEGAJOGOS
from analyzer.search.sampling import is_consistent, sample_deal
from analyzer.core.state import GameState, Phase

from cli_run import one_error_line, run
from test_sampling import random_position

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

DATA = Path(__file__).resolve().parent.parent / "analyzer" / "data" / "reading.json"


def test_near_and_gap_masks_by_rank_and_suit() -> None:
    # Brute force from ranks and suits (R1: ranks 1..10, runs of one suit in rank order, R5).
    for rank in range(1, 11):
        for suit in range(4):
            card = card_index(rank, suit)
            near = {card_index(rank, s) for s in range(4) if s != suit}
            near |= {card_index(r, suit) for r in (rank - 1, rank + 1) if 1 <= r <= 10}
            gap = {card_index(r, suit) for r in (rank - 2, rank + 2) if 1 <= r <= 10}
            assert NEAR1[card] == sum(1 << c for c in near)
            assert NEAR2[card] == sum(1 << c for c in gap)


def test_near_counts_and_weights() -> None:
    paid = [parse_card("5H"), parse_card("5S")]
    assert near_counts(paid, parse_card("5D")) == (2, 0)  # a set partner of both
    assert near_counts(paid, parse_card("6H")) == (1, 0)
    assert near_counts(paid, parse_card("7S")) == (0, 1)
    assert near_counts(paid, parse_card("KC")) == (0, 0)
    w = hand_weights(paid, 1.0, 0.5)
    assert w[parse_card("KC")] == 1.0
    assert w[parse_card("5D")] == pytest.approx(math.exp(-2.0))
    assert w[parse_card("7S")] == pytest.approx(math.exp(-0.5))
    assert all(0 < x <= 1 for x in w)


def test_fitted_coefficients_are_shipped_for_both_presets() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert data["script"] == "bench/fit_reading.py"
    for variant in ("classic", "megajogos"):
        near, gap = coefficients(variant)  # type: ignore[misc]
        # A paid card makes its near cards less likely, and the fit beat the count alone.
        assert near > gap > 0
        entry = data["variants"][variant]
        assert entry["log_loss_read"] < entry["log_loss_count"]
    assert coefficients("no-such-variant") is None


def _after_pays(variant: str, seed: int) -> tuple[GameState, int, dict[int, tuple[int, ...]]]:
    """Greedy play, from the first deal at or after ``seed`` where another player pays three
    cards, until he has and player 0 is offered a card: (state, reader, what the others paid)."""
    for s in range(seed, seed + 100):
        found = _greedy_until_pays(variant, s)
        if found is not None:
            return found
    raise AssertionError("no deal with three pays")


def _greedy_until_pays(variant: str, seed: int) -> tuple[GameState, int, dict[int, tuple[int, ...]]] | None:
    rng = random.Random(seed)
    state = deal(variant, seed)
    bot = GreedyBot()
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        others = {q: cards for q, cards in enumerate(state.paid) if q != 0 and cards}
        if state.phase is Phase.OFFER and state.to_act == 0 and max(map(len, others.values()), default=0) >= 3:
            return state, 0, others
        state = state.apply(bot.choose(view(state, state.to_act), rng))
    return None


def test_weighted_samples_stay_consistent_and_shun_near_cards() -> None:
    for variant, seed in ((CLASSIC, 3), (MEGAJOGOS, 4)):
        hits_w = hits_u = 0
        while hits_u < 100:  # a position where the payer may still hold near cards
            state, me, paid = _after_pays(variant.name, seed)
            seed += 1
            mine = view(state, me)
            weights = read_weights(mine, me)
            assert weights is not None and set(weights) == set(paid)
            q = max(paid, key=lambda p: len(paid[p]))
            near = 0
            for x in paid[q]:
                near |= NEAR1[x]
            rng_w, rng_u = random.Random(1), random.Random(1)
            hits_w = hits_u = 0
            for _ in range(400):
                s = sample_deal(mine, me, rng_w, weights=weights)
                assert is_consistent(s, mine, me)
                hits_w += ((s.hands[q] or 0) & near).bit_count()
                hits_u += ((sample_deal(mine, me, rng_u).hands[q] or 0) & near).bit_count()
        # Near cards land in the payer's hand clearly less often than uniformly.
        assert hits_w < 0.8 * hits_u, (variant.name, hits_w, hits_u)


def test_no_weights_draws_the_same_deals_as_before() -> None:
    state = random_position("megajogos", 11, 30)
    me = state.to_act
    mine = view(state, me)
    a = [sample_deal(mine, me, random.Random(5)) for _ in range(3)]
    b = [sample_deal(mine, me, random.Random(5), weights=None) for _ in range(3)]
    c = [sample_deal(mine, me, random.Random(5), weights={}) for _ in range(3)]
    assert a == b == c


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(["classic", "megajogos"]), seed=st.integers(0, 5_000), steps=st.integers(0, 60))
def test_weighted_samples_are_consistent(variant: str, seed: int, steps: int) -> None:
    state = random_position(variant, seed, steps)
    me = state.to_act
    mine = view(state, me)
    rng = random.Random(seed)
    others = [q for q in range(state.rules.players) if q != me]
    weights = {q: tuple(rng.uniform(0.05, 1.0) for _ in range(40)) for q in others}
    for _ in range(3):
        assert is_consistent(sample_deal(mine, me, rng, weights=weights), mine, me)


def test_read_weights_only_for_hidden_other_players() -> None:
    state, me, paid = _after_pays("megajogos", 4)
    mine = view(state, me)
    assert set(read_weights(mine, me) or {}) == set(paid)
    bare = read_weights(mine.evolve(paid=()), me) or {}
    assert set(bare) <= {state.centre.source}  # type: ignore[union-attr]  # the centre card alone
    # His own pays say nothing new; a known hand needs no reading.
    only_mine = tuple(cards if q == me else () for q, cards in enumerate(state.paid))
    assert me not in (read_weights(mine.evolve(paid=only_mine), me) or {})
    assert read_weights(state, me) is None


def test_apply_keeps_each_pay_as_history_outside_equality() -> None:
    rng = random.Random(7)
    state = deal("megajogos", 7)
    bot = GreedyBot()
    expected: list[list[int]] = [[], [], []]
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        move = bot.choose(view(state, state.to_act), rng)
        pay = getattr(move, "pay", None)
        if pay is not None:
            expected[state.to_act].append(pay)
        state = state.apply(move)
        assert [list(c) for c in state.paid or ((), (), ())] == expected
        # Public: every view keeps it; history: it changes neither equality nor hash.
        assert view(state, 1).paid == state.paid
        bare = state.evolve(paid=())
        assert bare == state and hash(bare) == hash(state)
    assert any(expected)


def test_a_centre_card_paid_is_read_without_history() -> None:
    state, me, _ = _after_pays("classic", 3)
    mine = view(state, me).evolve(paid=())
    c = mine.centre
    assert c is not None
    weights = read_weights(mine, me)
    if c.kind == "paid":
        assert weights is not None and weights[c.source] == pytest.approx(
            hand_weights((c.card,), *coefficients("classic"))  # type: ignore[misc]
        )
    else:
        assert weights is None


def test_advise_reads_paid_cards_only_with_a_reading_engine() -> None:
    from dataclasses import replace

    from analyzer.analysis.advisor import ENGINES

    state, me, _ = _after_pays("classic", 3)
    mine = view(state, me)
    plain = advise(mine.evolve(paid=()), samples=4, seed=2, engine="v2", node_budget=200)
    ignored = advise(mine, samples=4, seed=2, engine="v2", node_budget=200)
    assert [e.move for e in plain.estimates] == [e.move for e in ignored.estimates]
    assert [e.expected for e in plain.estimates] == [e.expected for e in ignored.estimates]
    reading = replace(ENGINES["v2"], read=True)
    read = advise(mine, samples=4, seed=2, engine=reading, node_budget=200)
    assert {e.move for e in read.estimates} == {e.move for e in plain.estimates}


def test_hint_bot_read_option() -> None:
    assert check_bot("hint:read=1") is not None
    with pytest.raises(ConquianError, match="read"):
        check_bot("hint:read=2")
    bot = HintBot(read=1, samples=2, node_budget=100)
    engine, _, _ = bot.setup(CLASSIC)
    assert engine.read
    state, me, _ = _after_pays("classic", 3)
    move = bot.choose(view(state, me), random.Random(0))
    assert state.is_legal(move)


# --------------------------------------------------------------- position files: players[i].paid
def _classic_with_history() -> dict:
    state, me, _ = _after_pays("classic", 3)
    return dump_position(view(state, me))


def test_position_file_keeps_paid_and_reads_it_back() -> None:
    data = _classic_with_history()
    assert any("paid" in p for p in data["players"])
    state = load_position(data)
    assert dump_position(state) == data
    assert load_position(json.loads(json.dumps(data))).paid == state.paid
    # Left out, the position is the same (history is not position), with nothing to read.
    for p in data["players"]:
        p.pop("paid", None)
    bare = load_position(data)
    assert bare == state and bare.paid == ()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d, card_in_hand, own, dead: d["players"][1].update(paid=[card_in_hand]), "is not face up"),
        (lambda d, card_in_hand, own, dead: d["players"][0].update(paid=[own]), "in his own layout"),
        (lambda d, card_in_hand, own, dead: d["players"][1].update(paid=[dead, dead]), "listed twice"),
        (lambda d, card_in_hand, own, dead: d["players"][1].update(paid=["ZZ"]), r"players\[1\]\.paid: .*ZZ"),
    ],
)
def test_position_file_refuses_impossible_paid(change, message) -> None:  # type: ignore[no-untyped-def]
    data = _classic_with_history()
    state = load_position(data)
    card_in_hand = format_card(next(iter_mask(FULL_DECK & ~state.table_mask())), state.rules.labels)
    own_layout = [m for m in state.layouts[0] if m]
    own = format_card(next(iter_mask(own_layout[0])), state.rules.labels) if own_layout else None
    dead = data["dead"][0]
    if own is None and message == "in his own layout":
        pytest.skip("player 0 has no meld in this deal")
    data["players"][0].pop("paid", None)
    data["players"][1].pop("paid", None)
    change(data, card_in_hand, own, dead)
    with pytest.raises(ConquianError, match=message):
        load_position(data)


def test_hint_command_reads_a_position_with_history(tmp_path: Path) -> None:
    data = _classic_with_history()
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run("hint", str(path), "--json", "--samples", "2", "--seed", "1")
    assert code == 0, err
    assert json.loads(out)["moves"]
    data["players"][1]["paid"] = [data["players"][1].get("paid", [data["dead"][0]])[0]] * 2
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run("hint", str(path))
    assert code == 1 and one_error_line(err) and "paid" in err and "Traceback" not in out + err


def _after_exchange(seed: int, first: bool = False) -> GameState:
    """A megajogos deal (dealer 0) just after the exchange, each player passing his first or last choice."""
    state = deal(MEGAJOGOS, seed, dealer=0)
    while state.phase is Phase.EXCHANGE:
        state = state.apply(state.legal_moves()[0 if first else -1])
    return state


def test_view_keeps_the_card_received_in_the_exchange_and_reads_it() -> None:
    # R9: each player passes a card to the next; the receiver knows it. His view keeps the card
    # he passed and the one he received, not the third pass.
    state = _after_exchange(8)
    for me in range(3):
        mine = view(state, me)
        before = (me - 1) % 3
        assert mine.gave[me] == state.gave[me] and mine.gave[before] == state.gave[before]
        assert mine.gave[(me + 1) % 3] is None
        assert (mine.hands[me] or 0) >> state.gave[before] & 1  # type: ignore[operator]
        assert read_cards(mine, me) == {before: (state.gave[before],)}
        assert load_position(dump_position(mine)).gave == mine.gave
        assert is_consistent(sample_deal(mine, me, random.Random(me)), mine, me)


def test_deal_view_after_the_exchange_shows_the_card_received() -> None:
    code, out, err = run("deal", "--variant", "megajogos", "--seed", "8", "--after", "3", "--view", "1")
    assert code == 0, err
    players = json.loads(out)["players"]
    assert "gave" in players[1] and "gave" in players[0] and "gave" not in players[2]
    assert players[0]["gave"] in players[1]["hand"]


def test_hint_read_flags(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_classic_with_history()), encoding="utf-8")
    base = ("hint", str(path), "--json", "--samples", "2", "--seed", "1")
    code, out, err = run(*base, "--read")
    assert code == 0, err
    read = json.loads(out)["read"]
    assert read and all(q != "0" and cards for q, cards in read.items())
    code, out, err = run(*base, "--no-read")
    assert code == 0 and json.loads(out)["read"] == {}
    code, out, err = run("hint", str(path), "--samples", "2", "--read")
    assert code == 0 and "read from the cards their players gave up" in " ".join(out.split())
    # --read with --static has no effect: noted, and the static answer given.
    code, out, err = run("hint", str(path), "--static", "--read")
    assert code == 0 and out and one_error_line(err) and err.startswith("Note: ") and "--read" in err
    code, out, err = run("hint", str(path), "--static", "--no-read")
    assert code == 0 and "--no-read has no effect" in err  # named as typed
    # --open on a position that hides a hand is refused whatever else is given.
    code, out, err = run("hint", str(path), "--open", "--no-read")
    assert code != 0 and out == "" and "--open needs every hand known" in err


def test_engine_hint_read_field() -> None:
    from cli.engine import answer

    position = _classic_with_history()
    req = {"id": 1, "cmd": "hint", "position": position, "samples": 2, "seed": 1}
    got, _ = answer(json.dumps({**req, "read": True}))
    assert got["ok"] and got["result"]["read"], got
    got, _ = answer(json.dumps({**req, "read": False}))
    assert got["ok"] and got["result"]["read"] == {}, got
    got, _ = answer(json.dumps({**req, "read": 1}))
    assert not got["ok"] and got["field"] == "read", got
    got, _ = answer(json.dumps({**req, "read": True, "open": True}))  # a hand is hidden
    assert not got["ok"] and got["field"] == "open", got
    got, _ = answer(json.dumps({"id": 2, "cmd": "hint", "position": position, "static": True, "read": True}))
    assert got["ok"] and "'read' has no effect" in got["result"]["notes"][0], got


def _edited(data: dict, **players: list[str]) -> dict:
    out = json.loads(json.dumps(data))
    for p in out["players"]:
        p.pop("paid", None)
    for key, cards in players.items():
        out["players"][int(key[1:])]["paid"] = cards
    return out


def test_paid_history_that_cannot_happen_is_refused() -> None:
    # Histories that play cannot reach are refused.
    state, me, _ = _after_pays("classic", 3)
    mine = view(state, me)
    data = dump_position(mine)
    lab = mine.rules.labels
    c = mine.centre
    assert c is not None
    centre = format_card(c.card, lab)
    if c.kind == "paid":
        other = 1 - c.source
        with pytest.raises(ConquianError, match=r"is the centre card, paid by player"):
            load_position(_edited(data, **{f"p{other}": [centre]}))
        dead = data["dead"][0]
        with pytest.raises(ConquianError, match="his last pay"):
            load_position(_edited(data, **{f"p{c.source}": [centre, dead]}))
    else:
        with pytest.raises(ConquianError, match="turned from the stock"):
            load_position(_edited(data, p1=[centre]))
    # More pays than takes: every dead card "paid" by a player with few cards melded.
    few = min(range(2), key=mine.melded)
    many = data["dead"][: max(0, mine.melded(few) - 2) + 1]
    with pytest.raises(ConquianError, match=r"took at most"):
        load_position(_edited(data, **{f"p{few}": many}))


def test_a_layout_of_three_holds_one_card_paid_by_others() -> None:
    data = {
        "variant": "classic", "dealer": 1, "to_act": 0,
        "players": [
            {"hand": 4, "layout": [["2H", "3H", "4H"], ["5D", "6D", "7D"]], "paid": ["AH", "AC"]},
            {"hand": 7, "layout": [["AS", "AH", "AC"]]},
        ],
        "stock": 17, "dead": ["2S", "3S"], "centre": {"card": "KS", "kind": "paid", "source": 1},
    }
    with pytest.raises(ConquianError, match="holds 2 cards the others paid"):
        load_position(data)
    data["players"][0]["paid"] = ["AH"]
    assert load_position(data).paid == ((parse_card("AH"),), ())


def test_the_card_received_in_the_exchange_is_where_it_can_be() -> None:
    state = _after_exchange(1, first=True)
    full = dump_position(state)
    lab = state.rules.labels
    third = format_card(next(iter_mask(state.hands[1] or 0)), lab)
    bad = json.loads(json.dumps(full))
    bad["players"][2]["gave"] = third  # player 2 passes to player 0, not to player 1
    with pytest.raises(ConquianError, match=r"players\[2\]\.gave: .* in player 1's hand"):
        load_position(bad)
    mine = dump_position(view(state, 0))
    unseen = format_card(next(iter_mask(FULL_DECK & ~state.table_mask() & ~(state.hands[0] or 0))), lab)
    mine["players"][2]["gave"] = unseen
    with pytest.raises(ConquianError, match="not in player 0's hand"):
        load_position(mine)
    assert load_position(dump_position(view(state, 0))).gave == view(state, 0).gave


def test_show_draws_the_paid_history(tmp_path: Path) -> None:
    data = _classic_with_history()
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run("show", str(path), "--labels", "french")
    assert code == 0, err
    payer = next(p for p, e in enumerate(data["players"]) if e.get("paid"))
    lines = [line for line in out.splitlines() if line.strip().startswith("paid ")]
    assert lines, out
    svg = tmp_path / "p.svg"
    code, out, err = run("show", str(path), "--svg", str(svg))
    assert code == 0, err
    assert "paid " + " ".join(data["players"][payer]["paid"]) in svg.read_text(encoding="utf-8")


def test_notation_carries_paid() -> None:
    from analyzer.formats.notation import NotationError, format_notation, parse_notation

    state, me, _ = _after_pays("classic", 3)
    for s in (state, view(state, me)):
        text = format_notation(s)
        assert " paid:" in text
        back = parse_notation(text)
        assert back == s and back.paid == s.paid and format_notation(back) == text
    text = format_notation(view(state, me))
    head, _, _ = text.rpartition(" paid:")
    assert parse_notation(head).paid == ()
    for bad, match in ((" paid:AS", "separated by '/'"), (" paid:ZZ/-", "ZZ"), (" paid:/-", "no cards"),
                       (" paid:-/-/-", "2 in classic")):
        with pytest.raises(NotationError, match=match):
            parse_notation(head + bad)


def test_small_fresh_user_findings() -> None:
    # 'why' on a give in classic says classic has no exchange, not that the exchange is over.
    code, out, err = run("why", "examples/positions/forcing.json", "give 7H")
    assert "classic has no exchange" in " ".join(out.split())
    # A view of a finished deal does not show "0 hidden" for an empty hand.
    state = deal("classic", 3)
    rng = random.Random(3)
    bot = GreedyBot()
    while not state.is_terminal():
        state = state.apply(state.chance_outcomes()[0][0] if state.is_chance_node()
                            else bot.choose(view(state, state.to_act), rng))
    if state.winner is not None:
        mine = view(state, 1 - state.winner)
        code, out, err = run("show", "-", input=json.dumps(dump_position(mine)))
        assert code == 0, err
        assert "0 hidden" not in out


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(["classic", "megajogos"]), seed=st.integers(0, 10_000))
def test_every_reachable_view_with_its_history_loads(variant: str, seed: int) -> None:
    # The history checks (paid, the card received) never refuse a position play can reach.
    rng = random.Random(seed)
    state = deal(variant, seed)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_moves()))
        for p in range(state.rules.players):
            mine = view(state, p)
            back = load_position(dump_position(mine))
            assert back == mine and back.paid == mine.paid and back.gave == mine.gave
        full = load_position(dump_position(state))
        assert full.paid == state.paid


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Impossible exchange and pay histories.
        ("megajogos spanish 0 2 8/8/3c,3o,6c,6o,7c,12c,12o,12b 6b:turned:0:0,1 - 15 gave:-,-,6b",
         "turned from the stock"),
        ("megajogos spanish 0 2 1o,3e,3b,6e,7b,10c,11c,11o/5[5c,5o,5b]/8 6b:paid:1:- - 15 gave:5c,-,6b",
         "paid by player 1"),
        ("megajogos spanish 0 2 3e,3b,6e,7b,10c,11c,11o,12e/4[5c,5o,5b,5e]/8 6b:paid:1:- 1o 14 "
         "gave:5c,-,1o paid:-/1o,6b/-", "paid by player 1"),
        ("classic french 0 1 3C[4S,4H,4D][JS,JH,JC][KS,KD,KC]/7[AH,AD,AC] 7S:paid:0:- QH,6S 17 "
         "paid:6S,QH,7S/JS", "QH died before 6S"),
    ],
)
def test_histories_that_cannot_happen_in_notation(text: str, message: str) -> None:
    from analyzer.formats.notation import parse_notation

    with pytest.raises(ConquianError, match=message):
        parse_notation(text)
    if "gave:" in text:  # named at the seat's part of the field that says it (not 'players[0].gave')
        with pytest.raises(ConquianError, match=r"^notation field 'gave' at column \d+: ") as info:
            parse_notation(text)
        column, card = re.match(r".* at column (\d+): (\S+) ", str(info.value)).groups()  # type: ignore[union-attr]
        gave = text.index("gave:")
        assert text.index(card, gave) == int(column) - 1  # the card named, in 'gave:'

    code, out, err = run("analyze", text)
    assert code == 1 and one_error_line(err) and message in err


def test_wrapper_notation_without_paid_describes_the_same_position(tmp_path: Path) -> None:
    code, out, err = run("notation", json.dumps(_classic_with_history()), "--json")
    if code != 0:  # the notation command reads a file or notation: write the JSON to a file
        path = tmp_path / "p.json"
        path.write_text(json.dumps(_classic_with_history()), encoding="utf-8")
        code, out, err = run("notation", str(path), "--json")
    assert code == 0, err
    wrapper = json.loads(out)
    assert " paid:" in wrapper["notation"]
    wrapper["notation"] = wrapper["notation"].rpartition(" paid:")[0]
    path = tmp_path / "w.json"
    path.write_text(json.dumps(wrapper), encoding="utf-8")
    code, out, err = run("analyze", str(path))
    assert code == 0, err
    # A notation that gives another history than its position is refused.
    notation = json.loads(json.dumps(wrapper))
    state = load_position(notation["position"])
    payer = next(q for q, cards in enumerate(state.paid) if cards)
    fewer = tuple(c if q != payer else c[1:] for q, c in enumerate(state.paid))
    from analyzer.formats.notation import format_notation

    notation["notation"] = format_notation(state.evolve(paid=fewer)) if any(fewer) else (
        notation["notation"] + " paid:" + "/".join("-" for _ in state.paid)
    )
    path.write_text(json.dumps(notation), encoding="utf-8")
    code, out, err = run("analyze", str(path))
    assert code == 1 and "does not describe the same position" in err
    # 'paid:-/-' (nobody paid) is a history given, not the absence of one.
    notation["notation"] = wrapper["notation"] + " paid:" + "/".join("-" for _ in state.paid)
    path.write_text(json.dumps(notation), encoding="utf-8")
    code, out, err = run("analyze", str(path))
    assert code == 1 and "does not describe the same position" in err
    assert "its 'paid:' history is not the players' 'paid'" in err
    bare = json.loads(json.dumps(notation))
    for entry in bare["position"]["players"]:
        entry.pop("paid", None)
    path.write_text(json.dumps(bare), encoding="utf-8")
    code, out, err = run("analyze", str(path))
    assert code == 0, err  # no history on either side: the same


def test_closed_standard_streams_are_one_error_line() -> None:
    import subprocess
    import sys

    cmd = "import sys; from cli.main import main; sys.exit(main())"
    closed_out = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -c "{cmd}" variants >&-'], capture_output=True, text=True, timeout=120
    )
    assert closed_out.returncode == 1 and "Traceback" not in closed_out.stderr
    assert "standard output is closed" in closed_out.stderr
    closed_in = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -c "{cmd}" analyze - <&-'], capture_output=True, text=True, timeout=120
    )
    assert closed_in.returncode == 1 and "Traceback" not in closed_in.stderr
    assert "standard input is closed" in closed_in.stderr


def test_hint_read_with_nothing_to_read_says_so() -> None:
    code, out, err = run("hint", "examples/positions/forcing.json", "--read", "--samples", "2")
    assert code == 0, err
    assert "Nothing to read" in out
    code, out, err = run("hint", "examples/positions/forcing.json", "--samples", "2")
    assert code == 0 and "Nothing to read" not in out


def test_sampled_worlds_do_not_depend_on_the_received_card_being_shown() -> None:
    from analyzer.search.sampling import sample_world

    state = _after_exchange(8)
    for me in range(3):
        shown = view(state, me)
        hidden = shown.evolve(gave=tuple(g if q == me else None for q, g in enumerate(shown.gave)))
        a = sample_world(shown, me, random.Random(4), ordered=True)
        b = sample_world(hidden, me, random.Random(4), ordered=True)
        assert a.hands == b.hands and a.stock == b.stock
        assert a.gave[(me - 1) % 3] == state.gave[(me - 1) % 3]  # the shown pass is kept


def test_a_card_paid_twice_is_named_before_the_count_it_makes_too_high() -> None:
    # 'paid:AD,QH/JS,JS' names the card paid twice, not the take count it makes too high.
    text = ("classic french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD "
            "5C:turned:0:0 7D 18 paid:-/7D,7D")  # fmt: skip
    from analyzer.formats.notation import parse_notation

    # A notation has no key 'players[1].paid': its field and the seat's column are named.
    column = text.index("7D,7D") + 1
    with pytest.raises(ConquianError, match=rf"^notation field 'paid' at column {column}: 7D is listed twice; a card is paid once"):
        parse_notation(text)
    with pytest.raises(ConquianError, match=rf"^notation field 'paid' at column {column}: player 1's part lists 1 card, but with 0 cards melded"):
        parse_notation(text.replace("7D,7D", "7D"))
    code, _, err = run("analyze", text)
    assert code == 1 and one_error_line(err) and f"notation field 'paid' at column {column}: 7D is listed twice" in err
