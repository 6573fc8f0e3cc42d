"""The HKG JSONL format: one JSON object per line, nodes and hyperedges with provenance.

    {"type": "node", "id": "term:entropy", "label": "entropy", "aliases": ["disorder"]}
    {"type": "hyperedge", "id": "e1", "relation": "mechanism", "nodes": ["term:entropy", "..."],
     "provenance": [{"source": "knowledge/source_domains.json", "locator": "thermodynamics", "text": "..."}]}

Invariants:
    - Blank lines are skipped; any other line that is not an object of a known `type` with the
      required fields is reported with its line number (a HypergraphDefect, never an exception), and
      so are duplicate ids and hyperedges naming a node no line declares.
    - `aliases` and `provenance` are optional; a provenance entry may be a plain string (its source).
    - `dump_hypergraph_jsonl` writes nodes then hyperedges, each ascending by id, keys in a fixed
      order: parse(dump(x)) == x for a store's contents, and equal stores dump to equal text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphDefect,
    HypergraphNode,
    NodeId,
    Provenance,
)


def _strings(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    return None


def _provenance(value: Any) -> tuple[Provenance, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, list):
        return None
    entries: list[Provenance] = []
    for item in value:
        if isinstance(item, str):
            entries.append(Provenance(item))
        elif isinstance(item, dict) and isinstance(item.get("source"), str):
            locator, text = item.get("locator", ""), item.get("text", "")
            if not isinstance(locator, str) or not isinstance(text, str):
                return None
            entries.append(Provenance(item["source"], locator, text))
        else:
            return None
    return tuple(entries)


def _node(record: dict[str, Any]) -> HypergraphNode | str:
    node_id, label = record.get("id"), record.get("label", record.get("id"))
    aliases = _strings(record.get("aliases", []))
    if not isinstance(node_id, str) or not node_id or not isinstance(label, str) or aliases is None:
        return "a node needs a non-empty string 'id', a string 'label' and a list of string 'aliases'"
    return HypergraphNode(NodeId(node_id), label, aliases)


def _hyperedge(record: dict[str, Any]) -> Hyperedge | str:
    edge_id, relation = record.get("id"), record.get("relation", "related_to")
    members = _strings(record.get("nodes"))
    provenance = _provenance(record.get("provenance"))
    if not isinstance(edge_id, str) or not edge_id or not isinstance(relation, str) or not members:
        return "a hyperedge needs a non-empty string 'id', a string 'relation' and a non-empty list 'nodes'"
    if provenance is None:
        return "'provenance' must be a list of strings or of objects with a string 'source'"
    return Hyperedge(HyperedgeId(edge_id), relation, tuple(NodeId(m) for m in members), provenance)


def _record(line: str) -> HypergraphNode | Hyperedge | str:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        return f"not JSON ({error.msg})"
    if not isinstance(record, dict):
        return "not a JSON object"
    kind = record.get("type")
    if kind == "node":
        return _node(record)
    if kind == "hyperedge":
        return _hyperedge(record)
    return "'type' must be 'node' or 'hyperedge'"


def _reference_defect(
    nodes: list[tuple[int, HypergraphNode]], hyperedges: list[tuple[int, Hyperedge]]
) -> HypergraphDefect | None:
    """Duplicate ids and hyperedges naming undeclared nodes, reported at the offending line."""
    node_lines: dict[str, int] = {}
    for number, node in nodes:
        if node.id in node_lines:
            return HypergraphDefect(
                f"line {number}: duplicate node id {node.id!r} (first on line {node_lines[node.id]})"
            )
        node_lines[node.id] = number
    edge_lines: dict[str, int] = {}
    for number, edge in hyperedges:
        if edge.id in edge_lines:
            return HypergraphDefect(
                f"line {number}: duplicate hyperedge id {edge.id!r} (first on line {edge_lines[edge.id]})"
            )
        edge_lines[edge.id] = number
        unknown = next((member for member in edge.members if member not in node_lines), None)
        if unknown is not None:
            return HypergraphDefect(f"line {number}: hyperedge {edge.id!r} names undeclared node {unknown!r}")
    return None


def parse_hypergraph_jsonl(lines: Iterable[str]) -> HypergraphContents | HypergraphDefect:
    """Parse JSONL text, given as lines (a file object or `text.splitlines()`); nodes may come after
    the hyperedges that name them."""
    nodes: list[tuple[int, HypergraphNode]] = []
    hyperedges: list[tuple[int, Hyperedge]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parsed = _record(line)
        if isinstance(parsed, str):
            return HypergraphDefect(f"line {number}: {parsed}")
        if isinstance(parsed, HypergraphNode):
            nodes.append((number, parsed))
        else:
            hyperedges.append((number, parsed))
    defect = _reference_defect(nodes, hyperedges)
    if defect is not None:
        return defect
    return HypergraphContents(tuple(node for _, node in nodes), tuple(edge for _, edge in hyperedges))


def _provenance_json(entry: Provenance) -> dict[str, str]:
    fields = {"source": entry.source, "locator": entry.locator, "text": entry.text}
    return {key: value for key, value in fields.items() if value or key == "source"}


def dump_hypergraph_jsonl(nodes: Iterable[HypergraphNode], hyperedges: Iterable[Hyperedge]) -> str:
    lines = [
        json.dumps({"type": "node", "id": n.id, "label": n.label, "aliases": list(n.aliases)}, ensure_ascii=False)
        for n in sorted(nodes, key=lambda n: n.id)
    ]
    lines += [
        json.dumps(
            {
                "type": "hyperedge",
                "id": e.id,
                "relation": e.relation,
                "nodes": list(e.members),
                "provenance": [_provenance_json(p) for p in e.provenance],
            },
            ensure_ascii=False,
        )
        for e in sorted(hyperedges, key=lambda e: e.id)
    ]
    return "".join(line + "\n" for line in lines)
