"""Strength: the hint bot against greedy, against the previous hint bot, and the all-seeing ceiling.

    python3 bench/strength.py [--games 2000] [--megajogos 1000] [--head 1000] [--ceiling 100]
                              [--jobs 2] [--seed 0] [--first 0] [--only NAME ...] [--json FILE]
                              [--hint BOT] [--old BOT] [--mexican N] [--foster N] [--force]

Every match is played with the bots rotating one seat per deal, so each bot
sits at each seat equally often, and deal i of a match is the same deal for
every match with the same seed.  The bots' budgets are counted in sampled
deals and positions, not seconds, so a run gives the same games on any
machine and under any load (only the seconds per deal change).

Matches (``--only`` picks some by name):

=========================  ===========================================  ===============
name                       seats                                        deals
=========================  ===========================================  ===============
classic-hint-greedy        hint, greedy                                 --games
classic-old-greedy         hint-v2, greedy                              --games
classic-hint-old           hint, hint-v2 (head to head)                 --head
classic-oracle-greedy      oracle (sees every card), greedy             --ceiling
megajogos-hint-greedy      hint, greedy, greedy                         --megajogos
megajogos-old-greedy       hint-v2, greedy, greedy                      --megajogos
megajogos-hint-old         hint, hint-v2, greedy (head to head)         --head
megajogos-oracle-greedy    oracle, greedy, greedy                       --ceiling
classic-best-greedy        oracle-greedy (best reply to greedy), greedy --ceiling
megajogos-best-greedy      oracle-greedy, greedy, greedy                --ceiling
classic-hint-ismcts        hint, ismcts (OpenSpiel IS-MCTS, equal time) --ismcts
megajogos-hint-ismcts      hint, ismcts, ismcts                         --ismcts
mexican-hint-greedy        hint, greedy                                 --mexican
mexican_9_10-hint-greedy   hint, greedy                                 --mexican
hoyle1897-hint-greedy      hint, greedy                                 --foster
cooncan1913-hint-greedy    hint, greedy                                 --foster
=========================  ===========================================  ===============

Printed per match: deals, seconds per deal, each bot's wins in its seats with
a 95% Wilson interval, draws, and for two players each bot's share of the
decided deals with its interval.  ``--hint``/``--old`` replace the two hint bots
by other bot names (with options, e.g. ``hint:samples=8``) to try a variant;
``--ismcts-bot`` sets the IS-MCTS budget (``ismcts:simulations=N``; pick N with
bench/ismcts.py so that it thinks as long per decision as the hint bot; needs
the openspiel extra).  ``--backend ray [--address ADDR]`` plays the deals as Ray
tasks (the ray extra), with the same results.  ``--json FILE`` also writes every
figure and each deal's winner (a new file; ``--force`` replaces one), so that two runs on the same seed can be compared
deal by deal (bench/paired.py).  Ctrl-C or ``kill PID`` ends the current match: the deals finished
so far are reported (JSON ``"interrupted": true``) and the run stops there;
``--first K`` (K = the deals it finished) continues it with deal K of the same seed,
seats rotating as they would have (JSON ``"first"``; bench/paired.py aligns the deals).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import check_json_path, count, whole

from analyzer.core.errors import ConquianError
from analyzer.bots.simulate import Summary, simulate
from analyzer.search.stats import wilson


def matches(args: argparse.Namespace) -> list[tuple[str, str, list[str], int]]:
    hint, old = args.hint, args.old
    return [
        ("classic-hint-greedy", "classic", [hint, "greedy"], args.games),
        ("classic-old-greedy", "classic", [old, "greedy"], args.games),
        ("classic-hint-old", "classic", [hint, old], args.head),
        ("classic-oracle-greedy", "classic", ["oracle", "greedy"], args.ceiling),
        ("megajogos-hint-greedy", "megajogos", [hint, "greedy", "greedy"], args.megajogos),
        ("megajogos-old-greedy", "megajogos", [old, "greedy", "greedy"], args.megajogos),
        ("megajogos-hint-old", "megajogos", [hint, old, "greedy"], args.head),
        ("megajogos-oracle-greedy", "megajogos", ["oracle", "greedy", "greedy"], args.ceiling),
        ("classic-best-greedy", "classic", ["oracle-greedy", "greedy"], args.ceiling),
        ("megajogos-best-greedy", "megajogos", ["oracle-greedy", "greedy", "greedy"], args.ceiling),
        ("classic-hint-ismcts", "classic", [hint, args.ismcts_bot], args.ismcts),
        ("megajogos-hint-ismcts", "megajogos", [hint, args.ismcts_bot, args.ismcts_bot], args.ismcts),
        ("mexican-hint-greedy", "mexican", [hint, "greedy"], args.mexican),
        ("mexican_9_10-hint-greedy", "mexican_9_10", [hint, "greedy"], args.mexican),
        ("hoyle1897-hint-greedy", "hoyle1897", [hint, "greedy"], args.foster),
        ("cooncan1913-hint-greedy", "cooncan1913", [hint, "greedy"], args.foster),
    ]


def rate(k: int, n: int) -> dict[str, object]:
    low, high = wilson(k, n)
    return {"wins": k, "of": n, "rate": round(k / n, 4) if n else 0.0, "ci95": [round(low, 4), round(high, 4)]}


def run(name: str, variant: str, bots: list[str], games: int, args: argparse.Namespace) -> dict[str, object]:
    summary = Summary(len(bots))
    start = time.perf_counter()
    winners: list[str | None] = []
    notes: dict[str, dict[str, int]] = {}
    played = simulate(
        variant, bots, games, args.seed, jobs=args.jobs, rotate=True,
        backend=args.backend, address=args.address, first=args.first,
    )
    interrupted = False
    try:
        for k, result in enumerate(played, 1):
            summary.add(result)
            for seat, note in zip(result.seats, result.notes, strict=False):  # notes may be ()
                if note:
                    into = notes.setdefault(seat, {})
                    for key, value in note.items():
                        into[key] = into.get(key, 0) + value
            w = result.final.winner
            winners.append(None if w is None else result.seats[w])
            if k % 50 == 0:
                print(f"  {name}: {k}/{games} deals, {time.perf_counter() - start:.0f} s", flush=True)
    except KeyboardInterrupt:
        # Ctrl-C (or SIGINT to this process) ends the match: the finished deals are reported,
        # marked as interrupted, and the run goes on to write its JSON.
        interrupted = True
        played.close()
        print(f"  {name}: interrupted after {count(summary.games, 'deal')}", flush=True)
    seconds = time.perf_counter() - start
    decided = summary.games - summary.draws
    bots_out = {}
    for bot in dict.fromkeys(bots):
        # .get: a run interrupted before its first deal has no counts yet
        entry = {"seat_games": rate(summary.wins_by_bot.get(bot, 0), summary.seats_by_bot.get(bot, 0))}
        if len(bots) == 2:
            entry["decided"] = rate(summary.wins_by_bot.get(bot, 0), decided)
        entry.update(notes.get(bot, {}))  # e.g. a ceiling bot's searches and unproven ones
        bots_out[bot] = entry
    data = {
        "match": name,
        "variant": variant,
        "seed": args.seed,
        "first": args.first,
        "seats": bots,
        "deals": summary.games,
        "interrupted": interrupted,
        "draws": summary.draws,
        # null when no deal finished (the seconds of no deal are no time per deal)
        "seconds_per_deal": round(seconds * args.jobs / summary.games, 2) if summary.games else None,
        "bots": bots_out,
        "winners": winners,
    }
    print(f"{name}: {count(summary.games, 'deal')} of {variant}, seats {bots} rotating, "
          + (f"{data['seconds_per_deal']} s per deal (one core)" if summary.games else "no deal finished"))
    if not summary.games:
        return data
    for bot, entry in bots_out.items():
        sg = entry["seat_games"]
        line = f"    {bot:<28} wins {sg['wins']}/{sg['of']} = {sg['rate']:.3f} (95% {sg['ci95'][0]:.3f}-{sg['ci95'][1]:.3f})"
        if "decided" in entry:
            d = entry["decided"]
            line += f"; of decided deals {d['wins']}/{d['of']} = {d['rate']:.3f} (95% {d['ci95'][0]:.3f}-{d['ci95'][1]:.3f})"
        if "searches" in entry:
            line += f"; {entry['unproven']} of its {entry['searches']} searches hit the budget"
        print(line)
    print(f"    draws {summary.draws} ({summary.draws / max(1, summary.games):.3f})", flush=True)
    return data


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    # Ctrl-C or `kill PID` (SIGTERM) ends the current match with the deals finished so far, even
    # when the shell started this process in the background with SIGINT ignored.
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="classic deals against greedy")
    parser.add_argument("--megajogos", type=int, default=1000, help="megajogos deals against greedy")
    parser.add_argument("--head", type=int, default=1000, help="head-to-head deals, new against old")
    parser.add_argument("--ceiling", type=int, default=100, help="deals of the all-seeing bot")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument(
        "--first", type=int, default=0,
        help="index of the first deal of the seed's series (continue a stopped run: its deal count)",
    )
    parser.add_argument("--hint", default="hint", help="the new bot")
    parser.add_argument("--old", default="hint-v2", help="the previous bot")
    parser.add_argument("--ismcts", type=int, default=0, help="deals against IS-MCTS (openspiel extra)")
    parser.add_argument("--mexican", type=int, default=0, help="deals of each Mexican preset against greedy")
    parser.add_argument("--foster", type=int, default=0, help="deals of each of Foster's presets against greedy")
    parser.add_argument("--ismcts-bot", default="ismcts", help="the IS-MCTS bot with its budget")
    parser.add_argument("--backend", default="local", choices=("local", "ray"), help="local or ray")
    parser.add_argument("--address", default=None, help="Ray cluster address (with --backend ray)")
    parser.add_argument("--only", nargs="+", metavar="MATCH", help="match names to run (default: every match; names in the module docstring)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON (a new file)")
    parser.add_argument("--force", action="store_true", help="let --json replace an existing file")
    args = parser.parse_args()
    todo = check(parser, args)
    results = []
    for name, variant, bots, games in todo:
        try:
            results.append(run(name, variant, bots, games, args))
        except ConquianError as exc:  # e.g. the Ray backend without its extra
            if args.json and results:  # the matches already played are kept
                args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
            parser.exit(1, f"strength.py: error: {exc}\n")
        if results[-1]["interrupted"]:
            break
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


DEALS_OPTION = {
    "classic-hint-greedy": "--games", "classic-old-greedy": "--games",
    "megajogos-hint-greedy": "--megajogos", "megajogos-old-greedy": "--megajogos",
    "classic-hint-old": "--head", "megajogos-hint-old": "--head",
    "classic-hint-ismcts": "--ismcts", "megajogos-hint-ismcts": "--ismcts",
    "mexican-hint-greedy": "--mexican", "mexican_9_10-hint-greedy": "--mexican",
    "hoyle1897-hint-greedy": "--foster", "cooncan1913-hint-greedy": "--foster",
}  # fmt: skip
"""The option that sets a match's deals (the others: --ceiling)."""


def check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[tuple[str, str, list[str], int]]:
    """The matches to play, or a one-line usage error (exit 2) before any deal is played: unknown
    match or bot names, negative counts, no worker, a --json file that exists or cannot be made."""
    from analyzer.bots.registry import check_bot
    from analyzer.core.errors import ConquianError
    from analyzer.core.rules import get_rules

    every = matches(args)
    names = [m[0] for m in every]
    unknown = [name for name in args.only or [] if name not in names]
    if unknown:
        parser.error(f"no match named {unknown[0]!r} (matches: {', '.join(names)})")
    for option in ("games", "megajogos", "head", "ceiling", "ismcts", "mexican", "foster"):
        if getattr(args, option) < 0:
            parser.error(f"--{option} must be 0 or more, not {getattr(args, option)}")
    if not 1 <= args.jobs <= 64:
        parser.error(f"--jobs must be from 1 to 64, not {args.jobs}")
    if args.address is not None and args.backend != "ray":
        parser.error("--address is for the ray backend (--backend ray)")
    if args.first < 0:
        parser.error(f"--first must be 0 or more, not {args.first}")
    todo = []
    for name, variant, bots, games in every:
        if args.only and name not in args.only:
            continue
        if games == 0:
            if args.only:
                parser.error(f"match {name} has 0 deals: give {DEALS_OPTION.get(name, '--ceiling')} N")
            continue
        todo.append((name, variant, bots, games))
    if not todo:
        parser.error("no match to play: every match has 0 deals")
    if args.only:
        # A deal count given for none of the matches asked for would be silently ignored.
        used = {DEALS_OPTION.get(name, "--ceiling") for name, _, _, _ in todo}
        for option in ("--games", "--megajogos", "--head", "--ceiling", "--ismcts", "--mexican", "--foster"):
            given = any(a == option or a.startswith(option + "=") for a in sys.argv[1:])
            if given and option not in used:
                parser.error(f"{option} sets the deals of other matches than {', '.join(args.only)} "
                             f"(use {' or '.join(sorted(used))})")
    for bot, variant in dict.fromkeys((b, v) for _, v, bots, _ in todo for b in bots):
        try:
            check_bot(bot, get_rules(variant))  # its options must act in the match's variant
        except ConquianError as exc:
            parser.error(f"bot {bot!r}: {exc}")
    check_json_path(parser, args.json, args.force)
    return todo

if __name__ == "__main__":
    main()
