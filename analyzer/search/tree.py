"""The game-tree explorer: the explored tree as a networkx ``DiGraph``.

Nodes are positions (transpositions merge into one node), keyed by a short
stable hash of the position; edges are moves, with their probability at
chance nodes.  Node attributes: ``player`` (to act; -1 chance, -4 over),
``depth`` (plies from the root, the shortest way), ``phase``, ``label``
(a one-line description), ``value`` (the expected result of each player,
R20, from :mod:`analyzer.search.exact`, when it could be computed within the
budget: a list of numbers, stored as its JSON text in GraphML and GEXF,
which hold no lists), ``proven``, ``terminal``, and ``unexpanded`` (why a
node within the depth was not expanded: a hidden hand or stock).  Export
uses networkx's own writers: GraphML, GEXF and node-link JSON.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.plain import dump_position
from analyzer.core.state import GameState
from analyzer.search.exact import Solver

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["EXPORT_FORMATS", "build_tree", "export_tree", "node_id"]

EXPORT_FORMATS = ("graphml", "gexf", "json")


def node_id(state: GameState) -> str:
    """A short stable id of a position: the first 16 hex digits of the SHA-1 of its JSON."""
    text = json.dumps(dump_position(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def build_tree(
    root: GameState,
    *,
    depth: int = 3,
    max_nodes: int = 2_000,
    solve_values: bool = True,
    solver: Solver | None = None,
    progress: Callable[[int], None] | None = None,
) -> nx.DiGraph[str]:
    """Explore ``root`` breadth first to ``depth`` plies (at most ``max_nodes`` nodes).

    Parameters
    ----------
    root : GameState
    depth : int
        Plies to expand from the root (chance moves count as plies).
    max_nodes : int
        Stop adding nodes past this many.
    solve_values : bool
        Give every node the value of best play from it (needs every hand
        known; each node is solved within the solver's budget, deepest first
        and the root last, all sharing one transposition table).
    solver : Solver, optional
        The searcher for the values; a default one if omitted.
    progress : callable, optional
        Called with the number of nodes so far, after each node is expanded.

    Returns
    -------
    networkx.DiGraph
        ``graph.graph`` holds ``root`` (the root id), ``variant``,
        ``depth``, ``truncated`` (bool), ``unexpanded`` (nodes within the
        depth left unexpanded: a hidden hand or stock) and ``pv`` (move texts
        from the root: the root's own solve, empty without values); with
        values also ``proven`` (bool: the root's value and line are proven).

    Raises
    ------
    ConquianError
        If ``depth`` or ``max_nodes`` is negative.
    PositionError
        If ``depth`` is positive and the root cannot be expanded: the hand of
        the player to act is hidden, or the stock cards are unknown (a tree of
        the root alone would answer nothing).
    """
    if depth < 0 or max_nodes < 1:
        raise ConquianError("depth must be >= 0 and max_nodes >= 1")
    if depth > 0 and not root.is_terminal():
        try:
            root.chance_outcomes() if root.is_chance_node() else root.legal_moves()
        except PositionError as exc:
            raise PositionError(f"cannot expand the position: {exc}") from None
    import networkx as nx  # imported when needed (start-up time)

    labels = root.rules.labels
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.graph.update(variant=root.rules.name, depth=depth, truncated=False, unexpanded=0)
    can_solve = (
        solve_values
        and all(h is not None for h in root.hands)
        and (root.stock is not None or root.stock_count == 0)
    )
    solver = solver or Solver(max_nodes=200_000, time_limit=30.0)
    root_id = node_id(root)
    graph.graph["root"] = root_id
    frontier: list[tuple[str, GameState]] = [(root_id, root)]
    _add_node(graph, root_id, root, 0)
    for level in range(depth):
        nxt: list[tuple[str, GameState]] = []
        for parent_id, state in frontier:
            if state.is_terminal():
                continue
            try:
                if state.is_chance_node():
                    edges = state.chance_outcomes()
                else:
                    edges = [(m, 1.0) for m in state.legal_moves()]
            except PositionError as exc:
                # A hidden hand or an unknown stock: this node stays a leaf.
                graph.nodes[parent_id]["unexpanded"] = str(exc)
                graph.graph["unexpanded"] += 1
                continue
            for move, prob in edges:
                child = state.apply(move, check=False)
                child_id = node_id(child)
                if child_id not in graph:
                    if graph.number_of_nodes() >= max_nodes:
                        graph.graph["truncated"] = True
                        break
                    _add_node(graph, child_id, child, level + 1)
                    nxt.append((child_id, child))
                attrs: dict[str, Any] = {"move": move.text(labels)}
                if state.is_chance_node():
                    attrs["probability"] = prob
                graph.add_edge(parent_id, child_id, **attrs)
            else:
                graph.nodes[parent_id]["_expanded"] = True  # every move has its edge
            if progress is not None:
                progress(graph.number_of_nodes())
        frontier = nxt
    if can_solve:
        # Deepest first, the root last: each node's solve has its own budget and reuses the
        # table the deeper ones filled (bounds for one player: the nodes of the root's player
        # come last).  Then the explored tree backs the proven values up (_back_up), so that
        # the root's value and line agree with its children's (else an unproven root solve
        # could give 'pass' as the line while the nodes below prove that a take wins).
        first = root.current_player()
        items = [(nid, graph.nodes[nid]) for nid in graph.nodes]
        ordered = sorted(
            items, key=lambda item: (item[0] == root_id, item[1]["player"] == first, -item[1]["depth"])
        )
        for _, data in ordered:
            res = solver.solve(data.pop("_state"))
            data["value"] = [round(v, 6) for v in res.values]
            data["proven"] = res.proven
            data["_pv"] = [m.text(labels) for m in res.pv]
            if progress is not None:
                progress(graph.number_of_nodes())
        _back_up(graph)
        graph.graph["pv"] = graph.nodes[root_id]["_pv"]
        graph.graph["proven"] = graph.nodes[root_id]["proven"]
    else:
        graph.graph["pv"] = []
        for _, data in graph.nodes(data=True):
            data.pop("_state")
    for _, data in graph.nodes(data=True):
        data.pop("_pv", None)
        data.pop("_expanded", None)
    return graph


def _back_up(graph: nx.DiGraph[str]) -> None:
    """Give an unproven node the value its children prove, deepest first (minimax / max-n over
    the explored tree, the solver's values at its leaves).

    A solve within a budget may stop unproven where the solves of the nodes below it proved
    their values (each has its own budget).  A decision node is then proven by a child that is
    a proven win for the player to act (nothing is better, R20), or by every move's child
    proven (its best, ties to the engine's order); a chance node (a turn, R10) by every card's
    child proven (their mean, weighted by probability).  Its line becomes the move to that
    child followed by the child's line.
    """
    import networkx as nx

    for nid in reversed(list(nx.topological_sort(graph))):  # moves are irreversible (R19)
        data = graph.nodes[nid]
        if data["proven"] or not data.get("_expanded"):
            continue
        edges = list(graph.out_edges(nid, data=True))
        kids = [graph.nodes[child] for _, child, _ in edges]
        player = data["player"]
        if player < 0:  # a chance node: the mean over the cards turned
            if not all(k["proven"] for k in kids):
                continue
            n = len(data["value"])
            value = [
                sum(e[2]["probability"] * k["value"][p] for e, k in zip(edges, kids, strict=True))
                for p in range(n)
            ]
            best = max(range(len(kids)), key=lambda i: edges[i][2]["probability"])
        else:
            wins = [i for i, k in enumerate(kids) if k["proven"] and k["value"][player] >= 1 - 1e-9]
            if wins:
                best = wins[0]
            elif all(k["proven"] for k in kids):
                best = max(range(len(kids)), key=lambda i: kids[i]["value"][player])
            else:
                continue
            value = kids[best]["value"]
        data["value"] = [round(v, 6) for v in value]
        data["proven"] = True
        data["_pv"] = [edges[best][2]["move"], *kids[best]["_pv"]]


def _add_node(graph: nx.DiGraph[str], nid: str, state: GameState, depth: int) -> None:
    graph.add_node(
        nid,
        player=state.current_player(),
        depth=depth,
        phase=str(state.phase),
        label=state.describe(),
        terminal=state.is_terminal(),
        _state=state,
    )


def export_tree(graph: nx.DiGraph[str], path: str | Path, fmt: str | None = None) -> str:
    """Write ``graph`` with networkx: GraphML, GEXF or node-link JSON.

    Parameters
    ----------
    graph : networkx.DiGraph
        From :func:`build_tree`.
    path : str or Path
    fmt : str, optional
        ``"graphml"``, ``"gexf"`` or ``"json"``; guessed from the file
        suffix when omitted.

    Returns
    -------
    str
        The format written.

    Raises
    ------
    ConquianError
        If the format is unknown or the file cannot be written.
    """
    import networkx as nx  # imported when needed (start-up time)

    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    fmt = {"xml": "graphml", "node-link": "json"}.get(fmt, fmt)
    if fmt not in EXPORT_FORMATS:
        raise ConquianError(f"unknown export format {fmt!r} (use {', '.join(EXPORT_FORMATS)})")
    # GraphML and GEXF hold no lists: there a list (a node value, the pv) is its JSON text.
    plain = graph.copy()
    plain.graph = {k: (json.dumps(v) if isinstance(v, list) else v) for k, v in graph.graph.items()}
    for _, data in plain.nodes(data=True):
        for key, value in data.items():
            if isinstance(value, list):
                data[key] = json.dumps(value)
    try:
        if fmt == "graphml":
            nx.write_graphml(plain, path)
        elif fmt == "gexf":
            nx.write_gexf(plain, path)
        else:
            data = nx.node_link_data(graph, edges="edges")
            path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    except OSError as exc:
        raise ConquianError(f"cannot write {str(path)!r}: {exc}") from None
    return fmt
