"""JSONL: parse(dump(x)) == x, and each defect names its line."""

from __future__ import annotations

import json
import random

import pytest
from support.hkg_reference import random_case

from forge.core.hkg.hypergraph_jsonl import dump_hypergraph_jsonl, parse_hypergraph_jsonl
from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphDefect,
    HypergraphNode,
    NodeId,
    Provenance,
)


def _parsed(text: str) -> HypergraphContents:
    parsed = parse_hypergraph_jsonl(text.splitlines())
    assert isinstance(parsed, HypergraphContents), parsed
    return parsed


def _defect(text: str) -> str:
    parsed = parse_hypergraph_jsonl(text.splitlines())
    assert isinstance(parsed, HypergraphDefect)
    return parsed.message


def _sorted(contents: HypergraphContents) -> HypergraphContents:
    return HypergraphContents(
        tuple(sorted(contents.nodes, key=lambda n: n.id)), tuple(sorted(contents.hyperedges, key=lambda e: e.id))
    )


def test_dump_then_parse_gives_back_the_same_records() -> None:
    contents = HypergraphContents(
        (HypergraphNode(NodeId("n:é"), "Entropie", ("disorder", "S")), HypergraphNode(NodeId("n:b"), "b")),
        (
            Hyperedge(
                HyperedgeId("e1"),
                "mechanism",
                (NodeId("n:é"), NodeId("n:b")),
                (Provenance("paper.pdf", "p. 3", "quoted text"), Provenance("other.md")),
            ),
        ),
    )
    text = dump_hypergraph_jsonl(contents.nodes, contents.hyperedges)
    assert _parsed(text) == _sorted(contents)
    assert dump_hypergraph_jsonl(reversed(contents.nodes), contents.hyperedges) == text


def test_random_hypergraphs_round_trip() -> None:
    rng = random.Random(2)
    for _ in range(50):
        contents = random_case(rng).contents
        assert _parsed(dump_hypergraph_jsonl(contents.nodes, contents.hyperedges)) == _sorted(contents)


def test_optional_fields_default_and_blank_lines_are_skipped() -> None:
    text = '{"type": "node", "id": "a"}\n\n{"type": "hyperedge", "id": "e", "nodes": ["a"], "provenance": ["doc.md"]}\n'
    parsed = _parsed(text)
    assert parsed.nodes == (HypergraphNode(NodeId("a"), "a"),)
    assert parsed.hyperedges == (Hyperedge(HyperedgeId("e"), "related_to", (NodeId("a"),), (Provenance("doc.md"),)),)


def test_nodes_may_be_declared_after_the_hyperedges_naming_them() -> None:
    text = '{"type": "hyperedge", "id": "e", "nodes": ["a"]}\n{"type": "node", "id": "a"}'
    assert len(_parsed(text).hyperedges) == 1


NODE = json.dumps({"type": "node", "id": "a"})


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"type": "edge", "id": "e"}', "'type' must be"),
        ('{"type": "node", "label": "x"}', "a node needs"),
        ('{"type": "node", "id": "b", "aliases": "x"}', "a node needs"),
        ('{"type": "hyperedge", "id": "e", "nodes": []}', "a hyperedge needs"),
        ('{"type": "hyperedge", "id": "e", "nodes": ["a"], "provenance": [3]}', "'provenance' must be"),
        ('{"type": "hyperedge", "id": "e", "nodes": ["a", "ghost"]}', "undeclared node 'ghost'"),
        (NODE, "duplicate node id 'a' (first on line 2)"),
    ],
)
def test_a_bad_line_is_reported_with_its_number(bad_line: str, message: str) -> None:
    text = f"\n{NODE}\n{bad_line}\n"
    reported = _defect(text)
    assert reported.startswith("line 3: ")
    assert message in reported


def test_a_duplicate_hyperedge_names_both_lines() -> None:
    edge = '{"type": "hyperedge", "id": "e", "nodes": ["a"]}'
    assert _defect(f"{NODE}\n{edge}\n{edge}") == "line 3: duplicate hyperedge id 'e' (first on line 2)"
