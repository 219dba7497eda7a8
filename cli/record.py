"""``conquian record``: a game from one player's view, entered move by move at the prompt, or a
full record converted to one player's view (docs/record-format.md, View records)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

import typer

from analyzer.core.cards import (
    Labels,
    clip,
    counted,
    format_card,
    iter_mask,
    mask_of,
    parse_cards,
)
from analyzer.core.errors import ConquianError
from analyzer.core.moves import small_number
from analyzer.core.plain import relabel
from analyzer.core.rules import Rules
from analyzer.core.seen import SeenMove, ViewPlay, parse_seen_move
from analyzer.core.state import GameState, Phase
from analyzer.formats.matches import replay_any
from analyzer.formats.records import play_seen, record_lines, view_lines
from cli.boundary import domain, usage
from cli.console import emit, out
from cli.inputs import cards_arg, input_text, position_arg, rules_of
from cli.options import ForceOpt, JsonOpt, PlayersOpt, RecordLabelsOpt, RulesOpt, VariantOpt
from cli.outputs import OutputFile, maybe, output_file
from cli.play import list_moves, print_table

__all__ = ["record"]

HELP = (
    "Type each move as it happened, in the record's words: 'turn 7H' (or just 7H) for a card "
    "turned from the stock, 'pass', 'force 1', 'take [..] [..] pay KS' or '.. out' with the "
    "player's whole new layout, 'lay [..] pay KS' for a forced player, 'meld [..]', 'give 7H' "
    "for your pass and the one made to you, 'give ?' (or ?) for a pass you did not see. "
    "'moves' lists what can be entered now, 'show' the table, 'undo' takes the last move back, "
    "'end' stops here (the record is kept), 'help' this."
)


def record(
    source: Annotated[
        str | None,
        typer.Argument(
            metavar="RECORD",
            help="A game record to print from one player's view (--view); without it, enter a "
            "game at the prompt.",
            show_default=False,
        ),
    ] = None,
    viewer: Annotated[
        int | None,
        typer.Option(
            "--view",
            min=0,
            metavar="P",
            help="The player whose view: the record's seat to convert to, or your seat when "
            "entering a game (default 0).",
            show_default=False,
        ),
    ] = None,
    hand: Annotated[
        str | None,
        typer.Option(
            "--hand",
            metavar="CARDS",
            help="Entering: your hand as dealt, e.g. \"AS 2S 3H ...\" (asked at the prompt "
            "when omitted).",
            show_default=False,
        ),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            metavar="POSITION",
            help="Entering: start from this position of your view (a file or the notation, "
            "e.g. 'conquian deal --view 0'), instead of a new deal.",
            show_default=False,
        ),
    ] = None,
    variant: VariantOpt = "classic",
    players: PlayersOpt = None,
    rules_options: RulesOpt = None,
    dealer: Annotated[
        int | None,
        typer.Option(
            "--dealer", min=0, metavar="D", help="Entering: the dealer (default: the last player).",
            show_default=False,
        ),
    ] = None,
    upcard: Annotated[
        str | None,
        typer.Option(
            "--upcard",
            metavar="CARD",
            help="Entering, where the rules turn a card up at the deal (R10a): that card.",
            show_default=False,
        ),
    ] = None,
    out_file: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="Write the record here (entering: required, written after every move; "
            "converting: instead of standard output).",
            show_default=False,
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="FILE",
            help="Go on entering the view record FILE where it stops (a game ended with 'end' "
            "or cut short); it is written back to FILE after every move.",
            show_default=False,
        ),
    ] = None,
    force: ForceOpt = False,
    labels: RecordLabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Enter a game as one player saw it, or print a record from one player's view.

    With RECORD: the record (a game with every card known, or a view record) as player --view P
    saw it: his hand, the other hands and the stock as counts, the moves he saw, 'give ?' for a
    pass in the exchange he did not see (R9). With --json, one JSON array of the lines.

    Without RECORD: enter a game move by move, each checked against what you know (a card
    shown twice, more cards than a player holds, an illegal move are refused with the rule);
    the view record is written to --out after every move; 'conquian review FILE' then reviews
    your decisions. See docs/record-format.md.
    """
    if source is not None:
        given = [o for o, v in (("--hand", hand), ("--start", start), ("--upcard", upcard), ("--dealer", dealer)) if v is not None]
        if given:
            usage(f"{given[0]} is for entering a game; with RECORD, give --view P only")
        _convert(source, viewer, out_file, force, labels, as_json)
        return
    if as_json:
        usage("--json is for printing a RECORD; an entered game is written to --out as JSON lines")
    if resume is not None:
        given = [o for o, v in (("--hand", hand), ("--start", start), ("--upcard", upcard), ("--dealer", dealer), ("--out", out_file)) if v is not None]
        if given:
            usage(f"{given[0]}: --resume goes on with the record's own deal and writes it back")
        _resume(resume, viewer)
        return
    if out_file is None or out_file == "-":
        usage("give --out FILE: the record you enter is written there after every move")
    target = output_file(out_file, "--out", force=force)
    play = _start(start, hand, viewer, variant, players, rules_options, dealer, upcard, labels)
    with maybe(target):
        assert target is not None
        _enter(play, target)


def _resume(path: str, viewer: int | None) -> None:
    """Go on entering the view record at ``path`` from its last move, writing it back there."""
    text, _ = input_text(path, "record file")
    replays, match = replay_any(text.splitlines())
    if match is not None:
        usage(f"--resume {clip(path)!r} is a match record: --resume goes on with one deal's view record")
    (replay,) = replays
    if replay.view is None:
        usage(
            f"--resume {clip(path)!r} knows every card: --resume goes on with a record from one "
            "player's view ('conquian record RECORD --view P' writes one)"
        )
    if viewer is not None and viewer != replay.view:
        usage(f"--view {viewer}: {clip(path)!r} is player {replay.view}'s view")
    target = output_file(path, "--resume", force=True)
    play = ViewPlay.start(replay.start, replay.view)
    with maybe(target):
        assert target is not None
        _enter(play, target, replay.moves, replay.header.get("players"))


def _convert(
    source: str, viewer: int | None, out_file: str | None, force: bool, labels: Labels | None, as_json: bool
) -> None:
    """Print (or write) the record ``source`` from ``viewer``'s view."""
    target = output_file(out_file, "--out", force=force, inputs=[source], stdout=True)
    text, _ = input_text(source, "record file")
    replays, match = replay_any(text.splitlines())
    if match is not None:
        domain("this is a match record: a view record holds one deal (replay shows its deals)")
    (replay,) = replays
    players = replay.start.rules.players
    if viewer is not None and viewer >= players:
        usage(f"--view {viewer}: no such player; this {replay.start.rules.name} game has {players} players, 0 to {players - 1}")
    if viewer is not None and replay.view is not None and viewer != replay.view:
        usage(f"--view {viewer}: this record is player {replay.view}'s view; it hides player {viewer}'s hand")
    if viewer is None:
        if replay.view is None:
            usage("give --view P: the player whose view of this record to print")
        viewer = replay.view
    if labels is not None:
        replay.start = relabel(replay.start, labels)
        replay.states = [relabel(s, labels) for s in replay.states]
        replay.final = relabel(replay.final, labels)
    lines = view_lines(replay, viewer)
    with maybe(target):
        if as_json:
            payload = [json.loads(line) for line in lines]
            if target is None:
                emit(payload)
            else:
                target.publish(json.dumps(payload, ensure_ascii=False) + "\n")
            return
        if target is None:
            for line in lines:
                out.print(line, markup=False, soft_wrap=True, highlight=False)
        else:
            target.publish("\n".join(lines) + "\n")
            moves = len(replay.moves)
            out.print(f"Player {viewer}'s view of {counted(moves, 'move')} written to {target.path}.", markup=False)


def _start(
    start: str | None,
    hand: str | None,
    viewer: int | None,
    variant: str,
    players: int | None,
    rules_options: str | None,
    dealer: int | None,
    upcard: str | None,
    labels: Labels | None,
) -> ViewPlay:
    """The position the entry starts from: ``--start`` (a view), or a new deal of ``--hand``."""
    if start is not None:
        given = [o for o, v in (("--hand", hand), ("--dealer", dealer), ("--upcard", upcard)) if v is not None]
        if given:
            usage(f"{given[0]} describes a new deal; --start gives the position instead")
        position = position_arg(start, labels)
        seat = _seat(position.state, viewer)
        try:
            return ViewPlay.start(position.state, seat)
        except ConquianError as exc:
            usage(f"--start: {exc}")
    rules = rules_of(variant, players, rules_options)
    if labels is not None:
        rules = rules.with_labels(labels)
    seat = 0 if viewer is None else viewer
    if seat >= rules.players:
        usage(f"--view must be below {rules.players} in {rules.name}")
    cards = _hand_prompted(rules) if hand is None else cards_arg(hand, rules.labels, "--hand")
    up = None
    if rules.upcard:
        if upcard is None:
            upcard = _ask("the upcard the dealer turned (R10a)> ", "--upcard CARD")
        up = next(iter(iter_mask(cards_arg(upcard, rules.labels, "--upcard"))), None)
    elif upcard is not None:
        usage(f"--upcard: {rules.name} turns up no card at the deal (R10a)")
    try:
        return ViewPlay.deal(rules, seat, cards, dealer, up)
    except ConquianError as exc:
        usage(str(exc))


def _hand_prompted(rules: Rules) -> int:
    """The hand typed at the prompt, asked again until it is ``rules.hand_size`` cards (R8)."""
    while True:
        text = _ask(f"your hand ({rules.hand_size} cards)> ", "--hand CARDS")
        try:
            cards = mask_of(parse_cards(text, rules.labels))
        except ConquianError as exc:
            out.print(f"Not a hand: {exc}", markup=False)
            continue
        if cards.bit_count() == rules.hand_size:
            return cards
        out.print(
            f"A hand in {rules.name} has {rules.hand_size} cards (R8); that is "
            f"{counted(cards.bit_count(), 'card')}. Type them all again.",
            markup=False,
        )


def _ask(prompt: str, option: str) -> str:
    """A line typed at ``prompt``; the input ending first is a usage error naming ``option``."""
    try:
        return out.input(prompt).strip()
    except EOFError:
        out.print()
        usage(f"the input ended: give {option}")


def _seat(state: GameState, viewer: int | None) -> int:
    """The viewer of a start position: ``--view``, else the one hand it shows."""
    if viewer is not None:
        return viewer
    known = [p for p, h in enumerate(state.hands) if h is not None]
    if len(known) != 1:
        usage("--start shows more than one hand: give --view P, and the others as counts")
    return known[0]


def _enter(
    play: ViewPlay,
    target: OutputFile,
    moves: Sequence[SeenMove] = (),
    players: list[str] | None = None,
) -> None:
    """The prompt loop: one move a line until the deal ends, 'end', or the input ends; ``moves``
    already entered (a resumed record) are played first."""
    viewer, lab = play.viewer, play.state.rules.labels
    history: list[tuple[int | None, SeenMove]] = []
    earlier: list[ViewPlay] = []
    begin = play
    for move in moves:
        earlier.append(play)
        history.append((play.acting(), move))
        play = play.apply(move)

    def save() -> None:
        lines = record_lines(begin.state, history, play.state, players=players, view=viewer)
        target.publish("\n".join(lines) + "\n")

    save()
    again = f", going on after move {len(history)}" if history else ""
    out.print(
        f"conquian record: {play.state.rules.title}, you are player {viewer}{again}. "
        "Type each move as it happened; 'help' for the words.",
        markup=False,
    )
    _table(play.state, viewer)
    kept = f"the record is saved in {target.path}; 'conquian record --resume {target.path}' goes on"
    told = False  # the end of the deal announced
    while True:
        over = play.state.is_terminal()
        if over and not told:
            _outcome(play.state, viewer)
            told = True
        told = told and over
        prompt = "deal over ('undo' takes the last move back, 'end' finishes)> " if over else _prompt(play, len(history) + 1)
        try:
            text = out.input(prompt).strip()
        except EOFError:
            out.print()
            if over:
                break
            domain(f"the input ended before the deal did, after {counted(len(history), 'move')}; {kept}")
        except KeyboardInterrupt:
            out.print(f"\nStopped after {counted(len(history), 'move')}: {kept}.", markup=False)
            raise typer.Exit(130) from None
        word = text.lower()
        if not text:
            if over:
                break
            continue
        if word in ("end", "quit", "exit"):
            break
        if word == "help":
            out.print(HELP, markup=False)
            continue
        if word == "show":
            _table(play.state, viewer)
            continue
        if word == "moves" and not over:
            _moves(play)
            continue
        if word == "undo":
            if not earlier:
                out.print("Nothing to take back.", markup=False)
                continue
            play = earlier.pop()
            out.print(f"Took back move {len(history)}: {history.pop()[1].text(lab)}.", markup=False)
            save()
            continue
        if over:
            out.print("The deal is over: 'undo' takes the last move back, 'end' finishes.", markup=False)
            continue
        read = _read(play, text)
        if isinstance(read, str):
            out.print(read, markup=False)
            continue
        move = read
        acting = play.acting()
        try:
            after = play_seen(play, move)
        except ConquianError as exc:
            out.print(f"Not accepted: {exc}", markup=False)
            continue
        exchanging = play.state.phase is Phase.EXCHANGE
        earlier.append(play)
        history.append((acting, move))
        play = after
        save()
        if exchanging and play.state.phase is not Phase.EXCHANGE and play.state.gave:
            got = play.state.gave[(viewer - 1) % play.state.rules.players]
            if got is not None:
                out.print(f"The exchange is done: you received {format_card(got, lab)} (R9).", markup=False)
    out.print(
        f"Record saved to {target.path} ({counted(len(history), 'move')}); "
        f"'conquian review {target.path}' reviews your decisions.",
        markup=False,
    )


def _outcome(final: GameState, viewer: int) -> None:
    """The table at the end of the deal and who won (R15, R18)."""
    _table(final, viewer)
    outcome = "a draw (R18)" if final.winner is None else (
        "you won" if final.winner == viewer else f"player {final.winner} won"
    )
    out.print(f"The deal is over: {outcome}.", markup=False)


def _read(play: ViewPlay, text: str) -> SeenMove | str:
    """The move ``text`` names (a number from 'moves' for your own decision, a bare card at a
    turn, '?' for a pass you did not see), or the line that says why it is not one."""
    state, lab = play.state, play.state.rules.labels
    if state.phase is Phase.TURN and " " not in text and text.lower() not in _VERBS:
        text = f"turn {text}"  # a card alone: the card turned (R10)
    if text.strip() == "?":
        text = "give ?"
    number = small_number(text)
    if number is not None:
        if play.acting() != play.viewer:
            return "A number plays one of your own moves ('moves' lists them); type this move."
        moves = state.legal_moves()
        if 1 <= number <= len(moves):
            return moves[number - 1]
        return f"No move number {number}: choose 1 to {len(moves)}."
    try:
        return parse_seen_move(text, lab)
    except ConquianError as exc:
        message = str(exc)
        return message[:1].upper() + message[1:]


_VERBS = ("pass", "take", "force", "lay", "meld", "give", "turn")
"""The words a move starts with: a word alone at a turn is read as one, not as a card."""


def _prompt(play: ViewPlay, number: int) -> str:
    """``move 7, player 1 (7H turned by player 0)> ``: whose move it is and on what."""
    state = play.state
    lab = state.rules.labels
    def name(p: int) -> str:
        return "you" if p == play.viewer else f"player {p}"

    if state.phase is Phase.TURN:
        return f"move {number}, {name(state.to_act)} {'turn' if state.to_act == play.viewer else 'turns'}> "
    who = name(state.to_act)
    if state.phase is Phase.EXCHANGE:
        return f"move {number}, {who}: the pass (R9)> "
    assert state.centre is not None
    c = state.centre
    what = f"{format_card(c.card, lab)} {c.origin} by {name(c.source)}"
    if state.phase is Phase.FORCED:
        what = f"forced to take {format_card(c.card, lab)}"
    return f"move {number}, {who} ({what})> "


def _moves(play: ViewPlay) -> None:
    """What can be entered now: your legal moves, numbered; for another player, the kinds of
    move the rules leave him with what you know (his hand is hidden)."""
    state, lab = play.state, play.state.rules.labels
    acting = play.acting()
    if acting == play.viewer:
        list_moves(state.legal_moves(), lab)
        return
    unseen = counted(play.unseen().bit_count(), "card")
    if state.phase is Phase.TURN:
        out.print(f"  turn CARD: any of the {unseen} you have not seen (R10)", markup=False)
        return
    if state.phase is Phase.EXCHANGE:
        giver = (play.viewer - 1) % state.rules.players
        text = "give CARD: the card he passed to you" if acting == giver else "give ?: his pass, face down (R9)"
        out.print(f"  {text}", markup=False)
        return
    assert acting is not None and state.centre is not None
    if state.phase is Phase.FORCED:
        out.print(
            f"  lay [..] pay CARD (or out): his layout with {format_card(state.centre.card, lab)} "
            "laid in, no hand card added, and the card he paid (R14)",
            markup=False,
        )
        return
    own = state.centre.kind == "paid" and state.centre.source == acting
    lines = ["pass"]
    lines += [f"force {p}" for p in state.forceable_players()]
    if not own:
        lines.append(
            "take [..] pay CARD (or out): his whole new layout with "
            f"{format_card(state.centre.card, lab)}, then the card he paid (R13)"
        )
        if state.rules.hand_melds:
            lines.append("meld [..]: a meld of hand cards only (R16)")
    for line in lines:
        out.print(f"  {line}", markup=False)
    out.print(f"  (he holds {counted(state.counts[acting], 'card')}; {unseen} unseen by you)", markup=False)


def _table(state: GameState, viewer: int) -> None:
    """The table as the viewer sees it: his hand, the counts, the layouts, the centre card."""
    lab = state.rules.labels
    print_table(state, lambda p: ["you"] if p == viewer else [], lambda p: True)
    dead = " ".join(format_card(c, lab) for c in state.dead) or "none"
    out.print(f"stock {state.stock_count} | dead: {dead}", markup=False)

