"""Records from one player's view (docs/record-format.md, View records): the deal as he saw it,
replayed by analyzer.core.seen.ViewPlay and checked against what he knows (R1, R7, R9)."""

from __future__ import annotations

import json

import pytest

from analyzer.analysis.review import review_record
from analyzer.bots.game import play_game
from analyzer.core.dealing import view
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Give
from analyzer.core.rules import get_rules
from analyzer.core.seen import UnseenGive, ViewPlay, parse_seen_move
from analyzer.formats.records import RecordError, record_lines, replay_lines, view_lines

pytestmark = pytest.mark.usefixtures("both_cores")

CASES = [
    ("classic", 2),
    ("megajogos", 2),
    ("megajogos", 3),
    ("megajogos", 4),
    ("mexican", 3),
    ("mexican_9_10", 4),
    ("hoyle1897", 2),
    ("cooncan1913", 2),
]


def _game(name: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    rules = get_rules(name)
    if players != rules.players:
        rules = rules.with_options({"players": players})
    return play_game(rules, ["greedy"] * players, seed)


def _full_lines(game) -> list[str]:  # type: ignore[no-untyped-def]
    return record_lines(game.start, list(game.moves), game.final)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_view_replay_is_the_view_of_the_full_deal_at_every_move(name: str, players: int) -> None:
    for seed in range(2):
        game = _game(name, players, seed)
        for viewer in range(players):
            play = ViewPlay.start(view(game.start, viewer), viewer)
            state = game.start
            for _, move in game.moves:
                hidden = isinstance(move, Give) and state.to_act not in (viewer, (viewer - 1) % players)
                play = play.apply(UnseenGive() if hidden else move)
                state = state.apply(move)
                expected = view(state, viewer)
                assert play.state == expected
                assert play.state.paid == expected.paid  # history: not part of equality
                assert play.state.gave == expected.gave


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("megajogos", 3), ("cooncan1913", 2)])
def test_a_full_record_converts_to_each_view_and_round_trips(name: str, players: int) -> None:
    game = _game(name, players, 3)
    full = replay_lines(_full_lines(game))
    for viewer in range(players):
        lines = view_lines(full, viewer)
        header = json.loads(lines[0])
        assert header["view"] == viewer and header["seed"] is None
        hands = [p["hand"] for p in header["start"]["players"]]
        assert all(isinstance(h, int) for p, h in enumerate(hands) if p != viewer)
        assert isinstance(hands[viewer], list) and isinstance(header["start"]["stock"], int)
        replay = replay_lines(lines)
        assert replay.view == viewer and replay.finished
        assert replay.final.winner == game.final.winner
        assert view_lines(replay, viewer) == lines  # the format round-trips
        unseen = [m for m in replay.moves if isinstance(m, UnseenGive)]
        gives = [m for _, m in game.moves if isinstance(m, Give)]
        # Every pass is seen but those between two other players (R9).
        assert len(unseen) == (len(gives) - 2 if gives else 0)
        with pytest.raises(RecordError, match="view: it hides player"):
            view_lines(replay, (viewer + 1) % players)


def _view_record(name: str = "classic", seed: int = 1, viewer: int = 0) -> tuple[list[str], object]:
    game = _game(name, get_rules(name).players, seed)
    return view_lines(replay_lines(_full_lines(game)), viewer), game


def _replace_move(lines: list[str], ply: int, text: str) -> list[str]:
    entry = json.loads(lines[ply])
    entry["move"] = text
    return [*lines[:ply], json.dumps(entry), *lines[ply + 1 :]]


def _first(lines: list[str], test) -> int:  # type: ignore[no-untyped-def]
    for k, line in enumerate(lines[1:], 1):
        entry = json.loads(line)
        if "move" in entry and test(entry):
            return k
    raise AssertionError("no such move")


def test_a_card_shown_twice_is_refused_naming_the_move_and_the_rule() -> None:
    lines, _ = _view_record()
    start = json.loads(lines[0])["start"]
    mine = start["players"][0]["hand"][0]
    # The first turn shows a card the viewer holds.
    k = _first(lines, lambda e: e["move"].startswith("turn"))
    with pytest.raises(RecordError, match=rf"line {k + 1} \(move {k}\).*{mine} cannot be turned: it is in your hand.*R1"):
        replay_lines(_replace_move(lines, k, f"turn {mine}"))


def test_a_card_later_shown_by_another_player_is_fine_and_counts_are_checked() -> None:
    lines, _ = _view_record(seed=2)
    k = _first(lines, lambda e: e["player"] == 1 and e["move"].startswith("take"))
    replay = replay_lines(lines[: k + 1])
    before = replay.states[-1]
    assert before.hands[1] is None  # the cards of player 1's take were never seen before it
    assert replay.final.counts[1] < before.counts[1]
    # A take showing a card already dead is refused (R1).
    if replay.final.dead:
        from analyzer.core.cards import format_card

        card = format_card(replay.final.dead[0], replay.start.rules.labels)
        text = json.loads(lines[k])["move"]
        pay = text.rsplit(" ", 1)[1]
        if pay != "out":
            with pytest.raises(RecordError, match=rf"{card} cannot be shown by player 1: it is a dead card"):
                replay_lines(_replace_move(lines, k, text[: -len(pay)] + card))


def test_a_hidden_player_cannot_show_more_cards_than_he_holds() -> None:
    # Player 1 holds one card (R7: 9 melded + 1); a take that shows three of his is refused.
    # Reachable (R10, R13, R17): he turned the first card and took it with 8 hand cards, paying
    # KS, which player 0 passed; player 0 turned KC, which both passed; player 1 turned 5C.
    start = {
        "variant": "classic", "dealer": 0, "to_act": 0,
        "players": [
            {"hand": ["AH", "2H", "3D", "4D", "6D", "7D", "JH", "QH", "JS", "QS"], "layout": []},
            {"hand": 1, "layout": [["AC", "2C", "3C"], ["4S", "5S", "6S"], ["JD", "QD", "KD"]]},
        ],
        "stock": 17, "dead": ["KS", "KC"], "centre": {"card": "5C", "kind": "turned", "source": 1, "declined": [1]},
    }  # fmt: skip
    header = {"format": "conquian-record", "view": 0, "start": start}
    move = {"player": 0, "move": "pass"}
    lines = [json.dumps(header), json.dumps(move)]
    replay = replay_lines(lines)
    assert replay.final.phase == "turn"
    lines[1] = json.dumps({"player": 0, "move": "force 1"})
    with pytest.raises(RecordError):  # 5C does not fit player 1's layout (R14)
        replay_lines(lines)
    start["centre"] = {"card": "5C", "kind": "turned", "source": 1, "declined": []}
    start["to_act"] = 1
    take = "take [AC 2C 3C] [4S 5S 6S] [JD QD KD] [5H 5D 5C] pay 6H"
    lines = [json.dumps({**header, "start": start}), json.dumps({"player": 1, "move": take})]
    with pytest.raises(RecordError, match=r"player 1 holds 1 card and this move shows 3 from his hand \(R7\)"):
        replay_lines(lines)
    ok = "take [AC 2C 3C] [4S 5S 6S] [JD QD KD] pay 6H"  # 5C melds nowhere: illegal (R13)
    lines[1] = json.dumps({"player": 1, "move": ok})
    with pytest.raises(RecordError, match=r"move 1.*illegal move"):
        replay_lines(lines)
    lines[1] = json.dumps({"player": 1, "move": "take [AC 2C 3C] [4S 5S 6S] [JD QD KD] [5S 5D 5C] pay 6H"})
    with pytest.raises(RecordError, match=r"move 1"):  # 5S twice in the layout
        replay_lines(lines)


def test_exchange_passes_unseen_and_seen() -> None:
    lines, _ = _view_record("megajogos", seed=5, viewer=1)
    gives = [k for k in range(1, len(lines)) if json.loads(lines[k]).get("move", "").startswith("give")]
    players = [json.loads(lines[k])["player"] for k in gives]
    texts = {p: json.loads(lines[k])["move"] for p, k in zip(players, gives, strict=True)}
    assert texts[2] == "give ?" and texts[0] != "give ?" and texts[1] != "give ?"
    # The pass made to the viewer must be named; another player's pass cannot be.
    k0 = gives[players.index(0)]
    with pytest.raises(RecordError, match=r"passes his card to you .*name it.*R9"):
        replay_lines(_replace_move(lines, k0, "give ?"))
    k2 = gives[players.index(2)]
    with pytest.raises(RecordError, match=r"cannot have seen it; write 'give \?' \(R9\)"):
        replay_lines(_replace_move(lines, k2, texts[0]))
    k1 = gives[players.index(1)]
    with pytest.raises(RecordError, match=r"name the card you pass \(R9\)"):
        replay_lines(_replace_move(lines, k1, "give ?"))


def test_a_view_start_must_hide_the_other_hands_and_the_stock_order() -> None:
    game = _game("classic", 2, 6)
    full = json.loads(_full_lines(game)[0])
    header = {**full, "view": 0}
    with pytest.raises(RecordError, match="hides the stock order"):
        replay_lines([json.dumps(header)])
    start = json.loads(view_lines(replay_lines(_full_lines(game)), 0)[0])["start"]
    start["players"][1]["hand"] = full["start"]["players"][1]["hand"]
    with pytest.raises(RecordError, match="hides the other hands"):
        replay_lines([json.dumps({**header, "start": start})])
    with pytest.raises(RecordError, match="no player 5"):
        replay_lines([json.dumps({**header, "view": 5, "start": start})])


def test_parse_seen_move_reads_an_unseen_pass() -> None:
    assert isinstance(parse_seen_move("Give ?"), UnseenGive)
    assert isinstance(parse_seen_move("give  ?"), UnseenGive)
    assert parse_seen_move("give 7H") == Give(parse_seen_move("give 7H").card)  # type: ignore[union-attr]
    with pytest.raises(ConquianError):
        parse_seen_move("give")


def test_the_view_review_of_a_full_record_gives_that_players_marks() -> None:
    game = _game("classic", 2, 8)
    full = replay_lines(_full_lines(game))
    whole = review_record(full, samples=4, seed=3)
    for viewer in range(2):
        mine = review_record(full, samples=4, seed=3, view=viewer)
        assert mine.view == viewer
        assert all(m.player == viewer for m in mine.moves)
        expected = [(m.ply, m.move, m.best, m.label, m.win_played) for m in whole.moves if m.player == viewer]
        assert [(m.ply, m.move, m.best, m.label, m.win_played) for m in mine.moves] == expected
        # The same review from the view record itself.
        again = review_record(replay_lines(view_lines(full, viewer)), samples=4, seed=3)
        assert [(m.ply, m.label) for m in again.moves] == [(p, lab) for p, _, _, lab, _ in expected]


def test_a_hidden_players_pay_of_the_centre_card_and_a_lay_in_with_hand_cards_cite_their_rules() -> None:
    # Reachable (R10, R13, R17): player 1 turned the first card and took it with 5 hand cards,
    # paying KS, which player 0 passed; player 0 turned KC, which both passed; player 1 turned 7S.
    start = {
        "variant": "classic", "dealer": 0, "to_act": 1,
        "players": [
            {"hand": ["AH", "2H", "3D", "4D", "6D", "7D", "JH", "QH", "JS", "QS"], "layout": []},
            {"hand": 4, "layout": [["AC", "2C", "3C"], ["4S", "5S", "6S"]]},
        ],
        "stock": 17, "dead": ["KS", "KC"], "centre": {"card": "7S", "kind": "turned", "source": 1, "declined": []},
    }  # fmt: skip
    header = json.dumps({"format": "conquian-record", "view": 0, "start": start})
    paid_centre = json.dumps({"player": 1, "move": "take [AC 2C 3C] [4S 5S 6S 7S] pay 7S"})
    with pytest.raises(RecordError, match=r"player 1 can only pay a card from his hand, and 7S is the centre card \(R13\)"):
        replay_lines([header, paid_centre])
    # Player 1 passes, player 0 forces him (R14): his lay-in adds no hand card.
    lines = [header, json.dumps({"player": 1, "move": "pass"}), json.dumps({"player": 0, "move": "force 1"})]
    assert replay_lines(lines).final.phase == "forced"
    bad = json.dumps({"player": 1, "move": "lay [AC 2C 3C 4C] [4S 5S 6S 7S] pay 6H"})
    with pytest.raises(RecordError, match=r"adds no hand card, and 4C is from player 1's hand \(R14\)"):
        replay_lines([*lines, bad])
    good = json.dumps({"player": 1, "move": "lay [AC 2C 3C] [4S 5S 6S 7S] pay 6H"})
    assert replay_lines([*lines, good]).final.counts[1] == 3
    # A give after the exchange (none in classic) is refused by the rules, never by "player None".
    turn = json.dumps({"player": None, "move": "give 6H"})
    with pytest.raises(RecordError) as caught:
        replay_lines([*lines, good, json.dumps({"player": 0, "move": "pass"}), turn])
    assert "None" not in str(caught.value) and "R10" in str(caught.value)
