"""The rules engine: hand-built tests of R7-R18 and random-playout conformance."""

from __future__ import annotations

import random

import pytest

from analyzer.core.cards import FULL_DECK, format_mask, mask_of, parse_card, parse_cards
from analyzer.core.errors import IllegalMoveError, PositionError
from analyzer.core.melds import cards_of, is_meld
from analyzer.core.moves import Force, LayIn, Meld, Pass, Take, parse_move
from analyzer.core.dealing import deal, view
from analyzer.core.plain import dump_position
from analyzer.formats.position import load_position
from analyzer.core.rules import CLASSIC, MEGAJOGOS, PRESETS, Rearrange, Rules
from analyzer.core.state import GameState, Offer, Phase, offer_order

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")


def C(text: str) -> int:
    return parse_card(text)


def M(text: str) -> int:
    return mask_of(parse_cards(text))


def position(**overrides: object) -> dict[str, object]:
    """Worked example 5 (classic, forcing) with player 1's hand known."""
    data: dict[str, object] = {
        "variant": "classic",
        "dealer": 1,
        "to_act": 1,
        "players": [
            {"hand": ["KH", "KS"], "layout": [["AC", "2C", "3C", "4C"], ["4S", "5S", "6S", "7S"]]},
            {"hand": ["AH", "2H", "2D", "3D", "5D", "6H", "3S", "JD", "QD", "QH"], "layout": []},
        ],
        "stock": 18,
        "dead": ["7D"],
        "centre": {"card": "5C", "kind": "turned", "source": 0, "declined": [0]},
    }
    data.update(overrides)
    return data


PLAYOUTS = 2000


def check_invariants(state: GameState) -> None:
    """40 distinct cards conserved (R1), layouts valid (R6), counting invariant (R7)."""
    rules = state.rules
    seen = 0
    total = 0
    parts: list[int] = [h for h in state.hands if h is not None]
    parts += [cards_of(layout) for layout in state.layouts]
    parts.append(mask_of(state.stock or ()))
    parts.append(mask_of(state.dead))
    if state.centre is not None:
        parts.append(1 << state.centre.card)
    for part in parts:
        assert not part & seen, "a card is in two places"
        seen |= part
        total += part.bit_count()
    assert seen == FULL_DECK and total == 40
    for p in range(rules.players):
        for meld in state.layouts[p]:
            assert is_meld(meld, rules)
        melded = state.melded(p)
        hand = state.hands[p]
        assert hand is not None and hand.bit_count() == state.counts[p]
        if state.winner == p and state.phase is Phase.OVER and melded == rules.target:
            assert state.counts[p] == 0
        else:
            assert state.counts[p] + melded == rules.hand_size


def random_game(rules: Rules, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    state = deal(rules, seed)
    states = [state]
    while not state.is_terminal():
        moves = state.legal_moves()
        assert moves, state.describe()
        state = state.apply(rng.choice(moves))
        states.append(state)
        assert len(states) < 500, "a deal must end (R19)"
    return states


# Every preset at every player count it allows (R8).
COUNTS = [rules.with_players(n) for rules in PRESETS.values() for n in rules.player_counts]


def _count_id(rules: Rules) -> str:
    return f"{rules.name}-{rules.players}p"


@pytest.mark.parametrize("rules", COUNTS, ids=_count_id)
def test_random_playouts_conform(rules: Rules) -> None:
    """Thousands of seeded random deals, checked after every move."""
    outcomes = set()
    # Fewer at the player counts that are not a preset's own: the same code, other numbers.
    for seed in range(PLAYOUTS if rules in PRESETS.values() else PLAYOUTS // 4):
        states = random_game(rules, seed)
        assert len(set(states)) == len(states), "no state repeats (R19)"
        for state in states:
            check_invariants(state)
        final = states[-1]
        assert final.is_terminal() and final.legal_moves() == []
        outcomes.add(final.winner)
        if seed % 50 == 0:
            # Positions and views round-trip through JSON losslessly.
            for state in states[:: max(1, len(states) // 5)]:
                assert load_position(dump_position(state)) == state
                mine = view(state, seed % rules.players)
                assert load_position(dump_position(mine)) == mine
    assert outcomes == set(range(rules.players)) | {None}


def test_offer_order_r11() -> None:
    assert offer_order(CLASSIC, Offer(0, "turned", 1)) == (1, 0)
    assert offer_order(CLASSIC, Offer(0, "paid", 1)) == (0,)
    assert offer_order(MEGAJOGOS, Offer(0, "turned", 2)) == (2, 0, 1)
    assert offer_order(MEGAJOGOS, Offer(0, "paid", 2)) == (0, 1)


def test_first_turn_is_after_dealer_r10() -> None:
    state = deal(CLASSIC, 5, dealer=1)
    assert state.phase is Phase.TURN and state.to_act == 0 and state.is_chance_node()
    (turn, prob), = state.chance_outcomes()
    assert prob == 1.0 and turn.card == state.stock[0]  # type: ignore[index]
    after = state.apply(turn)
    assert after.centre == Offer(turn.card, "turned", 0) and after.to_act == 0


def test_forcing_example_5_r14() -> None:
    state = load_position(position())
    assert [str(m) for m in state.legal_moves()] == ["force 0", "pass"]
    forced = state.apply(Force(0))
    assert forced.phase is Phase.FORCED and forced.to_act == 0
    lay_ins = forced.legal_moves()
    assert {str(m) for m in lay_ins} == {
        "lay [AC 2C 3C 4C 5C] [4S 5S 6S 7S] pay KS",
        "lay [AC 2C 3C 4C 5C] [4S 5S 6S 7S] pay KH",
    }
    after = forced.apply(lay_ins[0])
    assert after.melded(0) == 9 and after.counts[0] == 1
    # The forced player's pay is offered to the opponent (R11).
    assert after.centre == Offer(C("KS"), "paid", 0) and after.to_act == 1


def test_force_needs_a_fit_and_a_decline_r14() -> None:
    # 5C does not fit a layout without clubs: no force.
    data = position(centre={"card": "5D", "kind": "turned", "source": 0, "declined": [0]})
    data["players"][1]["hand"] = ["AH", "2H", "2D", "3D", "5C", "6H", "3S", "JD", "QD", "QH"]  # type: ignore[index]
    state = load_position(data)
    assert all(not isinstance(m, Force) for m in state.legal_moves())
    # classic: the turner, before anyone declined, cannot force (after_decline).
    first = load_position(position(to_act=0, centre={"card": "5C", "kind": "turned", "source": 0, "declined": []}))
    assert not any(isinstance(m, Force) for m in first.legal_moves())


def test_megajogos_turner_may_force_at_once_r14() -> None:
    # Player 1 laid 1c 2c 3c from his hand (R16) while a card was offered to him: the three cards
    # turned by players 0, 1 and 2 in turn and passed by all are dead (R17), and player 0, after
    # the last turner, turns 4c. (With 4c the deal's first card, player 1, offered it after
    # player 0, could not have melded yet: R10, R16.)
    data = {
        "variant": "megajogos",
        "dealer": 2,
        "to_act": 0,
        "players": [
            {"hand": ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o"], "layout": []},
            {"hand": ["1b", "2b", "3b", "4b", "5b"], "layout": [["1c", "2c", "3c"]]},
            {"hand": ["5e", "6e", "7e", "10e", "11e", "12e", "12o", "12b"], "layout": []},
        ],
        "stock": 12,
        "dead": ["10c", "11c", "12c"],
        "centre": {"card": "4c", "kind": "turned", "source": 0, "declined": []},
    }
    state = load_position(data)
    assert Force(1) in state.legal_moves()
    # R16: hand-only melds may be laid first.
    melds = [m for m in state.legal_moves() if isinstance(m, Meld)]
    assert melds and all(m.meld & state.hand(0) == m.meld for m in melds)
    after = state.apply(melds[0])
    assert after.to_act == 0 and after.phase is Phase.OFFER and after.melded(0) == melds[0].meld.bit_count()
    # A paid card is never forced back on its payer (R14 any_offer).
    paid = dict(data, to_act=2, centre={"card": "4c", "kind": "paid", "source": 1, "declined": []})
    assert Force(1) not in load_position(paid).legal_moves()


def test_take_rearranges_own_layout_r13() -> None:
    data = position(to_act=0, centre={"card": "5H", "kind": "turned", "source": 0, "declined": []})
    data["players"] = [
        {"hand": ["JS", "JD", "AC", "3D", "KS", "QC", "2C"], "layout": [["6H", "7H", "JH"]]},
        {"hand": ["AH", "2H", "3H", "4S", "5S", "6S", "7C", "KD", "KC", "QS"], "layout": []},
    ]
    data["dead"] = ["4D", "2D"]
    data["stock"] = 17
    state = load_position(data)
    move = parse_move("take [5H 6H 7H] [JS JH JD] pay KS")
    after = state.apply(move)
    assert after.layouts[0] == (M("5H 6H 7H"), M("JS JH JD"))
    assert after.counts[0] == 4 and after.melded(0) == 6
    assert after.centre == Offer(C("KS"), "paid", 0)
    # Old melded cards must stay melded: dropping JH is illegal.
    with pytest.raises(IllegalMoveError):
        state.apply(parse_move("take [5H 6H 7H] pay KS"))


def test_illegal_move_names_move_and_position_and_keeps_state() -> None:
    state = load_position(position())
    before = dump_position(state)
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move("take [5C 6C 7C] pay KH"))
    assert "take [5C 6C 7C] pay KH" in str(info.value) and "player 1 to act" in str(info.value)
    assert dump_position(state) == before


def test_a_move_text_that_cannot_be_read_is_invalid_not_illegal() -> None:
    # As python-chess: a syntax error is InvalidMoveError, a readable move that the position
    # refuses is IllegalMoveError itself; 'except IllegalMoveError' catches both.
    import analyzer
    from analyzer.core.errors import InvalidMoveError

    assert "InvalidMoveError" in analyzer.__all__ and analyzer.InvalidMoveError is InvalidMoveError
    assert issubclass(InvalidMoveError, IllegalMoveError)
    for text in ("take [5C", "take [] pay AH", "take [5H 6H 7H] pay", "force x", "take [5H 9z] out", "fly"):
        with pytest.raises(InvalidMoveError):
            parse_move(text)
    with pytest.raises(InvalidMoveError, match="not a Take move"):
        Take.parse("pass")
    state = load_position(position())
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move("take [5C 6C 7C] pay KH"))
    assert type(info.value) is IllegalMoveError


def test_dead_card_and_next_turner_r17() -> None:
    state = load_position(position())
    after = state.apply(Pass())
    assert after.phase is Phase.TURN and after.dead[-1] == C("5C")
    assert after.to_act == 1  # the player after the card's source turns next


def test_stock_out_r18() -> None:
    full = load_position(position())
    rest = FULL_DECK & ~full.known_mask()
    data = position(stock=0, dead=["7D", *format_mask(rest).split()])
    state = load_position(data)
    assert len(state.dead) == 19
    over = state.apply(Pass())
    assert over.is_terminal() and over.winner is None and over.returns() == (0.0, 0.0)


def test_going_out_by_force_r15() -> None:
    data = position(to_act=1, centre={"card": "5S", "kind": "turned", "source": 0, "declined": [0]})
    data["players"] = [
        {"hand": [], "layout": [["AS", "2S", "3S", "4S"], ["5H", "5D", "5C"], ["KS", "KH", "KD"]]},
        {"hand": ["AH", "2H", "3H", "6C", "7D", "JD", "QD", "QC", "2C", "3C"], "layout": []},
    ]
    data["dead"] = ["6H", "7H", "JC", "QH", "6D"]
    data["stock"] = 14
    state = load_position(data)
    forced = state.apply(Force(0))
    (lay,) = forced.legal_moves()
    assert isinstance(lay, LayIn) and lay.pay is None
    over = forced.apply(lay)
    assert over.is_terminal() and over.winner == 0 and over.returns() == (1.0, -1.0)


def test_take_must_keep_a_card_or_go_out_r7() -> None:
    state = load_position(position(to_act=0, centre={"card": "KD", "kind": "turned", "source": 0, "declined": []}))
    takes = [m for m in state.legal_moves() if isinstance(m, Take)]
    assert takes and all(m.pay is None for m in takes)  # KD KH KS uses the whole hand: going out
    over = state.apply(takes[0])
    assert over.winner == 0 and over.melded(0) == CLASSIC.target


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"stock": 19}, "add up to 41"),
        ({"variant": "rummy"}, "unknown variant"),
        ({"to_act": 0}, "R11"),
        ({"centre": {"card": "5C", "kind": "turned", "source": 0, "declined": [1]}}, "R11"),
        ({"dead": ["KH"]}, "duplicate card"),
        ({"dead": ["9H"]}, "not a card"),
        ({"centre": {"card": "5C", "kind": "dealt", "source": 0}}, "kind"),
    ],
)
def test_impossible_positions_are_refused(change: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError) as info:
        load_position(position(**change))
    assert needle in str(info.value)


def test_bad_layout_meld_is_refused_r5() -> None:
    data = position()
    data["players"][0]["layout"] = [["AC", "2C", "3C", "4C"], ["4S", "5S", "7S", "6H"]]  # type: ignore[index]
    with pytest.raises(PositionError, match="not a legal meld"):
        load_position(data)


def test_view_hides_other_hands_and_stock_order() -> None:
    state = deal(CLASSIC, 11)
    mine = view(state, 0)
    assert mine.hands[0] == state.hands[0] and mine.hands[1] is None
    assert mine.stock is None and mine.counts == state.counts
    assert load_position(dump_position(mine)) == mine
    with pytest.raises(PositionError):
        view(state, 2)


def test_megajogos_exchange_is_simultaneous_r9() -> None:
    state = deal(MEGAJOGOS, 3, dealer=0)
    assert state.phase is Phase.EXCHANGE and state.to_act == 1
    hands = state.hands
    gifts = {}
    for _ in range(3):
        p = state.to_act
        move = state.legal_moves()[0]
        gifts[p] = move.card  # type: ignore[union-attr]
        state = state.apply(move)
        if state.phase is Phase.EXCHANGE:
            assert state.hands == hands  # nothing moves until everyone has chosen
    assert state.phase is Phase.TURN and state.to_act == 1
    for p in range(3):
        giver = (p - 1) % 3
        assert state.hands[p] >> gifts[giver] & 1  # type: ignore[operator]
        assert not state.hands[p] >> gifts[p] & 1  # type: ignore[operator]


def borrowed_as_foster_allows(old: tuple[int, ...], new: tuple[int, ...]) -> bool:
    """R13a by card lists: each old meld's cards sit in new melds so that one new meld holds
    three or more of them in a row of ranks (or three of a set of four), no other new meld holds
    two, and no new meld holds the rest of two old melds."""

    def rank_of(card: int) -> int:
        return card // 4  # card index (rank - 1) * 4 + suit

    def items(mask: int) -> list[int]:
        return [c for c in range(40) if mask >> c & 1]

    used_homes = []
    for meld in old:
        cards = items(meld)
        counts = [sum(1 for c in cards if part >> c & 1) for part in new]
        homes = [k for k, n in enumerate(counts) if n >= 2]
        if len(homes) != 1:
            return False
        home = homes[0]
        kept = [c for c in cards if new[home] >> c & 1]
        ranks = sorted(rank_of(c) for c in cards)
        kept_ranks = sorted(rank_of(c) for c in kept)
        if len(set(ranks)) == 1:  # a set: one card of four may go
            if len(cards) - len(kept) > (1 if len(cards) == 4 else 0):
                return False
        elif len(kept) < len(cards):  # a run: what stays is three or more in a row
            if len(kept) < 3 or kept_ranks != list(range(kept_ranks[0], kept_ranks[0] + len(kept))):
                return False
        used_homes.append(home)
    return len(used_homes) == len(set(used_homes))


def brute_force_takes(state: GameState) -> set[tuple[int, int | None, object]]:
    """(hand cards used, pay, lay-off exposure) of every take, by plain subset enumeration (R13);
    under borrowing (R13a) the layout itself instead of its exposure; none for a payer offered
    his own card (R14a)."""
    from itertools import combinations

    from analyzer.core.melds import arrangements, can_meld_all, layoff_mask

    assert state.centre is not None
    if state.centre.kind == "paid" and state.centre.source == state.to_act:
        return set()
    borrow = state.rules.rearrange is Rearrange.BORROW
    old = state.layouts[state.to_act]
    hand = state.hand(state.to_act)
    base = cards_of(state.layouts[state.to_act]) | 1 << state.centre.card
    cards = [c for c in range(40) if hand >> c & 1]
    out: set[tuple[int, int | None, object]] = set()
    for size in range(len(cards) + 1):
        for used in combinations(cards, size):
            used_mask = mask_of(used)
            if not can_meld_all(base | used_mask, state.rules):
                continue
            rest = hand & ~used_mask
            for layout in arrangements(base | used_mask, state.rules):
                if borrow and not borrowed_as_foster_allows(old, layout):
                    continue
                key: object = tuple(sorted(layout)) if borrow else layoff_mask(layout, state.rules)
                if not rest:
                    out.add((used_mask, None, 0))
                for pay in (c for c in cards if rest >> c & 1):
                    out.add((used_mask, pay, key))
    return out


@pytest.mark.parametrize("rules", COUNTS, ids=_count_id)
def test_take_generator_matches_subset_enumeration(rules: Rules) -> None:
    from analyzer.core.melds import layoff_mask

    checked = 0
    for seed in range(25):
        for state in random_game(rules, 1000 + seed):
            if state.phase is not Phase.OFFER:
                continue
            takes = [m for m in state.legal_moves() if isinstance(m, Take)]
            base = cards_of(state.layouts[state.to_act]) | 1 << state.centre.card  # type: ignore[union-attr]
            hand = state.hand(state.to_act)
            borrow = rules.rearrange is Rearrange.BORROW
            got = {
                (
                    cards_of(t.layout) & hand,
                    t.pay,
                    0
                    if t.pay is None
                    else tuple(sorted(t.layout))
                    if borrow
                    else layoff_mask(t.layout, rules),
                )
                for t in takes
            }
            assert len(got) == len(takes), "no duplicate takes"
            assert got == brute_force_takes(state)
            for t in takes:
                assert cards_of(t.layout) & base == base and all(is_meld(m, rules) for m in t.layout)
            checked += 1
    assert checked > 100


def test_deal_r8() -> None:
    for rules in (CLASSIC, MEGAJOGOS):
        a, b = deal(rules, 77), deal(rules, 77)
        assert a == b, "the same seed gives the same deal"
        assert deal(rules, 78) != a
        assert a.counts == (rules.hand_size,) * rules.players
        assert a.stock_count == rules.stock_size == len(a.stock or ())
        check_invariants(a)
    # One card at a time from the player after the dealer: he gets the first card dealt.
    rng = random.Random(5)
    deck = list(range(40))
    rng.randrange(2)
    rng.shuffle(deck)
    dealt = deal(CLASSIC, random.Random(5))
    first = (dealt.dealer + 1) % 2
    assert dealt.hands[first] >> deck[0] & 1 and dealt.hands[1 - first] >> deck[1] & 1  # type: ignore[operator]


def test_choices_when_offered_r12() -> None:
    state = load_position(position(to_act=0, centre={"card": "KD", "kind": "turned", "source": 0, "declined": []}))
    kinds = {type(m).__name__ for m in state.legal_moves()}
    assert kinds == {"Take", "Pass"}  # classic: no force before a decline, no hand melds (R16)
    assert isinstance(state.legal_moves()[-1], Pass)


def test_classic_has_no_hand_melds_r16() -> None:
    data = position()
    data["players"][1]["hand"] = ["AH", "2H", "3H", "5D", "6D", "7D", "3S", "JD", "QD", "QH"]  # type: ignore[index]
    data["dead"] = ["2D"]
    state = load_position(data)
    assert not any(isinstance(m, Meld) for m in state.legal_moves())
    with pytest.raises(IllegalMoveError):
        state.apply(Meld(M("AH 2H 3H")))


def test_paid_card_declined_by_opponent_r17() -> None:
    # classic: a paid card is offered to the opponent only; if he declines, he turns next.
    state = load_position(position(to_act=1, centre={"card": "KS", "kind": "paid", "source": 0, "declined": []},
                                   players=[{"hand": ["KH"], "layout": [["AC", "2C", "3C", "4C", "5C"], ["4S", "5S", "6S", "7S"]]},
                                            {"hand": ["AH", "2H", "2D", "3D", "5D", "6H", "3S", "JD", "QD", "QH"], "layout": []}]))
    assert Force(0) not in state.legal_moves()  # the payer cannot be forced with his own card
    after = state.apply(Pass())
    assert after.phase is Phase.TURN and after.to_act == 1 and after.dead[-1] == C("KS")


def test_megajogos_turn_declined_by_all_r17() -> None:
    data = {
        "variant": "megajogos",
        "dealer": 0,
        "players": [
            {"hand": ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o"], "layout": []},
            {"hand": ["1b", "2b", "3b", "4b", "5b", "6b", "7b", "10b"], "layout": []},
            {"hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "10c"], "layout": []},
        ],
        "stock": 15,
        "centre": {"card": "12e", "kind": "turned", "source": 1, "declined": []},
    }
    state = load_position(data)
    assert state.to_act == 1
    for expected in (2, 0):
        state = state.apply(Pass())
        assert state.to_act == expected
    state = state.apply(Pass())
    assert state.phase is Phase.TURN and state.to_act == 2  # the player after the turner


def test_stock_out_fewest_in_hand_r18() -> None:
    base = {
        "variant": "megajogos",
        "dealer": 0,
        "players": [
            {"hand": ["1o", "2o", "3o", "4o", "5o"], "layout": [["1b", "2b", "3b"]]},
            {"hand": ["6b", "7b", "10b", "11b", "12b", "6o", "7o", "10o"], "layout": []},
            {"hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "10c"], "layout": []},
        ],
        "stock": 0,
        "centre": {"card": "12e", "kind": "turned", "source": 1, "declined": [1, 2]},
        "to_act": 0,
    }
    known = set()
    for p in base["players"]:  # type: ignore[attr-defined]
        known |= set(p["hand"]) | {c for meld in p["layout"] for c in meld}
    from analyzer.core.cards import Labels, format_card

    dead = [format_card(i, Labels.SPANISH) for i in range(40)]
    dead = [c for c in dead if c not in known and c != "12e"]
    state = load_position({**base, "dead": dead})
    over = state.apply(Pass())
    assert over.is_terminal() and over.winner == 0  # 5 cards in hand against 8 and 8
    # A tie for the fewest is a draw.
    tied = dict(base)
    tied["players"] = [
        {"hand": ["1o", "2o", "3o", "4o", "5o"], "layout": [["1b", "2b", "3b"]]},
        {"hand": ["6b", "7b", "10b", "11b", "12b"], "layout": [["6o", "7o", "10o"]]},
        {"hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "10c"], "layout": []},
    ]
    assert load_position({**tied, "dead": dead}).apply(Pass()).winner is None


# --------------------------------------------------- run_forced (the search's fast path)
def _step_forced(state: GameState, limit: int) -> tuple[GameState, int]:
    """The reference of :meth:`GameState.run_forced`: apply the one legal move while there is
    exactly one, through turns with the stock order known and offers (R10-R12, R17, R18)."""
    steps = 0
    while steps < limit and state.phase in (Phase.TURN, Phase.OFFER) and None not in state.hands:
        if state.phase is Phase.TURN and state.stock is None:
            break
        if state.centre is not None and state.centre.forced is not None:
            break
        moves = state.legal_moves()
        if len(moves) != 1:
            break
        state = state.apply(moves[0])
        steps += 1
    return state, steps


@pytest.mark.parametrize("variant", ["classic", "megajogos", "classic-any-offer", "megajogos-rearrange"])
def test_run_forced_equals_applying_the_single_moves(variant: str) -> None:
    """Passing dead offers without building them changes nothing (R10-R18): on random
    deals of both presets and two variations of the forcing rules (R14), from every
    position of random play, with several limits, the position reached and the count of
    positions passed equal stepping through the single legal moves one by one."""
    import dataclasses

    from analyzer.core.rules import ForceFit, ForceWhen

    rules = {
        "classic": CLASSIC,
        "megajogos": MEGAJOGOS,
        "classic-any-offer": dataclasses.replace(CLASSIC, force_when=ForceWhen.ANY_OFFER),
        "megajogos-rearrange": dataclasses.replace(MEGAJOGOS, force_fit=ForceFit.REARRANGE),
    }[variant]
    rng = random.Random(11)
    checked = passed = 0
    for k in range(25):
        state = deal(rules, k)
        while not state.is_terminal():
            for limit in (0, 1, 2, 3, 7, 10_000):
                fast = state.run_forced(limit)
                assert fast == _step_forced(state, limit), (variant, k, limit, state.describe())
                checked += 1
                passed += fast[1]
            state = state.apply(rng.choice(state.legal_moves()), check=False)
    assert checked > 1000 and passed > 1000  # the comparison covered long runs


def test_run_forced_leaves_hidden_hands_and_unknown_stock_alone() -> None:
    """A view (a hidden hand) and a turn from a stock of unknown order are not followed."""
    state = deal("classic", 3)
    assert state.phase is Phase.TURN
    assert view(state, 0).run_forced(100) == (view(state, 0), 0)
    unordered = state.evolve(stock=None)
    assert unordered.run_forced(100) == (unordered, 0)


def test_near_cards_equal_the_catalog() -> None:
    """The bit formula of the cards that complete a meld with a pool of cards equals the
    catalog's melds that lack exactly one card (R4, R5), for both presets' run caps."""
    from analyzer.core.melds import catalog
    from analyzer.core.legal import near_cards

    rng = random.Random(5)
    for _ in range(3000):
        pool = mask_of(rng.sample(range(40), rng.randint(0, 30)))
        for rules in (CLASSIC, MEGAJOGOS):
            expected = 0
            for meld in catalog(rules):
                missing = meld & ~pool
                if missing and not missing & (missing - 1):
                    expected |= missing
            assert near_cards(pool) == expected, format_mask(pool)
