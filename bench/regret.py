"""Where a bot gives results away against greedy: each of its decisions scored by the best reply.

    python3 bench/regret.py [--variant classic] [--games 40] [--seed 0] [--bot hint]
                            [--max-nodes 300000] [--json FILE [--force]]

Plays the deals of ``bench/strength.py``'s ``<variant>-hint-greedy`` match (deal
``i`` of ``--seed``, the bot in seat ``i mod players``, greedy bots in the
others: the same deals and seats as strength.py with ``--hint BOT``), then
replays each deal and scores every decision of the bot that had a choice: each
legal move is searched by :class:`analyzer.bots.reply.BestReply` (every card
known, the others playing greedy's rule, to the end of the deal), which gives
the best result (win +1, draw 0, loss -1; R20) the seat can still reach after
that move.  A decision *gives a result away* when the move played is worth
less than the best legal move; the points are the difference.  Each such
decision is filed by what went wrong:

* ``pay card``: the melds were right (a best move melds the same cards) but
  the card paid was not (R13);
* ``which take``: a best move is a take too, melding other cards;
* ``<played> instead of <best>``: the wrong kind of move, e.g. ``pass
  instead of take`` (R11, R12, R14, R16).

With ``--exchange BOT,BOT,...`` (``megajogos``, R9) only the exchange is
scored, for several bots on the same decisions: in deal ``i`` the seat ``i mod
players`` reaches its exchange (the seats before it giving greedy's card), each
bot chooses a card to give from that seat's view, and each choice is scored
by the best reply; the script prints each bot's mean value and how often its
give was worth less than the best, and each bot against the first, paired
(mean difference per decision with its 95% interval).

The best reply sees the stock order and the other hands, which a bot that
plays from its own view cannot; so this is not a list of mistakes, but it shows
where the results a bot loses against greedy are decided (docs/hint.md uses it).
A bot that sees every card and plays the best reply (``oracle-greedy``) gives
nothing away, which the tests check.  Searches that hit ``--max-nodes`` are
counted (``unproven``); their values are lower bounds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import check_json_path, count, variant, whole

from analyzer.bots.registry import BOTS, check_bot, make_bot
from analyzer.core.errors import ConquianError
from analyzer.core.melds import cards_of
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, format_move
from analyzer.core.dealing import deal, view
from analyzer.bots.reply import SCORE, BestReply
from analyzer.core.rules import Exchange, get_rules
from analyzer.bots.simulate import GameResult, game_seed, play_game
from analyzer.core.state import Phase

KINDS = ((Take, "take"), (LayIn, "lay-in"), (Pass, "pass"), (Force, "force"), (Meld, "meld"), (Give, "give"))


def kind(move: Move) -> str:
    """The kind of a move in the field's words (take, lay-in, pass, force, meld, give)."""
    for cls, name in KINDS:
        if isinstance(move, cls):
            return name
    return type(move).__name__.lower()


def category(played: Move, best: list[Move]) -> str:
    """What a decision that gave a result away got wrong (module docstring)."""
    kinds = sorted({kind(m) for m in best})
    if kind(played) not in kinds:
        return f"{kind(played)} instead of {'/'.join(kinds)}"
    if isinstance(played, (Take, LayIn)):
        melded = cards_of(played.layout)
        if any(isinstance(m, type(played)) and cards_of(m.layout) == melded for m in best):
            return "pay card"
        return f"which {kind(played)}"
    return f"which {kind(played)}"


def score_deal(result: GameResult, seat: int, max_nodes: int) -> tuple[list[dict[str, object]], int, int]:
    """Every decision of ``seat`` with a choice in a played deal, scored by the best reply.

    Returns
    -------
    records : list of dict
        Per decision: ``deal``, ``stock`` (cards left), ``played``, ``value`` (of the move
        played), ``best`` (the best value), ``best_moves`` and ``category`` (None when
        nothing was given away).
    searches, unproven : int
        Best-reply searches made, and those that hit ``max_nodes``.
    """
    reply = BestReply(seat, max_nodes=max_nodes)  # one table per deal
    state = result.start
    records: list[dict[str, object]] = []
    searches = unproven = 0
    for player, move in result.moves:
        if player == seat:
            legal = state.legal_moves()
            if len(legal) > 1:
                values: dict[Move, int] = {}
                for m in legal:
                    found = reply.solve(state.apply(m))
                    searches += 1
                    unproven += not found.proven
                    values[m] = SCORE[found.result]
                best = max(values.values())
                best_moves = [m for m in legal if values[m] == best]
                lost = values[move] < best
                labels = state.rules.labels  # the variant's card labels, as the CLI writes them
                records.append({
                    "deal": result.index, "stock": state.stock_count, "played": format_move(move, labels),
                    "value": values[move], "best": best,
                    "best_moves": [format_move(m, labels) for m in best_moves],
                    "category": category(move, best_moves) if lost else None,
                })  # fmt: skip
        state = state.apply(move)
    return records, searches, unproven


def exchanges(variant: str, names: list[str], games: int, seed: int, max_nodes: int) -> int:
    """``--exchange``: every bot's give at the same exchange decisions, scored by the best reply."""
    rules = get_rules(variant)
    n = rules.players
    bots = [make_bot(name) for name in names]
    greedy = make_bot("greedy")
    values: list[list[int]] = [[] for _ in names]
    bests: list[int] = []
    unproven = 0
    for i in range(games):
        deal_seed = game_seed(seed, i)
        seat = i % n
        rng = random.Random(deal_seed)
        state = deal(rules, rng)
        while not (state.phase is Phase.EXCHANGE and state.current_player() == seat):
            state = state.apply(greedy.choose(view(state, state.current_player()), rng))
        reply = BestReply(seat, max_nodes=max_nodes)
        worth = {}
        for m in state.legal_moves():
            found = reply.solve(state.apply(m))
            unproven += not found.proven
            worth[m] = SCORE[found.result]
        bests.append(max(worth.values()))
        for k, bot in enumerate(bots):
            # A ceiling bot (sees_all) is given the whole deal, as in play; every other bot its view.
            seen = state if getattr(bot, "sees_all", False) else view(state, seat)
            values[k].append(worth[bot.choose(seen, random.Random(deal_seed + 1))])
        print(f"  deal {i + 1}/{games}", file=sys.stderr)
    print(f"exchanges: {variant}, {count(games, 'deal')} of seed {seed}, each give scored by the best reply "
          f"(win +1, draw 0, loss -1); the best give is worth {statistics.fmean(bests):+.3f} on average")  # fmt: skip
    for name, got in zip(names, values, strict=True):
        wrong = sum(1 for g, b in zip(got, bests, strict=True) if g < b)
        print(f"  {name:<40} mean {statistics.fmean(got):+.3f}, worth less than the best in {wrong} of {games}")
    for name, got in zip(names[1:], values[1:], strict=True):
        diffs = [a - b for a, b in zip(got, values[0], strict=True)]
        half = 1.96 * statistics.pstdev(diffs) / len(diffs) ** 0.5
        print(f"  {name} - {names[0]}: {statistics.fmean(diffs):+.3f} +- {half:.3f} per decision (95%)")
    print(f"  {unproven} best-reply searches hit --max-nodes")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", type=variant, help="classic or megajogos")
    parser.add_argument("--games", type=whole(1), default=40, help="deals to play (40)")
    parser.add_argument("--seed", type=whole(0), default=0, help="deal seed, as strength.py's (0)")
    parser.add_argument("--bot", help="the bot to score, with options (hint)")
    parser.add_argument("--max-nodes", type=whole(1), default=300_000, help="positions per best-reply search")
    parser.add_argument("--json", type=Path, help="write every scored decision and the summary here")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --json file")
    parser.add_argument("--exchange", help="megajogos: score only the exchange (R9) of these bots, comma-separated")
    args = parser.parse_args(argv)
    check_json_path(parser, args.json, args.force)
    if args.exchange is not None and args.bot is not None:
        parser.error("--bot has no effect with --exchange: name every bot to score in --exchange")
    args.bot = "hint" if args.bot is None else args.bot
    names = args.exchange.split(",") if args.exchange is not None else [args.bot]
    for bot in names:
        name = bot.split(":", 1)[0]
        if name not in BOTS:
            parser.error(f"unknown bot: {name!r} (known: {', '.join(BOTS)})")
        try:
            check_bot(bot, get_rules(args.variant))  # its options are checked before any deal
        except ConquianError as exc:
            parser.error(str(exc))
    if args.exchange is not None:
        if get_rules(args.variant).exchange is Exchange.NONE:
            parser.error(f"--exchange: {args.variant} has no exchange (R9); use --variant megajogos")
        if args.json is not None:
            parser.error("--exchange prints its figures; --json is for the decisions of one bot")
        try:
            return exchanges(args.variant, names, args.games, args.seed, args.max_nodes)
        except ConquianError as exc:
            print(f"regret.py: {exc}", file=sys.stderr)
            return 1
    rules = get_rules(args.variant)
    n = rules.players
    records: list[dict[str, object]] = []
    results = Counter[str]()
    searches = unproven = 0
    start = time.perf_counter()
    try:
        for i in range(args.games):
            seat = i % n
            seats = ["greedy"] * n
            seats[seat] = args.bot
            result = play_game(rules, seats, game_seed(args.seed, i), i)
            found, s, u = score_deal(result, seat, args.max_nodes)
            winner = result.final.winner  # counted once the deal is scored (Ctrl-C may come first)
            results["drawn" if winner is None else "won" if winner == seat else "lost"] += 1
            records += found
            searches += s
            unproven += u
            print(f"  deal {i + 1}/{args.games}: {count(len(found), 'decision')} scored", file=sys.stderr)
    except ConquianError as exc:
        print(f"regret.py: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"regret.py: interrupted; the {count(sum(results.values()), 'deal')} scored so far follow", file=sys.stderr)
    given = [r for r in records if r["category"] is not None]
    points = Counter[str]()
    counts = Counter[str]()
    for r in given:
        counts[str(r["category"])] += 1
        points[str(r["category"])] += int(r["best"]) - int(r["value"])  # type: ignore[call-overload]
    played = sum(results.values())
    total = sum(points.values())
    print(f"regret: {args.variant}, {count(played, 'deal')} of seed {args.seed}, {args.bot} against greedy "
          f"(seats rotating), {time.perf_counter() - start:.0f} s")  # fmt: skip
    print(f"  {args.bot} won {results['won']}, lost {results['lost']}, drew {results['drawn']}")
    share = len(given) / len(records) if records else 0.0
    print(f"  {count(len(records), 'decision')} with a choice; {len(given)} gave away a result the best reply "
          f"kept ({share:.1%}), {total} points (win +1, draw 0, loss -1), {total / max(1, played):.2f} per deal")  # fmt: skip
    for cat, k in counts.most_common():
        print(f"    {cat:<28} {k:>4} decisions {points[cat]:>4} points")
    print(f"  {count(searches, 'best-reply search', 'best-reply searches')}, {unproven} hit --max-nodes (their values are lower bounds)")
    if args.json is not None:
        summary = {
            "variant": args.variant, "seed": args.seed, "bot": args.bot, "deals": played,
            "won": results["won"], "lost": results["lost"], "drawn": results["drawn"],
            "decisions": len(records), "giving_away": len(given), "points": total,
            "by_category": {c: {"decisions": counts[c], "points": points[c]} for c in counts},
            "searches": searches, "unproven": unproven, "records": records,
        }  # fmt: skip
        try:
            args.json.write_text(json.dumps(summary, indent=1), encoding="utf-8")
        except OSError as exc:
            print(f"regret.py: cannot write {args.json}: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
