"""New against old on the same deals: two or more ``bench/strength.py --json`` runs compared deal by deal.

    python3 bench/paired.py NEW.json OLD.json [NEW2.json OLD2.json ...] [--match NAME]

Each NEW/OLD pair is two runs of the same match kind on the same seed (deal i
is the same deal in both, seats rotating the same way), for example the hint
bot against two greedy bots before and after a change.  The bot under test
is each run's first seat.  Per deal its result is scored win +1, draw 0,
loss -1; the pairs' deals are pooled and the script prints, for each side,
wins, draws and losses (with the 95% Wilson interval of the win rate), then
the mean paired difference NEW - OLD per deal with its 95% interval (normal
approximation over the deals, 1.96 standard errors) and how many deals ended
differently.  Only the deals both runs played are compared (a run stopped
early keeps its finished deals; a run continued with ``strength.py --first K``
starts at deal K, JSON ``"first"``, 0 when absent).  A pair whose seeds,
variants or seat counts differ is refused: its deals are not the same deals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.search.stats import wilson


def load(path: Path, match: str | None) -> dict[str, object]:
    """The match of a strength.py JSON file (the only one, or the one named ``match``)."""
    name = Path(sys.argv[0]).name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:  # a file name the user gave that cannot be read: a usage error
        print(f"{name}: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except UnicodeDecodeError:
        sys.exit(f"{name}: {path} is not UTF-8 text")
    try:
        every = json.loads(text)
    except ValueError as exc:
        sys.exit(f"{name}: {path} is not JSON: {exc}")
    fields = ("match", "seats", "winners")
    if not isinstance(every, list) or not all(isinstance(r, dict) for r in every):
        sys.exit(f"{Path(sys.argv[0]).name}: {path} is not a strength.py --json file (a list of matches)")
    for k, r in enumerate(every):
        missing = [f for f in fields if f not in r]
        if missing:
            sys.exit(f"{name}: {path}: match {k + 1} has no {', '.join(repr(f) for f in missing)} "
                     "(not a strength.py --json file?)")
    runs = [r for r in every if match is None or r.get("match") == match]
    if not runs:
        sys.exit(f"{Path(sys.argv[0]).name}: {path} holds no match{'' if match is None else ' ' + repr(match)}")
    if len(runs) != 1:
        names = ", ".join(str(r.get("match")) for r in every)
        sys.exit(f"{Path(sys.argv[0]).name}: {path} holds {len(runs)} matches ({names}); pick one with --match")
    run: dict[str, object] = runs[0]
    problem = _misshapen(run)
    if problem:
        sys.exit(f"{name}: {path}: {problem}")
    return run


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _misshapen(run: dict[str, object]) -> str | None:
    """What is wrong with a match record of strength.py's JSON (hand-edited), or None."""
    seats, winners = run["seats"], run["winners"]
    if not isinstance(seats, list) or not seats or not all(isinstance(b, str) for b in seats):
        return f"'seats' must be a list of bot names, not {json.dumps(seats)[:60]}"
    if not isinstance(winners, list):
        return f"'winners' must be a list, not {json.dumps(winners)[:60]}"
    for w in winners:
        if w is not None and w not in seats:
            return f"winner {json.dumps(w)[:60]} is none of the seats {seats} (null: a draw)"
    for key in ("seed", "first"):
        if key in run and not _whole(run[key]):
            return f"'{key}' must be a whole number of at least 0, not {json.dumps(run[key])[:60]}"
    if "deals" in run and not _whole(run["deals"]):
        return f"'deals' must be a whole number of at least 0, not {json.dumps(run['deals'])[:60]}"
    if "deals" in run and run["deals"] != len(winners):
        return f"'deals' is {run['deals']} but 'winners' lists {len(winners)} deals"
    return None


def scores(run: dict[str, object]) -> dict[int, int]:
    """Per deal index of the seed's series, the first seat's bot: win +1, draw 0, loss -1."""
    bot = run["seats"][0]  # type: ignore[index]
    first = int(run.get("first", 0))  # type: ignore[call-overload]
    return {
        first + i: 0 if w is None else (1 if w == bot else -1)
        for i, w in enumerate(run["winners"])  # type: ignore[arg-type]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="NEW.json OLD.json, pair after pair")
    parser.add_argument("--match", help="the match to compare when a file holds several")
    args = parser.parse_args()
    if len(args.files) % 2:
        parser.error("give the files in pairs: NEW.json OLD.json ...")
    diffs: list[int] = []
    new_all: list[int] = []
    old_all: list[int] = []
    for new_path, old_path in zip(args.files[::2], args.files[1::2], strict=True):
        new, old = load(new_path, args.match), load(old_path, args.match)
        for key in ("variant", "seed"):
            if key in new and key in old and new[key] != old[key]:
                sys.exit(f"paired.py: {new_path} and {old_path} differ in {key}: not the same deals")
        if len(new["seats"]) != len(old["seats"]):  # type: ignore[arg-type]
            sys.exit(f"paired.py: {new_path} and {old_path} seat different numbers of players")
        a, b = scores(new), scores(old)
        both = sorted(a.keys() & b.keys())
        n = len(both)
        print(f"{new_path} ({new['seats'][0]}) against {old_path} ({old['seats'][0]}): {n} deals")  # type: ignore[index]
        new_all += [a[i] for i in both]
        old_all += [b[i] for i in both]
        diffs += [a[i] - b[i] for i in both]
    n = len(diffs)
    if n == 0:
        sys.exit("paired.py: no deals to compare")
    for side, results in (("new", new_all), ("old", old_all)):
        won, drawn = results.count(1), results.count(0)
        low, high = wilson(won, n)
        print(f"  {side}: won {won}, drew {drawn}, lost {n - won - drawn} of {n}: "
              f"{won / n:.1%} ({low:.1%}-{high:.1%})")
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.pstdev(diffs) / n**0.5
    print(f"  paired difference new - old per deal (win +1, draw 0, loss -1): {mean:+.3f} +- {half:.3f} "
          f"(95%); {sum(1 for d in diffs if d)} of {n} deals ended differently")


if __name__ == "__main__":
    main()
