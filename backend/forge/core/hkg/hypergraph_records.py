"""Records of a knowledge hypergraph: nodes with labels and aliases, hyperedges with provenance.

Invariants:
    - Every record is a frozen dataclass; ids are NewTypes over str (`NodeId`, `HyperedgeId`) so a
      hyperedge id can never be passed where a node id is expected.
    - A hyperedge names its member nodes; member order carries no meaning (the store keeps them as a
      set). A hyperedge may have a single member.
    - Provenance says where a hyperedge came from (`source` + `locator`); its `text` stays in the
      store and is never copied into evidence: evidence carries `ProvenanceRef` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NewType

NodeId = NewType("NodeId", str)
HyperedgeId = NewType("HyperedgeId", str)


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a hyperedge was read from: a document (`source`), a place in it, optionally its text."""

    source: str
    locator: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class ProvenanceRef:
    """A reference to a hyperedge's provenance, without its text (safe to put in a prompt)."""

    hyperedge_id: HyperedgeId
    source: str
    locator: str


@dataclass(frozen=True, slots=True)
class HypergraphNode:
    id: NodeId
    label: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Hyperedge:
    id: HyperedgeId
    relation: str
    members: tuple[NodeId, ...]
    provenance: tuple[Provenance, ...] = ()


@dataclass(frozen=True, slots=True)
class HypergraphContents:
    """Nodes and hyperedges as read from a file or built from data, before validation."""

    nodes: tuple[HypergraphNode, ...]
    hyperedges: tuple[Hyperedge, ...]


@dataclass(frozen=True, slots=True)
class HypergraphDefect:
    """Why contents could not become a store (or a file could not be read): one readable message."""

    message: str
