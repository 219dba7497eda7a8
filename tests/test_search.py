"""The game-tree search: hand-solved endgames, plain minimax agreement, chance, budgets, trees."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from analyzer.core.cards import FULL_DECK, format_mask, mask_of, parse_cards
from analyzer.core.moves import Force, Pass, Take, parse_move
from analyzer.core.dealing import deal
from analyzer.core.plain import dump_position
from analyzer.formats.position import load_position
from analyzer.core.rules import CLASSIC, MEGAJOGOS, PRESETS, Rules
from analyzer.search.exact import Solver, outcome_vector, solve
from analyzer.core.state import GameState, Phase
from analyzer.search.tree import build_tree, export_tree

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

P0_LAYOUT = [["AS", "2S", "3S", "4S"], ["5H", "5D", "5C"], ["KS", "KH", "KD"]]
JUNK = ["AH", "2H", "3H", "6S", "7D", "JD", "QD", "QC", "2C", "3C"]


def endgame(stock: list[str] | int, centre: dict[str, Any] | None, to_act: int, p1_hand: list[str] = JUNK) -> GameState:
    """Classic: player 0 has 10 cards melded and no hand; every other card not named is dead."""
    named = set(p1_hand) | {c for meld in P0_LAYOUT for c in meld}
    if centre is not None:
        named.add(centre["card"])
    if isinstance(stock, list):
        named |= set(stock)
    rest = FULL_DECK & ~mask_of(parse_cards(" ".join(named)))
    dead = format_mask(rest).split()
    if isinstance(stock, int):
        # Hidden order: leave ``stock`` cards of the rest in the stock (the last ones).
        dead = dead[: len(dead) - stock]
    return load_position(
        {
            "variant": "classic",
            "dealer": 1,
            "to_act": to_act,
            "players": [{"hand": [], "layout": P0_LAYOUT}, {"hand": p1_hand, "layout": []}],
            "stock": stock,
            "dead": dead,
            "centre": centre,
        }
    )


def test_going_out_at_once_is_found() -> None:
    state = endgame(["6C"], {"card": "5S", "kind": "turned", "source": 0, "declined": []}, 0)
    result = solve(state)
    assert result.winner == 0 and result.proven and result.values == (1.0, -1.0)
    assert isinstance(result.pv[0], Take) and result.pv[0].pay is None


def test_forcing_an_empty_hand_loses_passing_draws() -> None:
    # Worked out by hand: player 1 forcing 5S makes player 0 go out (R14, R15); after a pass the
    # last stock card 6C fits nobody, so the deal ends in a draw (R18).
    state = endgame(["6C"], {"card": "5S", "kind": "turned", "source": 0, "declined": [0]}, 1)
    result = solve(state)
    assert result.proven and result.winner is None and result.outcome == (0.0, 0.0, 1.0)
    assert result.pv[0] == Pass()
    assert solve(state.apply(Force(0))).winner == 0


def test_last_card_that_fits_wins_for_player_0() -> None:
    # By hand: whatever player 1 does, KC is turned and offered to player 0, whose kings take it.
    state = endgame(["KC"], {"card": "5S", "kind": "turned", "source": 0, "declined": [0]}, 1)
    result = solve(state)
    assert result.proven and result.winner == 0 and result.values == (1.0, -1.0)


def test_best_pay_avoids_the_cards_that_fit() -> None:
    # Player 1 takes JH with 6H 7H; paying KC or 5S hands player 0 the game, any other pay draws.
    hand = ["6H", "7H", "KC", "5S", "AH", "2H", "3D", "QD", "QC", "2C"]
    state = endgame([], {"card": "JH", "kind": "turned", "source": 1, "declined": []}, 1, hand)
    values = {}
    for move in state.legal_moves():
        values[move.text()] = solve(state.apply(move)).values[1]
    assert values["take [6H 7H JH] pay KC"] == -1.0 and values["take [6H 7H JH] pay 5S"] == -1.0
    assert values["take [6H 7H JH] pay QC"] == 0.0 and values["pass"] == 0.0
    assert solve(state).values == (0.0, 0.0)


def plain_minimax(state: GameState) -> tuple[float, ...]:
    """Reference: a plain max-n/minimax search without table or pruning (expected results, R20)."""
    if state.is_terminal():
        return state.returns()
    if state.is_chance_node():
        total = [0.0] * state.rules.players
        for move, p in state.chance_outcomes():
            for k, v in enumerate(plain_minimax(state.apply(move))):
                total[k] += p * v
        return tuple(total)
    player = state.current_player()
    best: tuple[float, ...] | None = None
    for move in state.legal_moves():
        value = plain_minimax(state.apply(move))
        if best is None or value[player] > best[player] + 1e-12:
            best = value
    assert best is not None
    return best


def small_positions(rules: Rules, count: int, max_stock: int) -> list[GameState]:
    """Late positions of seeded random deals, with the stock order known."""
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        state = deal(rules, seed)
        while not state.is_terminal():
            if state.stock_count <= max_stock and not state.is_chance_node() and state.phase is not Phase.EXCHANGE:
                out.append(state)
                break
            state = state.apply(rng.choice(state.legal_moves()))
    return out


# Every preset at its own player count, and the MegaJogos rules at 2 and 4 players (R8); with
# four, plain max-n over the whole tree is slow in Python, so fewer and shorter positions.
COUNTS = [(CLASSIC, 12, 2), (MEGAJOGOS, 12, 2), (MEGAJOGOS.with_players(2), 12, 2),
          (MEGAJOGOS.with_players(4), 5, 0)]  # fmt: skip


def _count_id(case: Any) -> str:
    return f"{case.name}-{case.players}p" if isinstance(case, Rules) else str(case)


@pytest.mark.parametrize(("rules", "count", "stock"), COUNTS, ids=_count_id)
def test_agrees_with_plain_minimax(rules: Rules, count: int, stock: int) -> None:
    for state in small_positions(rules, count, stock):
        expected = plain_minimax(state)
        result = solve(state)
        assert result.proven
        assert result.values == pytest.approx(expected), state.describe()
        # The principal variation is legal and ends where the value says.
        end = state
        for move in result.pv:
            end = end.apply(move)
        assert end.is_terminal() and end.returns() == pytest.approx(expected)


def test_maxn_with_shallow_cuts_agrees_with_plain_maxn_on_longer_endgames() -> None:
    """Max-n skips the moves that cannot change a choice (shallow pruning: any two players'
    results add up to at most 0, R20); with four stock cards left, where such cuts happen
    (draws of R18's fewest-in-hand tie among them), every player's value, the principal
    variation and the table's moves equal plain max-n's, ties to the move listed first."""
    draws = 0
    for state in small_positions(MEGAJOGOS, 5, 4):
        expected = plain_minimax(state)
        result = solve(state, mode="maxn")
        assert result.proven and result.values == pytest.approx(expected), state.describe()
        end = state
        for move in result.pv:
            end = end.apply(move)
        assert end.is_terminal() and end.returns() == pytest.approx(expected)
        draws += result.winner is None
    assert draws  # a draw somewhere: the cuts have something to cut


def test_paranoid_is_at_most_maxn_for_the_root_player() -> None:
    for state in small_positions(MEGAJOGOS, 6, 2):
        root = state.current_player()
        maxn = solve(state, mode="maxn")
        paranoid = solve(state, mode="paranoid")
        assert paranoid.proven and maxn.proven
        assert paranoid.values[root] <= maxn.values[root] + 1e-9


def test_expectimax_over_two_stock_cards() -> None:
    # At a turn with two unknown stock cards the first card decides everything after it, so the
    # expectimax value is the average of the two double-dummy values.
    base = endgame(2, None, 1)
    assert base.is_chance_node() and base.stock is None
    outcomes = base.chance_outcomes()
    assert len(outcomes) == 2 and all(p == 0.5 for _, p in outcomes)
    result = solve(base)
    expected = [0.0, 0.0, 0.0]
    for move, _ in outcomes:
        data = dump_position(base)
        rest = [c for c in (format_mask(FULL_DECK & ~base.known_mask()).split())]
        first = move.text().split()[1]
        data["stock"] = [first] + [c for c in rest if c != first]
        known = solve(load_position(data))
        for k in range(3):
            expected[k] += 0.5 * known.outcome[k]
    assert result.proven and result.outcome == pytest.approx(tuple(expected))


def test_budget_is_respected_and_reported() -> None:
    state = deal(CLASSIC, 0)
    result = solve(state, max_nodes=500)
    assert not result.proven and result.nodes <= 501


def test_solver_table_is_not_shared_across_deals() -> None:
    solver = Solver()
    a = solver.solve(endgame(["6C"], {"card": "5S", "kind": "turned", "source": 0, "declined": [0]}, 1))
    b = solver.solve(endgame(["KC"], {"card": "5S", "kind": "turned", "source": 0, "declined": [0]}, 1))
    assert a.winner is None and b.winner == 0


def test_outcome_vector() -> None:
    over = endgame(["6C"], {"card": "5S", "kind": "turned", "source": 0, "declined": []}, 0)
    won = over.apply(over.legal_moves()[0])
    assert outcome_vector(won) == (1.0, 0.0, 0.0)


def test_tree_merges_transpositions_and_exports(tmp_path: Path) -> None:
    # megajogos: two hand-only melds laid in either order reach the same position (R16).
    data = {
        "variant": "megajogos",
        "dealer": 2,
        "to_act": 0,
        "players": [
            {"hand": ["1o", "2o", "3o", "5c", "6c", "7c", "12e", "12b"], "layout": []},
            {"hand": ["1b", "2b", "3b", "4b", "5b", "6b", "7b", "10b"], "layout": []},
            {"hand": ["5e", "6e", "7e", "10e", "11e", "4c", "12o", "11b"], "layout": []},
        ],
        "stock": 15,
        "dead": [],
        "centre": {"card": "4o", "kind": "turned", "source": 0, "declined": []},
    }
    state = load_position(data)
    graph = build_tree(state, depth=2, solve_values=False)
    assert any(graph.in_degree(n) >= 2 for n in graph.nodes), "a transposition is one node"
    assert graph.number_of_edges() > graph.number_of_nodes() - 1
    root = graph.graph["root"]
    assert graph.nodes[root]["depth"] == 0 and graph.nodes[root]["player"] == 0
    for fmt in ("graphml", "gexf", "json"):
        path = tmp_path / f"tree.{fmt}"
        assert export_tree(graph, path) == fmt
        if fmt == "graphml":
            again = nx.read_graphml(path)
            assert again.number_of_nodes() == graph.number_of_nodes()
        if fmt == "json":
            loaded = json.loads(path.read_text())
            assert len(loaded["nodes"]) == graph.number_of_nodes()


def test_tree_values_and_limits() -> None:
    state = endgame(["6C"], {"card": "5S", "kind": "turned", "source": 0, "declined": [0]}, 1)
    graph = build_tree(state, depth=6)
    root = graph.graph["root"]
    assert graph.nodes[root]["value"] == [0.0, 0.0]  # numbers, not their JSON text
    assert graph.graph["pv"][0] == "pass"
    small = build_tree(deal(CLASSIC, 1), depth=4, max_nodes=10, solve_values=False)
    assert small.number_of_nodes() <= 10 and small.graph["truncated"]


@pytest.mark.parametrize("budget", [30, 50, 100, 1000])
def test_tree_values_and_line_agree_whatever_the_budget(budget: int) -> None:
    # With a small --budget the root's own solve runs out and could give 'pass' as the line,
    # while the solves of the nodes below prove that a take wins (and 'pass' loses).  Every
    # proven value must be the exact one, and the line must follow them.
    from analyzer.bots.deals import deal_position

    state, _ = deal_position(CLASSIC, seed=2, after=12)
    graph = build_tree(state, depth=3, solver=Solver(max_nodes=budget, time_limit=60.0))
    root = graph.graph["root"]
    exact = solve(state)
    assert exact.proven
    if graph.graph["proven"]:
        assert graph.nodes[root]["value"] == pytest.approx(list(exact.values))
    for _, child, edge in graph.out_edges(root, data=True):
        node = graph.nodes[child]
        if node["proven"]:
            after = solve(state.apply(parse_move(edge["move"], state.rules.labels)))
            assert node["value"] == pytest.approx(list(after.values)), edge["move"]
    first = graph.graph["pv"][0]
    moved = next(c for _, c, e in graph.out_edges(root, data=True) if e["move"] == first)
    if graph.graph["proven"]:  # the line's first move is a best move, by the values shown
        player = state.current_player()
        assert graph.nodes[moved]["value"][player] == pytest.approx(exact.values[player])
    if budget >= 50:  # the nodes below prove it here (this position)
        assert graph.graph["proven"] and first.startswith("take")


@pytest.mark.parametrize("rules", [r for r, n, _ in COUNTS if r.players < 4], ids=_count_id)
def test_runs_of_dead_offers_agree_with_plain_minimax(rules: Rules) -> None:
    """Longer endgames, where the search passes runs of dead offers without building them
    (:meth:`GameState.run_forced`): minimax / max-n with the stock order known, and
    expectimax with it unknown, equal the plain search that applies every move (R10-R20)."""
    for state in small_positions(rules, 4, 4):
        expected = plain_minimax(state)
        result = solve(state)
        assert result.proven and result.values == pytest.approx(expected), state.describe()
        unordered = state.evolve(stock=None)
        chance = solve(unordered)
        assert chance.proven and chance.values == pytest.approx(plain_minimax(unordered))


def test_paused_gc_restores_the_collector() -> None:
    """The collector is off inside a search and as it was after it, also after an error
    and when nested; a solve, a lookahead and an IS-MCTS search leave it on."""
    import gc

    from analyzer.search.exact import paused_gc

    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), paused_gc():
        raise ZeroDivisionError
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()

    seen: list[bool] = []

    def leaf(position: GameState) -> tuple[float, ...]:
        seen.append(gc.isenabled())
        return (0.0, 0.0, 1.0)

    state = deal(CLASSIC, 4)
    Solver(max_nodes=50, leaf=leaf).solve(state)  # the budget runs out: the leaf is asked
    assert seen and not any(seen) and gc.isenabled()
    from analyzer.search import mcts

    mcts.search(small_positions(CLASSIC, 1, 2)[0], 20, seed=1)
    assert gc.isenabled()


def test_bounds_on_a_turn_are_for_the_player_who_turns() -> None:
    # On a turn (R10) 'solve' says "player 1 to act"; the proven bounds are that turning
    # player's too, and hold the exact value.
    from cli_run import run

    from analyzer.bots.deals import deal_position

    state, _ = deal_position("classic", seed=3)
    assert state.phase is Phase.TURN
    exact = Solver().solve(state)
    assert exact.proven
    for budget in (300, 3000, 30000):
        cut = Solver(max_nodes=budget).solve(state)
        value = exact.values[state.to_act]
        assert cut.lower - 1e-9 <= value <= cut.upper + 1e-9
    code, out, err = run("solve", "-", "--budget", "300", "--json", input=json.dumps(dump_position(state)))
    assert code == 0, err
    assert json.loads(out)["bounds"]["player"] == state.to_act == 1
    code, out, _ = run("solve", "-", "--budget", "300", input=json.dumps(dump_position(state)))
    assert "player 1 to act" in out and f"Proven for player {state.to_act}:" in out


def test_a_finished_deal_has_the_bounds_of_the_seat_it_names() -> None:
    # A finished deal's bounds are those of the seat they name: on a deal player 1 has won,
    # +1..+1 for player 1, not player 0's -1..-1. R20: the winner's result is +1, another's
    # -1, a draw 0.
    from analyzer.bots.simulate import game_seed, play_game

    seen = set()
    for k in range(12):
        end = play_game("classic", ["greedy", "greedy"], game_seed(4, k), k).final
        result = solve(end)
        expected = 0.0 if end.winner is None else (1.0 if end.winner == end.to_act else -1.0)
        assert (result.lower, result.upper) == (expected, expected)
        assert result.values[end.to_act] == expected
        seen.add(end.winner)
    assert {0, 1} <= seen


def test_a_search_cut_as_a_forced_run_ends_the_deal_values_the_finished_deal() -> None:
    # When the clock or stop ends the search just as a run of forced passes ends the deal
    # (R17, R18), the value is the finished deal's, not a leaf evaluation of it (which refuses).
    from analyzer.bots.game import play_game

    class CutAtOnce(Solver):
        def _tick_many(self, steps: int) -> bool:
            self.nodes += steps
            self._exhausted, self.stopped_by = True, "time"
            return True

    found = 0
    for seed in range(40):
        result = play_game("classic", ["greedy", "greedy"], seed)
        state = result.start
        for _, move in result.moves:
            after, steps = state.run_forced(10**6)
            if steps and after.phase is Phase.OVER and state.phase is Phase.OFFER:
                answer = CutAtOnce().solve(state)
                assert answer.outcome == outcome_vector(after)
                found += 1
                break
            state = state.apply(move)
    assert found >= 3
