"""Answers of the engine commands the web board needs: deal, moves, play, record, review,
examples and puzzle (``docs/engine.md``).

Each function takes parsed values and returns JSON-ready data; :mod:`cli.engine` reads the
request fields and calls them.  Cards are named in ``state.rules.labels`` (R2).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from analyzer.analysis.puzzles import Puzzle, load_puzzle
from analyzer.analysis.review import review_record
from analyzer.bots.deals import deal_position
from analyzer.bots.registry import check_bot, installed_bot
from analyzer.core.cards import Labels, clip, format_card, format_mask, iter_mask, parse_card
from analyzer.core.dealing import view
from analyzer.core.errors import ConquianError, IllegalMoveError, PositionError
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Take, Turn, parse_move
from analyzer.core.offers import Phase
from analyzer.core.plain import dump_position, relabel
from analyzer.core.rules import Rules
from analyzer.core.seen import SeenMove, ViewPlay, parse_seen_move
from analyzer.core.state import GameState
from analyzer.formats.matches import replay_any
from analyzer.formats.notation import format_notation
from analyzer.formats.position import load_position
from analyzer.formats.records import Replay, play_seen, record_lines, replay_lines, view_lines
from analyzer.service.results import review_data

__all__ = [
    "MAX_PLIES",
    "check_bots",
    "deal_data",
    "ending",
    "examples_data",
    "move_entry",
    "moves_data",
    "next_entry",
    "play_data",
    "puzzle_data",
    "read_move",
    "read_record_data",
    "record_data",
    "replay_plies",
    "review_request_data",
    "situation",
    "view_record_data",
]

MAX_PLIES = 400
"""Most moves one ``play`` request plays, or one ``record`` request lists (a deal of 40 cards
ends well before: R19)."""


def move_entry(move: Move, labels: Labels) -> dict[str, Any]:
    """One legal move as the board groups it: ``text``, ``kind`` (take, lay, force, meld, pass,
    give, turn) and its parts: ``layout`` (melds, R13/R14), ``pay`` (``None``: going out, R15),
    ``player`` (forced, R14), ``meld`` (R16) or ``card`` (R9, R10)."""
    entry: dict[str, Any] = {"text": move.text(labels)}
    if isinstance(move, Take | LayIn):
        entry["kind"] = "take" if isinstance(move, Take) else "lay"
        entry["layout"] = [format_mask(m, labels).split() for m in move.layout]
        entry["pay"] = None if move.pay is None else format_card(move.pay, labels)
    elif isinstance(move, Force):
        entry.update(kind="force", player=move.player)
    elif isinstance(move, Meld):
        entry.update(kind="meld", meld=format_mask(move.meld, labels).split())
    elif isinstance(move, Give | Turn):
        entry.update(kind="give" if isinstance(move, Give) else "turn")
        entry["card"] = format_card(move.card, labels)
    else:
        entry["kind"] = "pass"
    return entry


def situation(state: GameState) -> dict[str, Any]:
    """Where a position stands, the keys every board answer about it starts with: ``phase``,
    ``to_act`` (``None`` once over), ``over``, ``winner``, ``ending`` (:func:`ending`) and
    ``description``."""
    return {
        "phase": str(state.phase),
        "to_act": None if state.is_terminal() else state.to_act,
        "over": state.is_terminal(),
        "winner": state.winner,
        "ending": ending(state),
        "description": state.describe(),
    }


def ending(state: GameState) -> str:
    """How a finished deal was won, where going out did not end it: ``"the stock ran out, and
    the fewest cards in hand win (R18)"``; ``""`` for a deal won by going out (R15), a draw, or
    a deal not over."""
    if not state.is_terminal() or state.winner is None:
        return ""
    if state.melded(state.winner) < state.rules.target:
        return "the stock ran out, and the fewest cards in hand win (R18)"
    return ""


def moves_data(state: GameState) -> dict[str, Any]:
    """``moves``: every legal move of the player to act (R12-R16, R9; the turns of the stock,
    R10, when it is a chance node and the stock cards are known), in the engine's order, with
    the ``notation`` of the position after each."""
    lab = state.rules.labels
    entries = []
    for move in state.legal_moves():
        entry = move_entry(move, lab)
        entry["after"] = format_notation(state.apply(move, check=False))
        entries.append(entry)
    return {**situation(state), "notation": format_notation(state), "moves": entries}


def read_move(state: GameState, text: str) -> Move:
    """The move ``text`` reads as in ``state``'s labels (R2).

    Raises
    ------
    IllegalMoveError
        If it does not read as a move or is not legal here (the message names the position).
    """
    try:
        move = parse_move(text, state.rules.labels)
    except ConquianError as exc:
        raise IllegalMoveError(str(exc)) from None
    if not state.is_legal(move):
        raise IllegalMoveError(
            f"illegal move {move.text(state.rules.labels)!r} here ({state.describe()})"
        )
    return move


def _dealt(state: GameState, seat: int | None) -> dict[str, Any]:
    data = {
        **situation(state),
        "notation": format_notation(state),
        "position": dump_position(state),
    }
    if seat is not None:
        data["seat"] = seat
        seen = view(state, seat)
        data["view"] = format_notation(seen)
        data["view_position"] = dump_position(seen)
    return data


def deal_data(
    rules: Rules, seed: int, after: int, dealer: int | None, seat: int | None
) -> dict[str, Any]:
    """``deal``: a new deal of ``rules`` with ``seed`` (R8), ``after`` greedy moves played (the
    turns between them, R10, not counted), every hand and the stock order known, with the
    ``view`` of ``seat`` (R6: other hands and the stock order hidden) when given.

    Raises
    ------
    ConquianError
        If the deal ends before ``after`` moves or ``dealer`` is not a seat.
    """
    state, played = deal_position(rules, seed=seed, dealer=dealer, after=after)
    lab = rules.labels
    data = _dealt(state, seat)
    data["played"] = [{"player": p, "move": m.text(lab)} for p, m in played]
    return data


def check_bots(names: list[str], rules: Rules) -> None:
    """Check that every bot of ``names`` exists and that its options act in ``rules``.

    Raises
    ------
    ConquianError
        Naming the bot or option refused (the message lists the bots).
    """
    for name in sorted(set(names)):
        check_bot(name, rules)


def _shown(move: Move, player: int | None, seat: int | None, labels: Labels) -> str:
    """What ``seat`` sees of a move: another player's exchange pass is face down (R9)."""
    if isinstance(move, Give) and player != seat:
        return "gives a card (face down, R9)"
    return move.text(labels)


def play_data(
    state: GameState,
    move: Move | None,
    seat: int | None,
    bots: list[str],
    seed: int,
) -> dict[str, Any]:
    """``play``: ``move`` played, then, with a ``seat``, every other seat played by its bot
    (each from its own view, R6) and the turns of the stock (R10) until ``seat`` has a choice
    of two moves or more (a single legal move, such as a forced pass, is played for him) or
    the deal ends (R15, R18).

    Parameters
    ----------
    state : GameState
        Every hand and the stock order known when bots or turns are to be played.
    move : Move or None
        A legal move of the player to act.
    seat : int or None
        The seat of the person; ``None``: only ``move`` is played.
    bots : list of str
        One bot name per other seat, in seat order (``analyzer.bots.registry``).
    seed : int
        Seeds the bots' choices (with the number of dead cards and cards melded).

    Raises
    ------
    PositionError
        If a bot or a turn has to see a hidden hand or stock order.
    """
    lab = state.rules.labels
    played: list[dict[str, Any]] = []
    history: list[tuple[int | None, Move]] = []

    def apply(player: int | None, chosen: Move) -> None:
        nonlocal state
        history.append((player, chosen))
        played.append(
            {"player": player, "move": chosen.text(lab), "shown": _shown(chosen, player, seat, lab)}
        )
        state = state.apply(chosen, check=False)

    if move is not None:
        apply(None if state.is_chance_node() else state.to_act, move)
    if seat is not None:
        others = [p for p in range(state.rules.players) if p != seat]
        players = dict(zip(others, bots, strict=True))
        made = {name: check_bot(name, state.rules) for name in set(bots)}
        rng = random.Random(seed * 1_000_003 + len(state.dead) * 64 + state.table_mask().bit_count())
        for _ in range(MAX_PLIES):
            if state.is_terminal():
                break
            if state.is_chance_node():
                if state.stock is None:
                    raise PositionError(
                        "the stock order is hidden: the next card to turn (R10) is unknown; "
                        "play it as 'turn CARD'"
                    )
                apply(None, state.chance_outcomes()[0][0])
                continue
            player = state.to_act
            if player == seat:
                choices = state.legal_moves()
                if len(choices) != 1:
                    break
                apply(player, choices[0])
                continue
            if any(h is None for h in state.hands):
                raise PositionError(
                    f"player {player}'s bot needs every hand known, and one is hidden"
                )
            bot = made[players[player]]
            seen = state if getattr(bot, "sees_all", False) else view(state, player)
            apply(player, bot.choose(seen, rng))
    data = _dealt(state, seat)
    data["played"] = played
    if seat is not None and not state.is_terminal() and state.to_act == seat:
        data["moves"] = [move_entry(m, lab) for m in state.legal_moves()]
    return data


def replay_plies(replay: Replay, labels: Labels | None = None) -> list[dict[str, Any]]:
    """Every move of ``replay``: ``ply`` (from 1), ``player`` (``None`` for a turn, R10),
    ``move`` and the ``before`` and ``after`` positions' notation (a view record: the viewer's
    views), cards in ``labels`` (the record's own by default)."""
    states = [relabel(s, labels) for s in (*replay.states, replay.final)]
    lab = states[0].rules.labels
    plies = []
    for ply, move in enumerate(replay.moves, 1):
        before, after = states[ply - 1], states[ply]
        plies.append(
            {
                "ply": ply,
                "player": None if before.is_chance_node() else before.to_act,
                "move": move.text(lab),
                "before": format_notation(before),
                "after": format_notation(after),
            }
        )
    return plies


def record_data(
    start: GameState, texts: list[str], players: list[str] | None, seed: int | None
) -> dict[str, Any]:
    """``record``: the game record (JSON lines, ``docs/record-format.md``) of ``texts`` played
    from ``start``, each checked (R8-R19), with ``plies`` (each move and the positions before
    and after it, as ``review``'s).

    Raises
    ------
    IllegalMoveError
        Naming the first move (its number) that does not read or is not legal.
    """
    if len(texts) > MAX_PLIES:
        raise IllegalMoveError(f"a record holds at most {MAX_PLIES} moves, got {len(texts)}")
    state = start
    history: list[tuple[int | None, Move]] = []
    states = []
    for number, text in enumerate(texts, 1):
        try:
            move = read_move(state, text)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number}: {exc}") from None
        history.append((None if state.is_chance_node() else state.to_act, move))
        states.append(state)
        state = state.apply(move, check=False)
    lines = record_lines(start, history, state, seed=seed, players=players)
    replay = Replay(start, state, [m for _, m in history], states=states)
    return {
        "record": "\n".join(lines) + "\n",
        "moves": len(history),
        **situation(state),
        "notation": format_notation(state),
        "plies": replay_plies(replay),
    }


def read_record_data(text: str, deal: int | None, labels: Labels | None) -> dict[str, Any]:
    """``record`` with ``text``: the record's JSON lines read and checked as ``conquian replay``
    reads them (every line, R8-R19; a view record against what its player knows), then answered
    as ``record`` answers its start and moves, with what the page needs to show it: ``start``
    (the start position's data), ``view``, ``players``, ``seed``, ``texts`` (the moves as written
    in ``labels``), and ``deal`` and ``deals`` (of a match record, R21: the deal read, from 1).

    Raises
    ------
    ConquianError
        If the record does not read (the message gives the line), or has no deal ``deal``;
        ``deal`` given for a game record.
    """
    replays, match = replay_any(text.splitlines())
    if match is None and deal is not None:
        raise ConquianError("'deal' is for a match record; this is a game record")
    k = deal or 1
    if k > len(replays):
        raise ConquianError(f"deal {k}: the match record holds {len(replays)} deals")
    replay = replays[k - 1]
    start = relabel(replay.start, labels)
    texts = [m.text(start.rules.labels) for m in replay.moves]
    header = replay.header
    names = header.get("players")
    players = names if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
    seed = header.get("seed") if isinstance(header.get("seed"), int) else None
    if replay.view is not None:
        data = view_record_data(start, texts, replay.view, players)
    else:
        data = record_data(start, texts, players, seed)
    data.update(start=dump_position(start), view=replay.view, players=players, seed=seed,
                texts=texts, deal=k, deals=len(replays))  # fmt: skip
    return data


def view_record_data(
    start: GameState, texts: list[str], viewer: int, players: list[str] | None
) -> dict[str, Any]:
    """``record`` with ``view``: the view record (``docs/record-format.md``, View records) of
    ``texts`` played from ``start`` as player ``viewer`` saw it, each move checked against what
    he knows (:func:`analyzer.formats.records.play_seen`: R1, R7, R9 and the rules), with
    ``plies`` (each move and the views before and after it) and the last view's ``position``.

    Raises
    ------
    IllegalMoveError
        Naming the first move (its number) that does not read or is not legal for what is known.
    PositionError
        If ``start`` is not a view of ``viewer`` (another hand or the stock order shown).
    """
    if len(texts) > MAX_PLIES:
        raise IllegalMoveError(f"a record holds at most {MAX_PLIES} moves, got {len(texts)}")
    play = ViewPlay.start(start, viewer)
    history: list[tuple[int | None, SeenMove]] = []
    states = [play.state]
    for number, text in enumerate(texts, 1):
        try:
            move = parse_seen_move(text, play.state.rules.labels)
            acting = play.acting()
            play = play_seen(play, move)
        except ConquianError as exc:
            raise IllegalMoveError(f"move {number} {clip(text)!r}: {exc}") from None
        history.append((acting, move))
        states.append(play.state)
    lines = record_lines(start, history, play.state, players=players, view=viewer)
    replay = Replay(states[0], play.state, [m for _, m in history], view=viewer, states=states[:-1])
    return {
        "record": "\n".join(lines) + "\n",
        "moves": len(history),
        **situation(play.state),
        "notation": format_notation(play.state),
        "position": dump_position(play.state),
        "plies": replay_plies(replay),
        "unseen": format_mask(play.unseen(), play.state.rules.labels),
        "next": next_entry(play),
    }


def next_entry(play: ViewPlay) -> dict[str, Any] | None:
    """What can be entered next in a view record, as ``conquian record``'s ``moves`` tells it
    (``None`` once the deal is over): ``player`` (``None`` at a turn, R10), ``phase`` and
    ``kinds`` (the kinds of move left to him: turn, pass, force, take, meld, lay, give); the
    viewer's own legal ``moves`` (as ``moves``, without ``after``); for another player,
    ``forces`` (whom he may force, R14), ``give`` (in the exchange: ``"card"`` when he passes to
    the viewer, who names it, else ``"?"``, R9), ``hand`` (his count of cards) and ``known``
    (cards known to be in his hand: the viewer's pass, R9); ``cards``: the cards a turn or his
    move may show (those the viewer has not seen and does not know to be elsewhere, R1)."""
    state = play.state
    if state.is_terminal():
        return None
    lab = state.rules.labels
    acting = play.acting()
    held = play.held()
    elsewhere = 0
    for p, mask in held.items():
        if p != acting:
            elsewhere |= mask

    def cards(mask: int) -> list[str]:
        return [format_card(c, lab) for c in iter_mask(mask)]

    data: dict[str, Any] = {"player": acting, "phase": str(state.phase)}
    if acting is None:
        data.update(kinds=["turn"], cards=cards(play.unseen() & ~elsewhere))
        return data
    if acting == play.viewer:
        moves = state.legal_moves()
        kinds = [move_entry(m, lab)["kind"] for m in moves]
        data.update(kinds=list(dict.fromkeys(kinds)), moves=[move_entry(m, lab) for m in moves])
        return data
    data.update(
        cards=cards(play.unseen() & ~elsewhere),
        hand=state.counts[acting],
        known=cards(held.get(acting, 0)),
        forces=state.forceable_players(),
    )
    if state.phase is Phase.EXCHANGE:
        giver = (play.viewer - 1) % state.rules.players
        data.update(kinds=["give"], give="card" if acting == giver else "?")
    elif state.phase is Phase.FORCED:
        data["kinds"] = ["lay"]
    else:
        centre = state.centre
        own = centre is not None and centre.kind == "paid" and centre.source == acting
        kinds = ["pass"] + (["force"] if data["forces"] else [])
        if not own:  # his own paid card: force or pass only (R14a)
            kinds += ["take"] + (["meld"] if state.rules.hand_melds else [])
        data["kinds"] = kinds
    return data


# ------------------------------------------------------------- bundled files
def _bundled(kind: str) -> dict[str, str]:
    """The bundled example files of ``kind`` (positions, records, puzzles): name -> text."""
    folder = resources.files("cli") / "data" / "examples" / kind
    found: dict[str, str] = {}
    if not folder.is_dir():
        return found
    for item in sorted(folder.iterdir(), key=lambda f: f.name):
        if item.name.endswith((".json", ".jsonl")):
            found[item.name.rsplit(".", 1)[0]] = item.read_text(encoding="utf-8")
    return found


@cache
def _puzzles() -> dict[str, tuple[dict[str, Any], Puzzle]]:
    return {name: (data, load_puzzle(data)) for name, data in
            ((n, json.loads(t)) for n, t in _bundled("puzzles").items())}  # fmt: skip


def _question(puzzle: Puzzle) -> str:
    q = puzzle.question
    if q["kind"] == "win":
        return f"Player {q['player']} to act: find a move that wins under best play."
    if q["kind"] == "best_pay":
        return f"Player {puzzle.state.to_act}: which card to pay keeps the best result?"
    return f"Player {q['player']}: go out within {q['turns']} of your moves. First move?"


def _puzzle_summary(name: str, data: dict[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    return {
        "name": name,
        "title": puzzle.title,
        "description": str(data.get("description", "")),
        "variant": puzzle.state.rules.name,
        "kind": puzzle.question["kind"],
        "question": puzzle.question,
        "prompt": _question(puzzle),
    }


def examples_data(labels: Labels | None) -> dict[str, Any]:
    """``examples``: the bundled positions (RULES.md section 5's worked examples: name,
    description, rule, notation), records (name and text) and puzzles (name, title,
    question; never the answer); positions in ``labels`` (default their own, R2)."""
    positions = []
    for name, text in _bundled("positions").items():
        data = json.loads(text)
        if data.get("type") == "melds":
            continue  # meld query files (worked examples 1 and 2): no table to draw
        entry: dict[str, Any] = {
            "name": name,
            "description": str(data.get("description", "")),
            "rule": data.get("rule"),
        }
        try:
            entry["notation"] = format_notation(load_position(data), labels)
            entry["valid"] = True
        except ConquianError as exc:  # example 7 is an impossible position, on purpose
            entry.update(notation=None, valid=False, error=str(exc), data=data)
        positions.append(entry)
    records = [{"name": n, "text": t} for n, t in _bundled("records").items()]
    puzzles = [_puzzle_summary(n, d, p) for n, (d, p) in _puzzles().items()]
    # The bots the Play tab offers: only those that can play here (ismcts needs its extra).
    return {"positions": positions, "records": records, "puzzles": puzzles, "bots": play_bots()}


PLAY_BOTS = ("greedy", "hint", "ismcts")
"""The bots the board's Play tab may offer, in order; those installed are listed."""


@functools.cache
def play_bots() -> list[str]:
    """The bots of :data:`PLAY_BOTS` that can play here, found once per process."""
    return [name for name in PLAY_BOTS if installed_bot(name)]


def puzzle_data(name: str, move: str | None, reveal: bool, labels: Labels | None) -> dict[str, Any]:
    """``puzzle``: the bundled puzzle ``name`` (position and question, the answer only with
    ``reveal``), in ``labels`` (default the puzzle's own, R2); with ``move``, whether that first
    move is one of the stored answer's (a ``best_pay`` answer: whether its pay card is; R13, R14).

    Raises
    ------
    PositionError
        If there is no bundled puzzle of that name (the message lists them).
    IllegalMoveError
        If ``move`` does not read or is not legal in the puzzle's position.
    """
    puzzles = _puzzles()
    if name not in puzzles:
        raise PositionError(f"no bundled puzzle {name!r} (known: {', '.join(puzzles)})")
    data, puzzle = puzzles[name]
    own = puzzle.state.rules.labels
    state = relabel(puzzle.state, labels)
    lab = state.rules.labels
    result = {
        **_puzzle_summary(name, data, puzzle),
        "notation": format_notation(state),
        "to_act": state.to_act,
        "moves": [move_entry(m, lab) for m in state.legal_moves()],
    }
    answer = puzzle.answer or {}
    if reveal:
        shown: dict[str, Any] = dict(answer)
        if "moves" in shown:
            shown["moves"] = [parse_move(m, own).text(lab) for m in shown["moves"]]
        if "pays" in shown:
            shown["pays"] = [format_card(parse_card(c, own), lab) for c in shown["pays"]]
        result["answer"] = shown
    if move is not None:
        chosen = read_move(state, move)
        if "pays" in answer:
            pay = chosen.pay if isinstance(chosen, Take | LayIn) else None
            correct = pay is not None and format_card(pay, own) in answer["pays"]
            why = "its pay card keeps the best result" if correct else "another pay card does better"
        else:
            correct = chosen.text(own) in answer.get("moves", [])
            why = "it is one of the answer's moves" if correct else "it is not among the answer's moves"
        result["check"] = {"move": chosen.text(lab), "correct": correct, "reason": why}
    return result


def review_request_data(
    text: str,
    *,
    samples: int | None,
    seed: int,
    time_limit: float,
    budget: int | None,
    engine: str,
    labels: Labels | None,
    progress: Callable[[int, int], None] | None = None,
    deal: int | None = None,
    view: int | None = None,
) -> dict[str, Any]:
    """``review``: the record ``text`` (JSON lines) replayed (R8-R19) and reviewed as
    ``conquian review --json`` (every decision marked by the expected result it gave up,
    R20), plus ``plies``: every move with the positions before and after it.  Of a match
    record (R21), deal ``deal`` (1-based; the first by default), with ``match``: the deal
    reviewed and the deals the record holds.

    Raises
    ------
    ConquianError
        If the record does not replay (the message gives the line), hides a hand, or has no
        deal ``deal``; ``deal`` given for a game record.
    """
    replays, match = replay_any(text.splitlines())
    match_info: dict[str, int] | None = None
    if match is not None:
        k = deal or 1
        if k > len(replays):
            raise ConquianError(f"deal {k}: the match record holds {len(replays)} deals")
        match_info = {"deal": k, "deals": len(replays)}
    elif deal is not None:
        raise ConquianError("'deal' is for a match record; this is a game record")
    replay = replays[(deal or 1) - 1]
    if view is not None and replay.view != view:
        # From one player's view: the record as he saw it, his decisions only.
        replay = replay_lines(view_lines(replay, view))
    result = review_record(
        replay,
        samples=samples,
        seed=seed,
        time_limit=time_limit,
        node_budget=budget,
        engine=engine,
        progress=progress,
    )
    start = relabel(replay.start, labels)
    data = review_data(result, start.rules.labels)
    data["plies"] = replay_plies(replay, labels)
    data["players"] = replay.header.get("players")
    data["position"] = dump_position(relabel(replay.start, labels))
    data["variant"] = start.rules.name
    if match_info is not None:
        data["match"] = match_info
    return data
