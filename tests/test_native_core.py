"""The native core held to the Python engine: the same moves, positions, values, principal
variations, sampled deals and searches, node for node; the core is chosen by CONQUIAN_CORE and
named by --version; a panic or a bad value crossing the boundary is a Python exception."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import late_position

from analyzer.core import native
from analyzer.core.crosscheck import crosscheck
from analyzer.core.dealing import deal, view
from analyzer.core.moves import Pass
from analyzer.core.rules import (
    CLASSIC,
    MEGAJOGOS,
    PRESETS,
    ForceFit,
    ForceWhen,
    Rearrange,
    StockOut,
    get_rules,
)
from analyzer.search import mcts
from analyzer.search.evaluation import features, fitted_evaluator, melded_lead
from analyzer.search.exact import Solver
from analyzer.search.lookahead import Lookahead
from analyzer.search.playout import RolloutLeaf, playout_outcome
from analyzer.search.sampling import sample_deal, sample_world

pytestmark = pytest.mark.skipif(
    not native.native_available(),
    reason="the native core is not built (install with cargo on the PATH; .ci/run builds it)",
)

# Variants that are no preset: every Rules field is read by the native core, none hard-coded.
CUSTOM = [
    CLASSIC.__class__(**{**{f: getattr(CLASSIC, f) for f in CLASSIC.__dataclass_fields__},
                         "name": "classic-rearrange", "force_fit": ForceFit.REARRANGE, "max_run": 5}),
    MEGAJOGOS.__class__(**{**{f: getattr(MEGAJOGOS, f) for f in MEGAJOGOS.__dataclass_fields__},
                           "name": "four-players", "players": 4, "hand_size": 7}),
    CLASSIC.__class__(**{**{f: getattr(CLASSIC, f) for f in CLASSIC.__dataclass_fields__},
                         "name": "classic-any-offer", "force_when": ForceWhen.ANY_OFFER,
                         "on_stock_out": StockOut.FEWEST_IN_HAND, "hand_melds": True}),
    # The historical mechanics (R10a, R13a, R14a) together, in a game of three that forces on
    # any offer, and borrowing with forcing by rearrangement.
    replace(MEGAJOGOS, name="megajogos-historical", upcard=True, discard_force=True,
            rearrange=Rearrange.BORROW),
    replace(CLASSIC, name="classic-borrow-rearrange", rearrange=Rearrange.BORROW,
            force_fit=ForceFit.REARRANGE, force_when=ForceWhen.ANY_OFFER, hand_melds=True),
]  # fmt: skip


def _both(ask: Any) -> tuple[Any, Any]:
    with native.use_core("python"):
        reference = ask()
    with native.use_core("native"):
        fast = ask()
    return reference, fast


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_cores_agree_on_100000_tree_nodes_per_preset(variant: str) -> None:
    # Moves (in order), every child position, forced runs, views and meld counts, position by
    # position along seeded random deals: positions and children together are the tree nodes.
    report = crosscheck(get_rules(variant), 100_000, seed=11)
    assert report.mismatches == []
    assert report.nodes >= 100_000


OTHER_COUNTS = [rules.with_players(n) for rules in PRESETS.values() for n in rules.player_counts
                if rules.with_players(n) not in (CLASSIC, MEGAJOGOS)]  # fmt: skip


@pytest.mark.parametrize("rules", OTHER_COUNTS, ids=lambda r: f"{r.name}-{r.players}p")
def test_the_cores_agree_on_every_other_preset_and_player_count(rules: Any) -> None:
    report = crosscheck(rules, 20_000, seed=3)
    assert report.mismatches == []
    assert report.nodes >= 20_000


@pytest.mark.parametrize("rules", CUSTOM, ids=lambda r: r.name)
def test_the_cores_agree_on_variants_that_are_no_preset(rules: Any) -> None:
    report = crosscheck(rules, 8_000, seed=5)
    assert report.mismatches == []
    assert report.nodes >= 8_000


def test_a_mismatch_would_be_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    # The check can fail: a native core that drops the last legal move is caught at once.
    real = native.legal_moves

    def short(state: Any) -> Any:
        found = real(state)
        return found[:-1] if found else found

    monkeypatch.setattr(native, "legal_moves", short)
    report = crosscheck(CLASSIC, 50, seed=1, limit=1)
    assert report.mismatches and "legal moves differ" in report.mismatches[0]


def _positions(variant: str, count: int, stock_left: int) -> list[Any]:
    out = []
    for seed in range(count):
        state = late_position(variant, seed, stock_left, lambda s, moves, rng: rng.choice(moves))
        if state is not None:
            out.append(state)
    return out


@pytest.mark.parametrize("variant,stock_left", [("classic", 8), ("classic", 14), ("megajogos", 8), ("megajogos", 12)])
def test_exact_values_principal_variations_and_node_counts_agree(variant: str, stock_left: int) -> None:
    for state in _positions(variant, 4, stock_left):
        for mode in ("auto", "paranoid"):
            a, b = _both(lambda s=state, m=mode: Solver(mode=m, max_nodes=30_000, time_limit=1e9).solve(s))
            assert (a.outcome, a.pv, a.nodes, a.proven, a.lower, a.upper, a.mode, a.stopped_by) == (
                b.outcome, b.pv, b.nodes, b.proven, b.lower, b.upper, b.mode, b.stopped_by)  # fmt: skip
        chance = state.evolve(stock=None)
        a, b = _both(lambda s=chance: Solver(max_nodes=4_000, time_limit=1e9).solve(s))
        assert (a.outcome, a.pv, a.nodes, a.proven) == (b.outcome, b.pv, b.nodes, b.proven)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_lookahead_values_agree_to_the_last_bit(variant: str) -> None:
    # The fitted evaluation is computed in the same order in both cores: equal floats, not close.
    model = fitted_evaluator(variant)
    assert model is not None
    for state in _positions(variant, 3, 10):
        moves = state.legal_moves()
        for kwargs in ({}, {"spread": 3}, {"opponents": "policy"}):
            a, b = _both(lambda s=state, k=kwargs: Lookahead(model, max_nodes=3_000, time_limit=1e9, **k).values(s, moves))
            assert (a.outcomes, a.depth, a.exact, a.nodes) == (b.outcomes, b.depth, b.exact, b.nodes)
        a, b = _both(lambda s=state: Lookahead(RolloutLeaf(2, 7), max_nodes=600, time_limit=1e9).values(s, moves))
        assert a.outcomes == b.outcomes and a.nodes == b.nodes
        a, b = _both(lambda s=state: Lookahead(melded_lead, max_nodes=600, time_limit=1e9).values(s.evolve(stock=None), moves))
        assert a.outcomes == b.outcomes and a.nodes == b.nodes


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_features_of_the_fitted_evaluation_agree(variant: str) -> None:
    for state in _positions(variant, 4, 10):
        with native.use_core("python"):
            reference = features(state)
        fast = native.native_module().features(native.pack_rules(state.rules), native.pack_state(state))
        assert reference == fast


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_a_seed_gives_the_same_sampled_deals_playouts_and_trees(variant: str) -> None:
    for state in _positions(variant, 3, 12):
        mine = view(state, state.to_act)
        for infer in (False, True):
            a, b = _both(lambda v=mine, i=infer: [sample_deal(v, v.to_act, random.Random(9), infer=i) for _ in range(3)])
            assert a == b
        a, b = _both(lambda v=mine: sample_world(v, v.to_act, random.Random(4), ordered=False))
        assert a == b and a.stock is None
        a, b = _both(lambda s=state: [playout_outcome(s, "eager", random.Random(k)) for k in range(5)])
        assert a == b
        k = len(mine.legal_moves())
        prior = [(i + 1) / (k * (k + 1) / 2) for i in range(k)]  # the later moves likelier
        for kwargs in ({}, {"leaf": "fitted", "infer": True}, {"method": "halving"},
                       {"opponents": "policy", "playout": "nomeld"},
                       {"prior_bias": 0.5, "root_prior": prior}):  # fmt: skip
            a, b = _both(lambda v=mine, k=kwargs: mcts.search(v, 200, seed=3, **k))
            assert [(m.move, m.visits, m.value, m.win, m.draw) for m in a.moves] == [
                (m.move, m.visits, m.value, m.win, m.draw) for m in b.moves]  # fmt: skip
            assert (a.iterations, a.depth, a.ended) == (b.iterations, b.depth, b.ended)


def test_a_generator_handed_to_a_native_search_continues_as_after_the_python_one() -> None:
    state = deal("megajogos", 3)
    mine = view(state.apply(state.legal_moves()[0]), (state.to_act + 1) % 3)

    def draws() -> list[float]:
        rng = random.Random(21)
        sample_deal(mine, mine.to_act, rng)
        return [rng.random() for _ in range(3)]

    a, b = _both(draws)
    assert a == b


def test_a_weighted_hand_reading_draws_the_same_deals() -> None:
    state = late_position("classic", 2, 12, lambda s, moves, rng: rng.choice(moves))
    assert state is not None
    mine = view(state, state.to_act)
    other = 1 - state.to_act
    weights = {other: tuple(0.2 if c % 3 else 1.0 for c in range(40))}
    a, b = _both(lambda: [sample_deal(mine, mine.to_act, random.Random(k), weights=weights) for k in range(4)])
    assert a == b


def test_a_stop_request_ends_a_native_search_with_its_best_answer() -> None:
    state = _positions("megajogos", 1, 20)[0]
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] > 2

    with native.use_core("native"):
        result = Solver(max_nodes=10**9, time_limit=1e9, stop=stop).solve(state)
    assert not result.proven and result.stopped_by == "interrupted" and result.pv


def test_an_exception_in_a_callback_reaches_the_caller() -> None:
    state = _positions("megajogos", 1, 20)[0]

    def stop() -> bool:
        raise LookupError("from the stop callback")

    with native.use_core("native"), pytest.raises(LookupError, match="from the stop callback"):
        Solver(max_nodes=10**9, time_limit=1e9, stop=stop).solve(state)


def test_a_rust_panic_is_a_python_exception_not_an_abort() -> None:
    with pytest.raises(RuntimeError, match="internal error in the native core: a panic raised on purpose"):
        native.native_module()._panic_for_test()


STATE_FIELDS = ("dealer", "to_act", "phase", "winner", "stock_count", "hands", "counts", "layouts", "stock",
                "dead", "centre", "gifts", "gave", "paid")  # fmt: skip


def _fields(state: Any, drop: str = "", **changes: Any) -> SimpleNamespace:
    """An object with the state's fields by name, but ``drop``, and ``changes``."""
    return SimpleNamespace(**{**{f: getattr(state, f) for f in STATE_FIELDS if f != drop}, **changes})


def test_a_state_the_native_core_cannot_read_is_refused() -> None:
    module = native.native_module()
    rules = native.pack_rules(CLASSIC)
    good = deal("classic", 1)
    with pytest.raises(ValueError, match="not a meld"):
        module.legal_moves(rules, _fields(good, layouts=((0b11,), ())))
    with pytest.raises(TypeError, match=r"StateData\.phase") as raised:
        module.legal_moves(rules, _fields(good, phase="bidding"))
    assert 'no phase "bidding"' in str(raised.value.__cause__)
    with pytest.raises(ValueError, match="players"):
        module.NativeRules(replace(CLASSIC, players=7))


@pytest.mark.parametrize("field", STATE_FIELDS)
def test_a_state_field_missing_or_misnamed_is_refused_by_name(field: str) -> None:
    """States cross with named fields (native/src/pydata.rs): a field dropped or renamed on
    the Python side is an error naming it, never a value read from another field's place."""
    module = native.native_module()
    rules = native.pack_rules(CLASSIC)
    good = deal("classic", 1)
    assert native.unpack_state(CLASSIC, module.round_trip(rules, _fields(good)), type(good)) == good
    with pytest.raises(AttributeError, match=field):
        module.legal_moves(rules, _fields(good, drop=field))
    with pytest.raises(AttributeError, match=field):
        module.apply(rules, _fields(good, drop=field, **{field + "s": getattr(good, field)}), native.pack_move(Pass()))


def test_a_wrong_value_is_refused_naming_its_struct_and_field() -> None:
    module = native.native_module()
    rules = native.pack_rules(CLASSIC)
    state = deal("classic", 1)
    with pytest.raises(TypeError, match=r"StateData\.counts"):
        module.legal_moves(rules, _fields(state, counts="ten"))
    with pytest.raises(KeyError, match="pay"):
        module.apply(rules, state, {"kind": 6, "values": (3,)})
    offer = SimpleNamespace(card=3, kind="turned", source=0, forced=None)
    with pytest.raises(TypeError, match=r"StateData\.centre") as raised:
        module.legal_moves(rules, _fields(state, centre=offer))
    assert "declined" in str(raised.value.__cause__)
    moves = module.legal_moves(rules, state)
    assert set(moves) == {"kinds", "values", "pays"}
    with pytest.raises(KeyError, match="pays"):
        native.unpack_moves({"kinds": moves["kinds"], "values": moves["values"]})  # type: ignore[typeddict-item]


def test_rules_are_read_by_field_name_and_unknown_options_are_refused() -> None:
    module = native.native_module()
    fields = {f: getattr(CLASSIC, f) for f in CLASSIC.__dataclass_fields__}

    class Without:
        def __init__(self, drop: str) -> None:
            for name, value in fields.items():
                if name != drop:
                    setattr(self, name, value)

    with pytest.raises(AttributeError, match="max_run"):
        module.NativeRules(Without("max_run"))
    with pytest.raises(AttributeError, match="force_when"):
        module.NativeRules(Without("force_when"))
    odd = Without("")
    odd.on_stock_out = "reshuffle"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"rules.on_stock_out is 'reshuffle'"):
        module.NativeRules(odd)
    assert "players=2, hand_size=10, max_run=8" in repr(native.pack_rules(CLASSIC))


def test_search_options_missing_a_field_are_refused_by_name() -> None:
    """A search's options cross as one named structure: a missing option is named, not taken
    from the next argument's place."""
    module = native.native_module()
    dealt = deal("classic", 2)
    offered = dealt.apply(dealt.legal_moves()[0])  # the first card turned: an offer
    view_ = view(offered, offered.to_act)
    state = native.pack_state(view_)
    options = {"iterations": 8, "rng": native.rng_state(random.Random(1)), "c": 0.7, "model": None,
               "infer": False, "halving": False, "policy": False, "nomeld": False, "time_limit": None,
               "weights": None, "stop": None, "progress": None, "root_bias": None}  # fmt: skip
    roots = [native.pack_move(m) for m in view_.legal_moves()]
    found = module.mcts_search(native.pack_rules(CLASSIC), state, roots, options)
    assert found["iterations"] == 8 and len(found["moves"]) == len(roots)
    with pytest.raises(ValueError, match="one finite, non-negative term per root move"):
        module.mcts_search(native.pack_rules(CLASSIC), state, roots, {**options, "root_bias": [0.1] * (len(roots) + 1)})
    for field in ("iterations", "halving", "weights", "root_bias"):
        with pytest.raises(KeyError, match=field):
            module.mcts_search(native.pack_rules(CLASSIC), state, roots, {k: v for k, v in options.items() if k != field})
    playout = {"eager": True, "rng": native.rng_state(random.Random(1)), "count": 1}
    with pytest.raises(KeyError, match="quiet"):
        module.playout(native.pack_rules(CLASSIC), native.pack_state(deal("classic", 2)), playout)


def _conquian(*args: str, core: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != native.CORE_ENV}
    if core is not None:
        env[native.CORE_ENV] = core
    code = "import sys; from cli.main import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120)


def test_version_names_the_core_in_use() -> None:
    assert "core: native" in _conquian("--version", core=None).stdout
    assert "core: python (chosen by CONQUIAN_CORE" in _conquian("--version", core="python").stdout


def test_a_core_that_names_no_core_is_a_usage_error_on_one_line() -> None:
    out = _conquian("variants", core="fortran")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "conquian: error: CONQUIAN_CORE='fortran' names no core (native or python)"
    ]


def test_the_python_core_answers_as_the_native_one_from_the_command_line() -> None:
    a = _conquian("hint", "--json", "--seed", "3", core="python")
    b = _conquian("hint", "--json", "--seed", "3", core="native")
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    import json

    left, right = json.loads(a.stdout), json.loads(b.stdout)
    for data in (left, right):
        data.pop("seconds", None)
    assert left["moves"] == right["moves"] and left["verdict"] == right["verdict"]


def test_the_native_core_asked_for_but_not_built_is_a_usage_error_on_one_line() -> None:
    # As on a machine where the install found no cargo: the module is missing.
    env = {**os.environ, native.CORE_ENV: "native"}
    code = (
        "import sys; sys.modules['analyzer._native'] = None; from cli.main import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    out = subprocess.run([sys.executable, "-c", code, "hint"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "conquian: error: the native core is not built (CONQUIAN_CORE=native): reinstall with "
        "cargo on the PATH (pip install -e .), or set CONQUIAN_CORE=python"
    ]
    version = subprocess.run([sys.executable, "-c", code.replace("native\"", ""), "--version"],
                             capture_output=True, text=True, env={**os.environ, native.CORE_ENV: ""}, timeout=120)  # fmt: skip
    assert "core: python (the native core is not built" in version.stdout


def test_a_searcher_made_in_one_thread_is_used_and_dropped_in_another() -> None:
    """The web server and the bridges run searches in worker threads, and the garbage collector
    frees objects in whichever thread it runs: a native searcher must move between threads."""
    import gc
    import threading

    model = fitted_evaluator("classic")
    state = _positions("classic", 1, 10)[0]
    made: list[Any] = []
    raised: list[Any] = []

    def build() -> None:
        with native.use_core("native"):
            look = Lookahead(model, max_nodes=500, time_limit=1e9)
            look.values(state, state.legal_moves())
            solver = Solver(max_nodes=500, time_limit=1e9)
            solver.solve(state.evolve(stock=None))
            made.extend([look, solver])

    thread = threading.Thread(target=build)
    thread.start()
    thread.join()
    assert len(made) == 2 and all(m._native is not None for m in made)
    old_hook = sys.unraisablehook
    sys.unraisablehook = raised.append
    try:
        with native.use_core("native"):
            made[0].values(state, state.legal_moves())  # used from the main thread
        made.clear()
        gc.collect()
    finally:
        sys.unraisablehook = old_hook
    assert not raised, [str(r.exc_value) for r in raised]
