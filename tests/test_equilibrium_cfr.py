"""CFR+ on equilibrium endgames (analyzer.search.cfr, native/src/search/equilibrium.rs): on small
endgames of seeded greedy deals of the two-player presets, CFR+ reaches its tolerance and agrees
with the sequence-form LP within what the exploitability allows; the native core builds the same
tree as Python (positions, information sets, deals, in the same order) and its CFR+ gives the
same iterates as the Python reference."""

from __future__ import annotations

import signal
from functools import cache
from typing import Any

import pytest

from analyzer.bots.game import play_game
from analyzer.core import native
from analyzer.core.dealing import view
from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules, get_rules
from analyzer.core.state import GameState, Phase
from analyzer.search.cfr import exploitability, solve_cfr
from analyzer.search.equilibrium import (
    LP_NODES,
    EndgameTooLarge,
    EndgameTree,
    build_endgame,
    native_prior,
    solve_endgame,
)

pytestmark = pytest.mark.usefixtures("both_cores")

VARIANTS = ["classic", "hoyle1897", "cooncan1913", "megajogos", "mexican", "mexican_9_10"]
PER_VARIANT = 5
SMALL = 3_000


def _rules(variant: str) -> Rules:
    rules = get_rules(variant)
    return rules if rules.players == 2 else rules.with_options({"players": 2})


@cache
def _endgames(variant: str) -> tuple[GameState, ...]:
    """Views of the player to act in seeded greedy two-player deals: per deal, the first choice
    with at most 8 stock cards left whose endgame has 200 to ``SMALL`` positions."""
    rules = _rules(variant)
    found: list[GameState] = []
    with native.use_core("python"):  # the same views whichever core the test runs on
        for seed in range(80):
            game = play_game(rules, ["greedy", "greedy"], seed)
            state = game.start
            for _, move in game.moves:
                if state.phase in (Phase.OFFER, Phase.FORCED) and state.stock_count <= 8 and len(state.legal_moves()) >= 2:
                    mine = view(state, state.to_act)
                    if _size(mine) >= 200:
                        found.append(mine)
                        break
                state = state.apply(move)
            if len(found) >= PER_VARIANT:
                break
    return tuple(found)


def _size(mine: GameState, cap: int = SMALL) -> int:
    """The positions of the endgame of ``mine``, 0 above ``cap`` (by the native core when it
    is built: its tree is Python's, test_the_native_tree_is_pythons)."""
    if native.native_available():
        return int(_native_tree(mine, cap, keys=False)[1][0])
    try:
        return build_endgame(mine, max_nodes=cap).nodes
    except EndgameTooLarge:
        return 0


def _hand_weight(tree: EndgameTree, mine: GameState) -> float:
    """The chance probability of the hand of the player to act (of the root deals)."""
    me = mine.to_act
    return sum(prob for child, prob in tree.children[0] if tree.root_hands[child][me] == mine.hands[me])


def _native_tree(mine: GameState, max_nodes: int, prior: object = None, keys: bool = True) -> tuple[Any, ...]:
    """The native core's tree of ``mine``: why it was not built, its size, and its keys (each
    information set as ``(player, hand, history)``, each deal as ``(hand 0, hand 1, probability)``)."""
    options = {"max_nodes": max_nodes, "prior": prior, "stop": None, "keys": keys}
    found = native.native_module().equilibrium_tree(native.pack_rules(mine.rules), native.pack_state(mine), options)
    size, data = found["size"], found["keys"]
    flat = None
    if data is not None:
        flat = (
            [(i["player"], i["hand"], i["history"]) for i in data["infosets"]],
            [(d["hand0"], d["hand1"], d["probability"]) for d in data["deals"]],
            data["parent_seq"],
            data["seq_base"],
        )
    return found["why"], (size["nodes"], size["infosets"], size["deals"]), flat


def test_the_endgames_are_many_and_small() -> None:
    counts = {v: len(_endgames(v)) for v in VARIANTS}
    assert sum(counts.values()) >= 24 and min(counts.values()) >= 3, counts


@pytest.mark.parametrize("variant", VARIANTS)
def test_cfr_reaches_its_tolerance_and_agrees_with_the_lp(variant: str) -> None:
    """CFR+'s average strategies are an e-equilibrium (e = its exploitability, below the
    tolerance), so: the game value is within 2e of the LP's (both lie between the two best
    responses' values), his hand's value within 2e/w (w: his hand's chance probability), and each
    move's value at most the hand's plus 2e/w, and at least the hand's minus 2e/(w p) for a move
    played with probability p.  The values of a move neither plays are not unique (any reply
    that deters it is an equilibrium's), so only their bound is checked."""
    for mine in _endgames(variant):
        tree = build_endgame(mine, max_nodes=SMALL)
        lp = solve_endgame(mine, method="lp")
        cfr = solve_endgame(mine, method="cfr", tolerance=1e-4)
        assert (lp.method, cfr.method) == ("lp", "cfr") and cfr.stopped_by is None
        assert 0.0 <= cfr.exploitability <= 1e-4 and cfr.iterations >= 1 and cfr.tolerance == 1e-4
        assert lp.exploitability < 1e-6
        assert (cfr.nodes, cfr.infosets, cfr.deals) == (lp.nodes, lp.infosets, lp.deals) == (
            tree.nodes,
            len(tree.infosets),
            len(tree.children[0]),
        )
        eps = cfr.exploitability + lp.exploitability
        bound = 2.0 * eps / _hand_weight(tree, mine) + 1e-7
        assert abs(cfr.game_value - lp.game_value) <= 2.0 * eps + 1e-7
        assert abs(cfr.value - lp.value) <= bound
        assert set(cfr.strategy) == set(lp.strategy) == set(mine.legal_moves())
        assert abs(sum(cfr.strategy.values()) - 1.0) < 1e-9
        assert abs(cfr.value - sum(p * cfr.move_values[m] for m, p in cfr.strategy.items())) < 1e-9
        for move, p in cfr.strategy.items():
            assert cfr.move_values[move] <= cfr.value + bound
            if p > 0.0:
                assert cfr.move_values[move] >= cfr.value - bound / p
            if lp.strategy[move] > 1e-6 and p > 0.0:  # played by both: worth the hand's value
                assert abs(cfr.move_values[move] - lp.move_values[move]) <= bound + bound / p + 1e-6


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_native_tree_is_pythons(variant: str) -> None:
    if not native.native_available():
        pytest.skip("the native core is not built")
    for mine in _endgames(variant):
        tree = build_endgame(mine, max_nodes=SMALL)
        why, (nodes, infosets, deals), (keys, dealt, parent_seq, seq_base) = _native_tree(mine, SMALL)
        assert why is None
        assert (nodes, infosets, deals) == (tree.nodes, len(tree.infosets), len(tree.children[0]))
        lab = mine.rules.labels
        python_keys = [(p, hand, [m.text(lab) for m in history]) for p, hand, history in tree.infosets]
        native_keys = [(p, hand, [native.unpack_move(m).text(lab) for m in history]) for p, hand, history in keys]
        assert native_keys == python_keys
        assert (parent_seq, seq_base) == (tree.parent_seq, tree.seq_base)
        assert dealt == [(*tree.root_hands[child], prob) for child, prob in tree.children[0]]
        # The same budget refuses both.
        with pytest.raises(EndgameTooLarge):
            build_endgame(mine, max_nodes=tree.nodes - 1)
        assert _native_tree(mine, tree.nodes - 1)[0] == "positions"
        assert _native_tree(mine, tree.nodes)[0] is None


def test_a_prior_deals_the_same_hands_with_the_same_weights() -> None:
    if not native.native_available():
        pytest.skip("the native core is not built")
    mine = _endgames("classic")[0]
    prior = {p: [0.5 + (c * 7 + p) % 10 / 10 for c in range(40)] for p in (0, 1)}
    tree = build_endgame(mine, max_nodes=SMALL, prior=prior)
    why, _, (_, dealt, _, _) = _native_tree(mine, SMALL, native_prior(prior))
    assert why is None
    assert dealt == [(*tree.root_hands[child], prob) for child, prob in tree.children[0]]
    assert len({prob for *_, prob in dealt}) > 1  # not uniform


@pytest.mark.parametrize("variant", VARIANTS)
def test_native_and_python_cfr_give_the_same_iterates(variant: str) -> None:
    if not native.native_available():
        pytest.skip("the native core is not built")
    for mine in _endgames(variant):
        tree = build_endgame(mine, max_nodes=SMALL)
        python = solve_cfr(tree, tolerance=0.0, max_iterations=20)
        options = {"max_nodes": SMALL, "tolerance": 0.0, "max_iterations": 20, "time_limit": None,
                   "prior": None, "stop": None, "lp_below": 0, "every": True}  # fmt: skip
        result = native.native_module().equilibrium(native.pack_rules(mine.rules), native.pack_state(mine), options)
        assert result["why"] is None
        found = result["answer"]
        iterations, stopped_by, every = found["iterations"], found["stopped_by"], found["every"]
        exploit = found["exploitability"]
        assert iterations == python.iterations and stopped_by == python.stopped_by
        assert len(every) == len(python.average)
        for theirs, ours in zip(every, python.average, strict=True):
            assert theirs == pytest.approx(ours, abs=1e-9, rel=0)
        assert exploit == pytest.approx(python.exploitability, abs=1e-12)
        assert exploit == pytest.approx(exploitability(tree, python.average), abs=1e-12)


def test_the_default_method_is_the_lp_on_a_small_tree_and_cfr_on_a_larger_one_natively() -> None:
    assert solve_endgame(_endgames("classic")[0]).method == "lp"
    rules = _rules("classic")
    for seed in range(40):
        game = play_game(rules, ["greedy", "greedy"], seed)
        state = game.start
        for _, move in game.moves:
            if state.phase is Phase.OFFER and state.stock_count <= 8 and len(state.legal_moves()) >= 2:
                mine = view(state, state.to_act)
                nodes = _size(mine, 4 * LP_NODES)
                if nodes > LP_NODES:
                    found = solve_endgame(mine, max_nodes=4 * LP_NODES)
                    assert found.nodes == nodes
                    assert found.method == ("cfr" if native.ACTIVE else "lp")
                    return
            state = state.apply(move)
    pytest.skip("no endgame a little larger than LP_NODES among the seeded deals")


def _sized(low: int, high: int) -> GameState:
    """An endgame of ``_endgames`` with ``low`` to ``high`` positions."""
    return next(
        v for variant in VARIANTS for v in _endgames(variant) if low <= build_endgame(v, max_nodes=SMALL).nodes <= high
    )


def test_caps_and_stops_answer_with_the_exploitability_reached() -> None:
    # Under 1,024 positions the build never polls ``stop``: CFR+ sees it first, after an iteration.
    mine = _sized(200, 1_023)
    one = solve_endgame(mine, method="cfr", tolerance=0.0, max_iterations=1)
    assert one.iterations == 1
    assert one.stopped_by == "iterations" or (one.stopped_by is None and one.exploitability == 0.0)
    stopped = solve_endgame(mine, method="cfr", tolerance=0.0, max_iterations=10_000, stop=lambda: True)
    assert stopped.iterations == 1
    assert stopped.stopped_by == "interrupted" or (stopped.stopped_by is None and stopped.exploitability == 0.0)
    assert abs(sum(stopped.strategy.values()) - 1.0) < 1e-9
    timed = solve_endgame(mine, method="cfr", tolerance=0.0, max_iterations=10**9, time_limit=0.0)
    assert timed.iterations == 1
    assert timed.stopped_by == "time" or (timed.stopped_by is None and timed.exploitability == 0.0)
    with pytest.raises(ConquianError, match="no equilibrium method"):
        solve_endgame(mine, method="simplex")
    with pytest.raises(ConquianError, match="tolerance"):
        solve_endgame(mine, method="cfr", tolerance=-1.0)


def test_a_stop_while_building_and_a_budget_refuse_in_both_methods() -> None:
    mine = _sized(1_025, SMALL)
    nodes = _size(mine)
    for method in ("lp", "cfr"):
        with pytest.raises(EndgameTooLarge, match="stopped"):
            solve_endgame(mine, method=method, stop=lambda: True)
        with pytest.raises(EndgameTooLarge, match=f"more than {nodes - 1:,} positions"):
            solve_endgame(mine, method=method, max_nodes=nodes - 1)


def test_a_single_legal_move_is_the_whole_strategy() -> None:
    """A view whose player has one legal move (a pass he cannot refuse): both methods give it
    probability 1 and the hand's value, and agree."""
    rules = _rules("classic")
    for seed in range(40):
        game = play_game(rules, ["greedy", "greedy"], seed)
        state = game.start
        for _, move in game.moves:
            if state.phase is Phase.OFFER and state.stock_count <= 3 and len(state.legal_moves()) == 1:
                mine = view(state, state.to_act)
                try:
                    tree = build_endgame(mine, max_nodes=SMALL)
                except EndgameTooLarge:
                    break
                lp = solve_endgame(mine, method="lp")
                cfr = solve_endgame(mine, method="cfr")
                (only,) = mine.legal_moves()
                for eq in (lp, cfr):
                    assert eq.strategy == {only: 1.0} and eq.move_values == {only: pytest.approx(eq.value)}
                eps = cfr.exploitability + lp.exploitability
                assert abs(lp.value - cfr.value) <= 2.0 * eps / _hand_weight(tree, mine) + 1e-7
                return
            state = state.apply(move)
    pytest.skip("no late view with a single legal move among the seeded deals")


class _Alarm(Exception):
    """Raised by the SIGALRM handler of the test below."""


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interval timers are POSIX")
def test_a_signal_handler_and_a_stop_that_raise_end_cfr_with_their_exception() -> None:
    """Python's signal handlers run while CFR+ runs (natively: polled with the GIL taken back),
    so Ctrl-C is seen; an exception of ``stop`` ends the solve with it."""
    mine = _sized(200, 1_023)

    def alarm(signum: int, frame: object) -> None:
        raise _Alarm

    before = signal.signal(signal.SIGALRM, alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(_Alarm):
            solve_endgame(mine, method="cfr", tolerance=0.0, max_iterations=10**9, time_limit=60.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, before)

    def broken() -> bool:
        raise _Alarm

    with pytest.raises(_Alarm):
        solve_endgame(mine, method="cfr", tolerance=0.0, max_iterations=10**9, time_limit=60.0, stop=broken)
