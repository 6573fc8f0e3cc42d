"""The demo hypergraph, built from the shipped source-domain library and the TRIZ data.

Nodes:
    domain:<id>                       a source domain (label: its name; alias: its id in words)
    variable:<domain>:<slug>          a key variable ("temperature (T)"; alias "temperature")
    mechanism:<domain>:<slug>         a structure ("Carnot ceiling")
    term:<word>                       a cue term, folded to its singular, shared by every entry using it
    triz-principle:<nn> / triz-parameter:<nn>   the 40 principles / 39 parameters
Hyperedges (relation — members):
    has_key_variables — the domain and its variables
    mechanism         — the domain, the pattern, the variables and cue terms its text mentions
    cued_by           — the domain and its cue terms
    principle_cued_by / parameter_cued_by — a TRIZ entry and its cue terms
Cue terms are the joints: "gradient" links thermodynamics, a fluid-dynamics mechanism and a TRIZ
parameter. Every hyperedge's provenance names the knowledge file and a locator; a mechanism's text is
kept in the store (never copied into evidence).

Invariant: deterministic — the same knowledge records give equal contents (and byte-identical JSONL).
The shell builds it at run time from the typed records of `forge.knowledge` (the same records every
model reads) whenever no hypergraph was ingested, so it can never drift from the library it describes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from forge.core.explore.library_records import DomainVariable, SourceDomain, TrizParameter, TrizPrinciple
from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphNode,
    NodeId,
    Provenance,
)
from forge.core.research.text_terms import content_terms, fold

DOMAINS_SOURCE = "knowledge/source_domains.json"
PRINCIPLES_SOURCE = "knowledge/triz_principles.json"
PARAMETERS_SOURCE = "knowledge/triz_parameters.json"

_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
_NON_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str) -> str:
    return _NON_SLUG.sub("-", text.lower()).strip("-")


def _term_id(word: str) -> NodeId:
    return NodeId(f"term:{fold(word.lower())}")


def _term_nodes(words: Iterable[str]) -> list[HypergraphNode]:
    return [HypergraphNode(_term_id(w), fold(w.lower())) for w in words]


def _variable_nodes(domain_id: str, variables: Sequence[DomainVariable]) -> list[HypergraphNode]:
    nodes = []
    for variable in variables:
        name = variable.name
        plain = _PARENTHESIS.sub("", name).strip()
        aliases = (plain,) if plain and plain != name else ()
        nodes.append(HypergraphNode(NodeId(f"variable:{domain_id}:{_slug(plain or name)}"), name, aliases))
    return nodes


def _mentioned(text: str, vocabulary: set[str], variables: Sequence[HypergraphNode]) -> list[NodeId]:
    words = set(content_terms(text))
    terms = [NodeId(f"term:{w}") for w in sorted(words & vocabulary)]
    named = [v.id for v in variables if set(content_terms(v.aliases[0] if v.aliases else v.label)) <= words]
    return named + terms


def _domain_records(domain: SourceDomain, vocabulary: set[str]) -> tuple[list[HypergraphNode], list[Hyperedge]]:
    domain_id = domain.id
    node = HypergraphNode(NodeId(f"domain:{domain_id}"), domain.name, (domain_id.replace("_", " "),))
    variables = _variable_nodes(domain_id, domain.key_variables)
    cues = sorted({_term_id(c) for c in domain.cue_terms})
    edges = [
        Hyperedge(
            HyperedgeId(f"domain:{domain_id}:variables"),
            "has_key_variables",
            (node.id, *(v.id for v in variables)),
            (Provenance(DOMAINS_SOURCE, f"{domain_id}/key_variables"),),
        ),
        Hyperedge(
            HyperedgeId(f"domain:{domain_id}:cues"),
            "cued_by",
            (node.id, *cues),
            (Provenance(DOMAINS_SOURCE, f"{domain_id}/cue_terms"),),
        ),
    ]
    nodes = [node, *variables, *_term_nodes(domain.cue_terms)]
    for number, structure in enumerate(domain.structures):
        mechanism = HypergraphNode(NodeId(f"mechanism:{domain_id}:{_slug(structure.name)}"), structure.name)
        text = f"{structure.source_relation} {structure.mechanism}"
        members = (node.id, mechanism.id, *_mentioned(text, vocabulary, variables))
        provenance = Provenance(DOMAINS_SOURCE, f"{domain_id}/structures/{number}", structure.mechanism)
        edges.append(
            Hyperedge(HyperedgeId(f"domain:{domain_id}:pattern:{number}"), "mechanism", members, (provenance,))
        )
        nodes.append(mechanism)
    return nodes, edges


def _triz_records(
    entries: Sequence[TrizPrinciple | TrizParameter], kind: str, source: str
) -> tuple[list[HypergraphNode], list[Hyperedge]]:
    nodes: list[HypergraphNode] = []
    edges: list[Hyperedge] = []
    for entry in entries:
        number = entry.number
        node = HypergraphNode(NodeId(f"triz-{kind}:{number:02d}"), entry.name, (f"TRIZ {kind} {number}",))
        cues = sorted({_term_id(c) for c in entry.cue_terms})
        edges.append(
            Hyperedge(
                HyperedgeId(f"triz-{kind}:{number:02d}:cues"),
                f"{kind}_cued_by",
                (node.id, *cues),
                (Provenance(source, f"{number}/cue_terms"),),
            )
        )
        nodes += [node, *_term_nodes(entry.cue_terms)]
    return nodes, edges


def _unique_nodes(nodes: Iterable[HypergraphNode]) -> tuple[HypergraphNode, ...]:
    first: dict[NodeId, HypergraphNode] = {}
    for node in nodes:
        first.setdefault(node.id, node)
    return tuple(sorted(first.values(), key=lambda n: n.id))


def build_demo_hypergraph(
    domains: Sequence[SourceDomain],
    principles: Sequence[TrizPrinciple],
    parameters: Sequence[TrizParameter],
) -> HypergraphContents:
    everything: list[SourceDomain | TrizPrinciple | TrizParameter] = [*domains, *principles, *parameters]
    vocabulary = {fold(c.lower()) for entry in everything for c in entry.cue_terms}
    nodes: list[HypergraphNode] = []
    edges: list[Hyperedge] = []
    for domain in domains:
        more_nodes, more_edges = _domain_records(domain, vocabulary)
        nodes += more_nodes
        edges += more_edges
    triz: tuple[tuple[Sequence[TrizPrinciple | TrizParameter], str, str], ...] = (
        (principles, "principle", PRINCIPLES_SOURCE),
        (parameters, "parameter", PARAMETERS_SOURCE),
    )
    for entries, kind, source in triz:
        more_nodes, more_edges = _triz_records(entries, kind, source)
        nodes += more_nodes
        edges += more_edges
    return HypergraphContents(_unique_nodes(nodes), tuple(sorted(edges, key=lambda e: e.id)))
