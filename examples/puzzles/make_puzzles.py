"""Find puzzles in seeded bot games and write them here (run by hand; the answers are then
checked by the tests with the solver, and by hand for a few).

    python3 examples/puzzles/make_puzzles.py

A position becomes a puzzle when its question has an answer that is not
trivial: some moves keep the win and some do not, some pay cards are better
than others, or going out within N turns is possible with some moves only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from analyzer.core.moves import LayIn, Take  # noqa: E402
from analyzer.formats.position import dump_position  # noqa: E402
from analyzer.analysis.puzzles import load_puzzle, solve_puzzle  # noqa: E402
from analyzer.bots.simulate import play_game  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402

WANT = {("classic", "win"): 4, ("classic", "best_pay"): 4, ("classic", "go_out_within"): 4,
        ("megajogos", "win"): 3, ("megajogos", "best_pay"): 3, ("megajogos", "go_out_within"): 3}
MAX_STOCK = {"classic": 7, "megajogos": 4}
BUDGET = 300_000


def states_of(variant: str, seed: int) -> list[GameState]:
    seats = ["greedy"] * (2 if variant == "classic" else 3)
    result = play_game(variant, seats, seed)
    states, state = [], result.start
    for _, move in result.moves:
        states.append(state)
        state = state.apply(move)
    return states


def candidate(kind: str, state: GameState) -> dict | None:
    player = state.current_player()
    moves = state.legal_moves()
    goes_out_now = any(isinstance(m, (Take, LayIn)) and m.pay is None for m in moves)
    if kind in ("win", "go_out_within") and goes_out_now:
        return None  # too easy: the answer is to go out at once
    if kind == "win":
        question = {"kind": "win", "player": player}
    elif kind == "best_pay":
        pays = {m.pay for m in moves if isinstance(m, (Take, LayIn)) and m.pay is not None}
        if len(pays) < 2:
            return None
        question = {"kind": "best_pay"}
    else:
        question = {"kind": "go_out_within", "player": player, "turns": 2}
    data = {"type": "puzzle", "position": dump_position(state), "question": question}
    puzzle = load_puzzle(data)
    found = solve_puzzle(puzzle, max_nodes=BUDGET, time_limit=20)
    if not found["proven"]:
        return None
    if kind == "win" and not (found["wins"] and len(found["moves"]) < len(moves)):
        return None
    if kind == "best_pay" and not (0 < len(found["pays"]) < len(pays)):
        return None
    if kind == "go_out_within" and not (found["possible"] and len(found["moves"]) < len(moves)):
        return None
    answer = {k: v for k, v in found.items() if k not in ("proven", "nodes", "value")}
    data["answer"] = answer
    return data


def main() -> None:
    counts = dict.fromkeys(WANT, 0)
    for old in HERE.glob("*.json"):
        old.unlink()
    for variant in ("classic", "megajogos"):
        seed = 0
        while any(counts[(variant, k)] < WANT[(variant, k)] for k in ("win", "best_pay", "go_out_within")) and seed < 400:
            seed += 1
            used_kinds = set()
            for state in reversed(states_of(variant, seed)):
                if state.phase not in (Phase.OFFER, Phase.FORCED) or state.stock_count > MAX_STOCK[variant]:
                    continue
                if len(state.legal_moves()) < 2:
                    continue
                for kind in ("win", "best_pay", "go_out_within"):
                    if kind in used_kinds or counts[(variant, kind)] >= WANT[(variant, kind)]:
                        continue
                    data = candidate(kind, state)
                    if data is None:
                        continue
                    used_kinds.add(kind)
                    counts[(variant, kind)] += 1
                    n = counts[(variant, kind)]
                    who = data["question"].get("player", state.current_player())
                    data["title"] = {
                        "win": f"Player {who} to win",
                        "best_pay": f"Player {state.current_player()}: what to pay",
                        "go_out_within": f"Player {who} to go out within 2 turns",
                    }[kind]
                    data["description"] = f"From seeded greedy game {seed} of {variant}; every hand and the stock order are known."
                    data = {k: data[k] for k in ("type", "title", "description", "question", "answer", "position")}
                    path = HERE / f"{variant}-{kind.replace('_', '-')}-{n}.json"
                    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
                    print(path.name, data["answer"])
                    break
    print(counts)


if __name__ == "__main__":
    main()
