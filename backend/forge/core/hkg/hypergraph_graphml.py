"""Read a pairwise GraphML graph as a hypergraph: every edge becomes a 2-node hyperedge.

Invariants:
    - A node's label is its data value for a key named `label` or `name` (in that order of
      preference), else its id. An edge's relation is its data for `relation`, `label` or `type`,
      else "related_to". Keys are matched by `attr.name`, as networkx writes them.
    - Hyperedge ids are the edges' `id` attributes when every edge has a distinct one, else
      `edge:<n>` for every edge by document order. A self-loop
      becomes a 1-node hyperedge; parallel edges stay separate hyperedges; direction is dropped.
    - Each hyperedge's provenance is (the file name given, "edge <id>"), without text.
    - A document that is not GraphML, or has an edge without source/target, is a HypergraphDefect.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphDefect,
    HypergraphNode,
    NodeId,
    Provenance,
)

_NS = "{http://graphml.graphdrawing.org/xmlns}"
NODE_LABEL_KEYS = ("label", "name")
EDGE_RELATION_KEYS = ("relation", "label", "type")
DEFAULT_RELATION = "related_to"


def _tag(element: ElementTree.Element) -> str:
    return element.tag.removeprefix(_NS)


def _key_names(root: ElementTree.Element) -> dict[str, str]:
    return {key.get("id", ""): key.get("attr.name", key.get("id", "")) for key in root.iter() if _tag(key) == "key"}


def _data(element: ElementTree.Element, names: dict[str, str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for child in element:
        if _tag(child) == "data":
            values[names.get(child.get("key", ""), child.get("key", ""))] = (child.text or "").strip()
    return values


def _first(values: dict[str, str], keys: tuple[str, ...], default: str) -> str:
    return next((values[k] for k in keys if values.get(k)), default)


def _edge_ids(edges: list[ElementTree.Element]) -> list[str]:
    """The edges' own ids when every edge has one and none repeats, else `edge:<n>` by document order
    (networkx writes a multigraph's edge keys as ids, which repeat across node pairs)."""
    own = [edge.get("id", "") for edge in edges]
    if all(own) and len(set(own)) == len(own):
        return own
    return [f"edge:{number}" for number in range(len(edges))]


def _hyperedges(
    edges: list[ElementTree.Element], names: dict[str, str], source: str
) -> list[Hyperedge] | HypergraphDefect:
    hyperedges: list[Hyperedge] = []
    for element, edge_id in zip(edges, _edge_ids(edges), strict=True):
        endpoints = (element.get("source", ""), element.get("target", ""))
        if not endpoints[0] or not endpoints[1]:
            return HypergraphDefect(f"edge {edge_id} has no source or no target")
        members = tuple(dict.fromkeys(NodeId(n) for n in endpoints))
        relation = _first(_data(element, names), EDGE_RELATION_KEYS, DEFAULT_RELATION)
        provenance = (Provenance(source, f"edge {edge_id}"),)
        hyperedges.append(Hyperedge(HyperedgeId(edge_id), relation, members, provenance))
    return hyperedges


def parse_graphml(text: str, source: str) -> HypergraphContents | HypergraphDefect:
    """Read GraphML text; `source` (the file name) goes into each hyperedge's provenance."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        return HypergraphDefect(f"not XML: {error}")
    if _tag(root) != "graphml":
        return HypergraphDefect("not a GraphML document (the root element is not <graphml>)")
    names = _key_names(root)
    nodes: list[HypergraphNode] = []
    for element in (e for e in root.iter() if _tag(e) == "node"):
        node_id = element.get("id", "")
        if not node_id:
            return HypergraphDefect("a node has no id")
        nodes.append(HypergraphNode(NodeId(node_id), _first(_data(element, names), NODE_LABEL_KEYS, node_id)))
    hyperedges = _hyperedges([e for e in root.iter() if _tag(e) == "edge"], names, source)
    if isinstance(hyperedges, HypergraphDefect):
        return hyperedges
    return HypergraphContents(tuple(nodes), tuple(hyperedges))
