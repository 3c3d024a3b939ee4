"""Why no pairing exists (pure; no Django): the cheap checks made before matching and the
blocking teams named from the full candidate graph (Gallai-Edmonds). Used by
:mod:`scoring.draw.pairing_core`; see its module doc ("Impossible")."""
from __future__ import annotations

import networkx as nx

BYE = "BYE"  # the bye node of the matching graph (the same as pairing_core.BYE)


class NoPairing(Exception):
    """No pairing without a rematch exists. ``blocking``: the ids of the teams that block it
    (in ranking order); ``names``: their names; ``no_bye_left``: True when the odd team out has
    nobody left who has not had a bye."""

    def __init__(self, blocking: list, names: list[str], *, no_bye_left: bool = False):
        self.blocking = list(blocking)
        self.names = list(names)
        self.no_bye_left = no_bye_left
        if no_bye_left:
            text = "no team without a bye is left to receive the bye: " + ", ".join(names)
        else:
            text = "no pairing without a rematch exists; blocking teams: " + ", ".join(names)
        super().__init__(text)


def _met(a, b) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def _quick_impossible(ranked: list, odd: bool) -> None:
    """Cheap checks before matching: nobody left for the bye; teams with no possible opponent
    (with an odd field one such team may take the bye if it has not had one)."""
    names = {e.id: e.name for e in ranked}
    if odd and all(e.had_bye for e in ranked):
        ids = [e.id for e in ranked]
        raise NoPairing(ids, [names[i] for i in ids], no_bye_left=True)
    stuck = [a for a in ranked if all(_met(a, b) for b in ranked if b is not a)]
    if not stuck:
        return
    if odd and len(stuck) == 1 and not stuck[0].had_bye:
        return
    raise NoPairing([e.id for e in stuck], [e.name for e in stuck])


def _matching_size(graph: nx.Graph) -> int:
    return len(nx.max_weight_matching(graph, maxcardinality=True, weight=None))


def _blocking_error(graph: nx.Graph, ranked: list, odd: bool) -> NoPairing:
    """Build :class:`NoPairing` from the full candidate graph (Gallai-Edmonds decomposition on the
    deficient components): D = vertices left unpaired by some maximum matching, A = their
    neighbours outside D. The blocking teams are D and A, in ranking order."""
    rank = {e.id: i for i, e in enumerate(ranked)}
    names = {e.id: e.name for e in ranked}
    simple = nx.Graph()
    simple.add_nodes_from(graph.nodes)
    simple.add_edges_from(graph.edges)
    deficient_d: set = set()
    for component in nx.connected_components(simple):
        sub = simple.subgraph(component).copy()
        size = _matching_size(sub)
        if len(component) - 2 * size <= 0:
            continue
        for v in sorted(component, key=lambda x: rank.get(x, -1)):
            rest = sub.copy()
            rest.remove_node(v)
            if _matching_size(rest) == size:
                deficient_d.add(v)
    neighbours = set()
    for v in deficient_d:
        neighbours.update(simple.neighbors(v))
    blocking = (deficient_d | neighbours) - {BYE}
    if not blocking:  # only the bye node is unmatched: nobody left who may take the bye
        ids = [e.id for e in ranked]
        return NoPairing(ids, [names[i] for i in ids], no_bye_left=True)
    ordered = sorted(blocking, key=lambda x: rank[x])
    return NoPairing(ordered, [names[i] for i in ordered], no_bye_left=False)
