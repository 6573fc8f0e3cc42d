"""The knowledge graph as GraphML, for people who analyse graphs in Gephi, Cytoscape or yEd.

Invariants:
    - Pure and deterministic: the same `FlowGraph` gives the same bytes (nodes and edges in the
      projection's order, UTF-8).
    - One node per claim (id = claim id) with `label` (its text), `claim_type`, `status`,
      `confidence`, `round` and `score` (only when scored: GraphML has no null); one directed edge
      per link (id = link id) with `label` and `edge_type` (its type). Parallel links of different
      types between two claims stay two edges (a multigraph).
    - The file is well-formed XML whatever a claim says: control characters XML 1.0 cannot carry
      (all below U+0020 but tab, newline and carriage return) are left out of the texts.

Design decisions:
    - networkx writes the file (a maintained GraphML writer, pure Python), so the core only says
      which attributes go in; `label` is the attribute name Gephi shows on nodes and edges.
"""

from __future__ import annotations

import re
from io import BytesIO

import networkx as nx

from forge.core.graph.project_to_flow import FlowGraph

GRAPHML_MEDIA_TYPE = "application/graphml+xml"
NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def claims_multigraph(flow: FlowGraph) -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    for node in flow.nodes:
        attributes: dict[str, str | int | float] = {
            "label": NOT_IN_XML.sub("", node.label),
            "claim_type": node.claim_type,
            "status": node.status,
            "confidence": node.confidence,
            "round": node.round,
        }
        if node.score is not None:
            attributes["score"] = node.score
        graph.add_node(node.id, **attributes)
    for edge in flow.edges:
        graph.add_edge(edge.source, edge.target, key=edge.id, label=edge.label, edge_type=edge.label)
    return graph


def claims_graphml(flow: FlowGraph) -> bytes:
    """The graph as a GraphML document (UTF-8 XML with its declaration)."""
    document = BytesIO()  # in memory: the core writes no file
    nx.write_graphml_xml(claims_multigraph(flow), document, encoding="utf-8")
    return document.getvalue()
