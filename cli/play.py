"""``conquian play``: play a deal against bots in the terminal."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from typing import Annotated

import typer
from rich.table import Table

from analyzer.analysis.advisor import advise
from analyzer.analysis.engines import ENGINES, MCTS_SEARCHES
from analyzer.analysis.prior import leaning
from analyzer.analysis.verdict import verdict_sentence
from analyzer.bots.game import game_seed
from analyzer.bots.registry import Bot, make_bot
from analyzer.bots.simulate import match_dealer
from analyzer.core.cards import Labels, clip, counted, format_card, format_mask
from analyzer.core.dealing import deal, view
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Give, Move, Pass, parse_move, small_number
from analyzer.core.rules import Rules
from analyzer.core.stakes import StakeRule, Standing, default_stakes
from analyzer.core.state import GameState, Phase
from analyzer.formats.matches import match_lines
from analyzer.formats.records import record_lines
from analyzer.search.limits import MAX_SEED
from analyzer.service.board import ending
from analyzer.service.results import prior_sentence
from analyzer.solver.why import explain
from cli.boundary import domain, usage
from cli.console import hanging, out, paragraph
from cli.inputs import bots_arg, rules_of, stakes_of
from cli.options import (
    ForceOpt,
    MatchOpt,
    PlayersOpt,
    RulesOpt,
    StakesOpt,
    VariantLabelsOpt,
    VariantOpt,
)
from cli.outputs import OutputFile, maybe, output_file

__all__ = ["Quit", "list_moves", "play", "typed_move"]


def play(
    variant: VariantOpt = "classic",
    players: PlayersOpt = None,
    rules_options: RulesOpt = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, max=MAX_SEED, metavar="S", help="Deal seed (random if omitted)."),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", min=0, metavar="N", help="Your seat.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="BOTS",
            help="Bot for the other seats, or one per other seat, comma-separated; a bot's options "
            "follow its name as name:key=value, e.g. hint:samples=16.",
        ),
    ] = "greedy",
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Save the game record (JSON lines) here; checked before the deal, kept up to "
            "date after every move.",
        ),
    ] = None,
    force: ForceOpt = False,
    labels: VariantLabelsOpt = None,
    confirm: Annotated[
        bool,
        typer.Option(
            "--confirm",
            help="Ask for your move even when pass is the only legal one (by default it is "
            "played for you, the card going by shown in one line).",
        ),
    ] = False,
    match: MatchOpt = 0,
    stakes: StakesOpt = None,
) -> None:
    """Play a deal against bots in the terminal. Type a move, its number, 'hint', 'moves' or 'quit'.

    With --match N, a match of N deals: the deal passes round the table and each deal is played
    for the stake its stake rule gives (--stakes; R21), with the running score after each deal;
    --record then writes a match record.

    Cards are shown in --labels (default: the variant's); typed moves are read in those labels
    unless their own cards decide (R2). When pass is your only legal move it is played for you
    (R12; --confirm asks anyway). Exit 1 when the input ends before the deal does ('quit' is
    exit 0); the record is saved either way.
    """
    rules = rules_of(variant, players, rules_options)
    if labels is not None:
        rules = rules.with_labels(labels)
    if seat >= rules.players:
        usage(f"--seat must be below {rules.players} in {rules.name}")
    names = bots_arg(bots, rules=rules)
    if len(names) == 1:
        names *= rules.players - 1
    if len(names) != rules.players - 1:
        others_text = "1 bot" if rules.players == 2 else f"1 or {rules.players - 1} bots"
        usage(f"--bots {clip(bots)!r} names {len(names)}: give {others_text} for the other seats")
    rule = stakes_of(stakes, match)
    target = output_file(record, "--record", force=force)
    with maybe(target):
        _game(rules, seat, names, seed, target, confirm, match, rule)


class Quit(Exception):
    """The player typed 'quit': the game ends at his choice (exit 0)."""


def _game(
    rules: Rules,
    seat: int,
    names: list[str],
    seed: int | None,
    target: OutputFile | None,
    confirm: bool,
    match: int = 0,
    stakes: StakeRule | None = None,
) -> None:
    """Play a deal, or a match of ``match`` deals (R21), at the terminal: the human at ``seat``,
    bots named ``names`` in the other seats; the record saved in ``target`` after every move."""
    table = _Table(rules, seat, names, seed, target, match, stakes)
    table.save()
    table.greet()
    for k in range(max(match, 1)):
        if k:
            table.new_deal(k)
        table.announce(k)
        if not table.play_deal(k, confirm):
            return
        table.show_result()
        if match:
            table.settle(k)
    if match:
        table.close_match()
    _commit(target)


class _Table:
    """The table of ``play``: the seats (``None`` the human's), the deal being played and its
    history, and in a match the standing and the deals done."""

    def __init__(
        self,
        rules: Rules,
        seat: int,
        names: list[str],
        seed: int | None,
        target: OutputFile | None,
        match: int,
        stakes: StakeRule | None,
    ) -> None:
        self.seats: list[Bot | None] = [make_bot(n) for n in names]
        self.seats.insert(seat, None)
        if seed is None:
            seed = random.randrange(2**31)
        self.rules, self.seat, self.seed, self.target, self.match = rules, seat, seed, target, match
        self.players = [*names]
        self.players.insert(seat, "human")
        # A match (R21): deal k is dealt with game_seed(seed, k), the first dealer drawn with the
        # seed and the deal passing round the table, as 'simulate --match' and play_match deal it.
        self.first = Standing.start(
            stakes or default_stakes(rules), rules.players, match_dealer(rules, seed, 0, match) or 0
        )
        self.standing = self.first
        self.done: list[tuple[GameState, list[tuple[int | None, Move]], GameState]] = []
        self.rng = random.Random(game_seed(seed, 0) if match else seed)
        self.state = self.start = deal(rules, self.rng, dealer=self.standing.dealer if match else None)
        self.history: list[tuple[int | None, Move]] = []

    def save(self) -> None:
        """The record, in place after every move (whole each time): a game cut short keeps it."""
        if self.target is None:
            return
        if self.match:
            lines = match_lines(
                [*self.done, (self.start, self.history, self.state)],
                self.first,
                seeds=[game_seed(self.seed, k) for k in range(len(self.done) + 1)],
                players=self.players,
                seed=self.seed,
                planned=self.match,
            )
        else:
            lines = record_lines(self.start, self.history, self.state, seed=self.seed, players=self.players)
        self.target.publish("\n".join(lines) + "\n")

    def greet(self) -> None:
        """The first lines: the variant, the match, the human's seat and the bots that see all."""
        rules, match = self.rules, self.match
        what = f"a match of {counted(match, 'deal')}, stakes {self.standing.rule}, " if match else ""
        out.print(
            f"conquian play: {rules.title}"
            f"{'' if ' players' in rules.title else f', {rules.players} players'}, "
            f"{what}you are player {self.seat}. "
            "Type 'help' for commands."
        )
        for player, bot in enumerate(self.seats):
            if bot is not None and getattr(bot, "sees_all", False):
                sight = (
                    "every hand, yours too"
                    if bot.name == "peek"
                    else "every card, yours and the stock order"
                )
                out.print(f"player {player} ({bot.name}) sees {sight}: a ceiling, not a fair opponent")

    def new_deal(self, k: int) -> None:
        """Deal ``k`` of the match (from 0), dealt by the standing's dealer."""
        self.rng = random.Random(game_seed(self.seed, k))
        self.state = self.start = deal(self.rules, self.rng, dealer=self.standing.dealer)
        self.history = []
        self.save()

    def announce(self, k: int) -> None:
        """Deal ``k``'s dealer and stake in a match, and the dealer's upcard (R10a)."""
        standing, state = self.standing, self.state
        if self.match:
            out.print(
                f"{chr(10) if k else ''}Deal {k + 1} of {self.match}: player {standing.dealer} deals; "
                f"stake {standing.stake}"
                f"{f', {standing.pool} in the pool' if standing.pool else ''}."
            )
        if state.centre is not None and state.centre.kind == "upcard":
            out.print(
                f"player {state.dealer} deals and turns up "
                f"{format_card(state.centre.card, self.rules.labels)} (R10a)"
            )

    def play_deal(self, k: int, confirm: bool) -> bool:
        """Play the deal to its end; False where the human quit (the record kept).

        Raises ``typer.Exit(130)`` on Ctrl-C and a domain error where the input ends first."""
        try:
            while not self.state.is_terminal():
                self.step(confirm)
        except (Quit, KeyboardInterrupt) as exc:
            out.print("\nGame abandoned.")
            if self.match:
                out.print(f"The match stops after {counted(k, 'deal')}: {_scores(self.standing, self.seat)}.")
            _commit(self.target)
            if isinstance(exc, KeyboardInterrupt):
                raise typer.Exit(130) from None
            return False
        except EOFError:
            out.print()  # ends the prompt's line
            target = self.target
            saved = f"; the record is saved in {target.path}" if target is not None else ""
            domain(f"the input ended before the deal did, after {counted(len(self.history), 'move')}{saved}")
        return True

    def step(self, confirm: bool) -> None:
        """One move: a stock card turned (R10), a bot's choice, or the human's (asked, unless he
        can only pass and ``confirm`` is off, R12); the record saved after it."""
        state, lab = self.state, self.rules.labels
        if state.is_chance_node():
            turn: Move = state.chance_outcomes()[0][0]
            self.history.append((None, turn))
            self.state = state.apply(turn)
            assert self.state.centre is not None
            out.print(f"player {self.state.to_act} turns {format_card(self.state.centre.card, lab)} (R10)")
            self.save()
            return
        player = state.current_player()
        move = self.choice(player, confirm)
        self.history.append((player, move))
        exchanging = state.phase is Phase.EXCHANGE
        self.state = state.apply(move)
        self.save()
        if exchanging and self.state.phase is not Phase.EXCHANGE:
            got = self.state.hand(self.seat) & ~self.start.hand(self.seat)
            out.print(f"The exchange is done: you received {format_mask(got, lab)} (R9).")

    def choice(self, player: int, confirm: bool) -> Move:
        """The move of ``player``, the one to act: his bot's, or the human's."""
        state, lab = self.state, self.rules.labels
        bot = self.seats[player]
        if bot is not None:
            # A ceiling bot (sees_all: oracle, oracle-greedy, peek) is given the whole
            # deal, as in simulate; every other bot its own view.
            seen = state if getattr(bot, "sees_all", False) else view(state, player)
            move = bot.choose(seen, self.rng)
            if isinstance(move, Give):
                # The exchange is face down (R9): nobody sees another player's pass.
                out.print(f"player {player} ({bot.name}) has chosen a card to pass")
            else:
                out.print(f"player {player} ({bot.name}): {move.text(lab)}", markup=False)
            return move
        if not confirm and state.legal_moves() == [Pass()]:
            # Nothing to choose (R12): the card goes by, shown in one line.
            assert state.centre is not None
            c = state.centre
            out.print(
                f"you pass {format_card(c.card, lab)} ({c.origin} by player {c.source}): "
                "the only legal move",
                markup=False,
            )
            return Pass()
        move = _ask(state, self.seat, self.players)
        out.print(f"you: {move.text(lab)}", markup=False)  # in the log as the bots' moves are
        return move

    def show_result(self) -> None:
        """The final position and who won (R15, R18)."""
        state, seat = self.state, self.seat
        _render(state, seat, self.players, reveal=True)
        if state.winner is None:
            out.print("The deal is a draw (R18).")
            return
        result = "You won" if state.winner == seat else f"Player {state.winner} won"
        how = ending(state)  # nobody went out: the stock ran out (R18)
        out.print(f"{result}{': ' + how if how else ''}{'!' if state.winner == seat else '.'}")

    def settle(self, k: int) -> None:
        """Deal ``k`` of a match paid by its stake (R21), and the score so far."""
        state = self.state
        self.done.append((self.start, self.history, state))
        before, self.standing = self.standing, self.standing.after(state.winner)
        standing = self.standing
        won = standing.won(before)[self.seat]
        pool = f"; {standing.pool} in the pool" if standing.pool else ""
        if won > 0:
            paid = f"you won {won}"
        elif won < 0:
            paid = f"you put {-won} into the pool" if state.winner is None else f"you paid {-won}"
        else:
            paid = "nothing paid"
        out.print(f"Deal {k + 1} of {self.match}: {paid}. Score: {_scores(standing, self.seat)}{pool}.")

    def close_match(self) -> None:
        """The end of a match: the pool shared out (R21) and who won it."""
        standing = self.standing
        if standing.pool:
            # R21: a pool left when the match ends goes back to the players in equal shares.
            out.print(f"The {standing.pool} left in the pool go back to the players in equal shares.")
            standing = self.standing = standing.closed()
        mine = standing.scores[self.seat]
        best = max(standing.scores)
        if len(set(standing.scores)) == 1:
            verdict = "the match is level"
        elif mine == best:
            verdict = "you won the match" if standing.scores.count(best) == 1 else "you share the lead"
        else:
            verdict = "you lost the match"
        out.print(
            f"Match over after {counted(self.match, 'deal')}: {verdict} ({_scores(standing, self.seat)})."
        )


def _scores(standing: Standing, seat: int) -> str:
    """``you +2, player 1 -2``: each player's winnings in the match so far (R21)."""
    return ", ".join(
        f"{'you' if p == seat else f'player {p}'} {v:+d}" for p, v in enumerate(standing.scores)
    )


def _commit(target: OutputFile | None) -> None:
    # The record is already in place (saved after every move): say where.
    if target is not None:
        out.print(f"Record saved to {target.path}.", markup=False)


def print_table(state: GameState, names: Callable[[int], list[str]], shown: Callable[[int], bool]) -> None:
    """The situation on its own line (a table title would wrap mid-phrase), then each seat: its
    number with ``names(p)`` and ``dealer`` in brackets, its hand where ``shown(p)`` and known
    (``empty`` for none; else its count), its layout."""
    lab = state.rules.labels
    out.print(state.describe(), markup=False)
    table = Table(show_header=True)
    table.add_column("player")
    table.add_column("hand")
    table.add_column("layout")
    for p in range(state.rules.players):
        hand = state.hands[p]
        cards = (format_mask(hand, lab) or "empty") if shown(p) and hand is not None else counted(state.counts[p], "card")
        layout = "  ".join(f"[{format_mask(m, lab)}]" for m in state.layouts[p]) or "-"
        about = ", ".join([*names(p), *(["dealer"] if p == state.dealer else [])])
        table.add_row(f"{p} ({about})" if about else str(p), cards, layout)
    out.print(table)


def _render(state: GameState, seat: int, names: list[str], *, reveal: bool = False) -> None:
    """The table from ``seat``'s view: each seat by its bot's name (``names``, ``you`` for
    ``seat``), the dealer marked; ``reveal``: every hand (the deal over)."""
    lab = state.rules.labels
    print_table(state, lambda p: ["you" if p == seat else names[p]], lambda p: p == seat or reveal)
    dead = " ".join(format_card(c, lab) for c in state.dead) or "none"
    centre = "none"
    if state.centre is not None:
        c = state.centre
        centre = f"{format_card(c.card, lab)} ({c.origin} by player {c.source})"
    out.print(f"stock {state.stock_count} | dead: {dead} | centre: {centre}")


def _ask(state: GameState, seat: int, names: list[str]) -> Move:
    lab = state.rules.labels
    moves = state.legal_moves()
    _render(state, seat, names)
    list_moves(moves, lab)
    while True:
        text = out.input("[bold]your move>[/bold] ").strip()
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "exit"):
            raise Quit
        if word == "help":
            out.print(
                "Type a move number or its text (pass, take [..] pay CARD, force N, lay [..] pay "
                "CARD, meld [..], give CARD); 'moves' lists them, 'hint' ranks them, 'quit' leaves.",
                markup=False,
            )
            continue
        if word == "moves":
            list_moves(moves, lab)
            continue
        if word == "hint":
            # The default hint of `conquian hint` (seed 0): sampled until its verdict is settled,
            # so that `conquian hint` on this view answers the same, as the board's Play tab does.
            mine = view(state, seat)
            advice = advise(
                mine, seed=0, time_limit=math.inf, until_decided=True,
                searches=MCTS_SEARCHES,
            )  # fmt: skip
            out.print(
                verdict_sentence(
                    advice.verdict, [e.move.text(lab) for e in advice.estimates],
                    [m.text(lab) for m in advice.close_to_best],
                    unit=ENGINES[advice.engine].unit,
                    stopped_by=advice.stopped_by,
                ),
                markup=False,
            )  # fmt: skip
            # Each move with its number in the 'moves' list, which is what a typed number plays
            # (ranks numbered 1..5 would read as move numbers: typing one would play another move).
            leans = leaning(mine, advice, ENGINES[advice.engine].method_name)
            if leans is not None:
                out.print(paragraph(prior_sentence(leans.text(lab))))
            out.print("Best first, each with its move number (type it to play the move):")
            each = "IS-MCTS iteration" if ENGINES[advice.engine].one_tree else "sampled deal"
            for e in advice.estimates[:5]:
                number = moves.index(e.move) + 1 if e.move in moves else "-"
                out.print(
                    hanging(
                        f"  {number}.",
                        f"{e.move.text(lab)}  (wins {100 * e.win:.0f}%, draws "
                        f"{100 * e.draw:.0f}% of {counted(e.samples, each)}; "
                        f"{'; '.join(e.reasons[2:4])})",
                    )
                )
            continue
        move = typed_move(text, moves, state, seat=seat)
        if isinstance(move, str):
            out.print(move, markup=False)
            continue
        return move


def typed_move(text: str, moves: list[Move], state: GameState, *, seat: int | None = None) -> Move | str:
    """The legal move that ``text`` names, by its number in ``moves`` or as a move read in the
    state's labels unless its own cards decide (R2); else the lines that say why not: for an
    illegal move the rule facts of ``conquian why`` (:func:`analyzer.solver.why.explain`), from
    ``seat``'s view when given, so that no hidden card's place is told (R6)."""
    lab = state.rules.labels
    k = small_number(text)  # not '01' nor another script's digits
    if k is not None:
        if 1 <= k <= len(moves):
            return moves[k - 1]
        return f"No move number {k}: choose 1 to {len(moves)}."
    if re.fullmatch(r"[+-]?[0-9]+", text):
        # '-1' and a 30-digit number are told which numbers to type, as '99' is, not
        # "not a move".
        return f"No move number {clip(text)!r}: choose 1 to {len(moves)}."
    try:
        move = parse_move(text, lab)
    except ConquianError as exc:
        message = str(exc)
        return message[:1].upper() + message[1:]
    if state.is_legal(move):
        return move
    seen = state if seat is None else view(state, seat)
    facts = explain(seen, move.text(lab), labels=lab).facts
    because = "".join(f"\n  - {fact}" for fact in facts)
    return (
        f"Illegal here: {move.text(lab)!r} ({state.describe()}){', because:' if facts else '.'}"
        f"{because}\nType 'moves' for the legal ones."
    )


def list_moves(moves: list[Move], labels: Labels) -> None:
    """The legal moves, numbered from 1 as a typed number plays them."""
    for k, move in enumerate(moves, 1):
        out.print(f"  {k:>3}. {move.text(labels)}", markup=False)
