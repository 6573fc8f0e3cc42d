"""Projection of a ForgeState onto the relational tables (claims, evidence, edges, ...).

Invariants:
    - Pure: builds column dicts, never touches a database.
    - Claims are `state.all_claims` followed by the knowledge-graph nodes that are not among them
      (user-contributed nodes); the first occurrence of a claim id wins.
    - Evidence rows come from `state.state_of_art` (claim_id NULL) and from each projected claim
      (claim_id = the owning claim). An evidence id met a second time (the same evidence cited by
      two claims) gets a deterministic derived id, uuid5(evidence id, "owner#position"), so no row
      is lost.
    - An edge is projected only when both endpoints are projected claims (FK-safe); the
      authoritative graph stays in `sessions.forge_state`.
    - `Projection.insert_order` lists tables parents-first; deleting in reverse respects the FKs.
    - `projection_digest` is a digest per table of the rows projected; `tables_to_rewrite` names
      the tables whose digest moved, plus the dependents of a rewritten claims table (evidence and
      edges reference claims ON DELETE CASCADE: deleting the claims takes their rows along). An
      unknown previous digest (None, or another format) rewrites every table.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, Evidence
from forge.db.tables import AnalogyRow, Base, ClaimRow, ContradictionRow, EdgeRow, EvidenceRow, ReframingRow

Rows = list[dict[str, Any]]


@dataclass(frozen=True)
class Projection:
    claims: Rows = field(default_factory=list)
    evidence: Rows = field(default_factory=list)
    edges: Rows = field(default_factory=list)
    reframings: Rows = field(default_factory=list)
    analogies: Rows = field(default_factory=list)
    contradictions: Rows = field(default_factory=list)

    def insert_order(self) -> list[tuple[type[Base], Rows]]:
        return [
            (ClaimRow, self.claims),
            (EvidenceRow, self.evidence),
            (EdgeRow, self.edges),
            (ReframingRow, self.reframings),
            (AnalogyRow, self.analogies),
            (ContradictionRow, self.contradictions),
        ]


ProjectionDigest = str
# The tables in the order their digests are joined (insert order).
_DIGEST_ORDER: tuple[type[Base], ...] = tuple(model for model, _ in Projection().insert_order())
EVERY_PROJECTED_TABLE: frozenset[type[Base]] = frozenset(_DIGEST_ORDER)
_DIGEST_HEX = 16  # 64 bits per table: a collision would leave one refresh's rows stale


def projection_digest(projection: Projection) -> ProjectionDigest:
    """One digest per table, in insert order, joined by commas (101 characters)."""
    return ",".join(
        hashlib.blake2b(msgspec.msgpack.encode(rows), digest_size=_DIGEST_HEX // 2).hexdigest()
        for _, rows in projection.insert_order()
    )


def tables_to_rewrite(previous: ProjectionDigest | None, current: ProjectionDigest) -> frozenset[type[Base]]:
    """The tables whose rows must be deleted and inserted again to match `current`."""
    before = previous.split(",") if previous else []
    if len(before) != len(_DIGEST_ORDER):
        return EVERY_PROJECTED_TABLE
    moved = {model for model, old, new in zip(_DIGEST_ORDER, before, current.split(","), strict=True) if old != new}
    if ClaimRow in moved:
        moved |= {EvidenceRow, EdgeRow}
    return frozenset(moved)


PROJECTED_TABLES_DELETE_ORDER: tuple[type[Base], ...] = (
    EdgeRow,
    EvidenceRow,
    ClaimRow,
    ReframingRow,
    AnalogyRow,
    ContradictionRow,
)


def projected_claims(state: ForgeState) -> list[Claim]:
    seen: set[uuid.UUID] = set()
    claims: list[Claim] = []
    for claim in [*state.all_claims, *state.knowledge_graph_nodes]:
        if claim.id not in seen:
            seen.add(claim.id)
            claims.append(claim)
    return claims


def _claim_row(session_id: uuid.UUID, claim: Claim) -> dict[str, Any]:
    scores = claim.scores
    return {
        "id": claim.id,
        "session_id": session_id,
        "claim_text": claim.text,
        "claim_type": claim.claim_type.value,
        "thesis_text": claim.thesis_text,
        "antithesis_text": claim.antithesis_text,
        "phase_created": claim.phase_created.ordinal,
        "round_created": claim.round_created,
        "status": claim.status.value,
        "confidence": claim.confidence.value,
        "falsifiability_condition": claim.falsifiability_condition,
        "novelty": scores.novelty if scores else None,
        "groundedness": scores.groundedness if scores else None,
        "falsifiability": scores.falsifiability if scores else None,
        "significance": scores.significance if scores else None,
        "rejection_reason": claim.rejection_reason,
        "user_feedback": claim.user_feedback,
        "cross_domain_source": claim.cross_domain_source,
        "morphological_params": None,
    }


def _evidence_rows(session_id: uuid.UUID, owned: Iterable[tuple[uuid.UUID | None, Evidence]]) -> Rows:
    rows: Rows = []
    used: set[uuid.UUID] = set()
    for position, (owner, item) in enumerate(owned):
        row_id = item.id if item.id not in used else uuid.uuid5(item.id, f"{owner}#{position}")
        used.add(row_id)
        rows.append(
            {
                "id": row_id,
                "session_id": session_id,
                "claim_id": owner,
                "source_url": item.source,
                "source_title": item.title,
                "content_summary": item.summary,
                "evidence_type": item.evidence_type.value,
                "contributed_by": item.contributed_by.value,
                "query": item.query,
                "retrieved_at": item.retrieved_at,
            }
        )
    return rows


def _owned_evidence(state: ForgeState, claims: list[Claim]) -> list[tuple[uuid.UUID | None, Evidence]]:
    owned: list[tuple[uuid.UUID | None, Evidence]] = []
    if state.state_of_art is not None:
        owned.extend((None, e) for e in state.state_of_art.evidence)
    for claim in claims:
        owned.extend((claim.id, e) for e in claim.evidence)
    return owned


def _unique_by_id(rows: Rows) -> Rows:
    seen: set[uuid.UUID] = set()
    unique: Rows = []
    for row in rows:
        if row["id"] not in seen:
            seen.add(row["id"])
            unique.append(row)
    return unique


def _edge_rows(session_id: uuid.UUID, state: ForgeState, claim_ids: set[uuid.UUID]) -> Rows:
    rows = [
        {
            "id": e.id,
            "session_id": session_id,
            "source_claim_id": e.source,
            "target_claim_id": e.target,
            "edge_type": e.edge_type.value,
        }
        for e in state.knowledge_graph_edges
        if e.source in claim_ids and e.target in claim_ids
    ]
    return _unique_by_id(rows)


def _reframing_rows(session_id: uuid.UUID, state: ForgeState) -> Rows:
    rows = [
        {
            "id": r.id,
            "session_id": session_id,
            "original_problem": state.problem,
            "reframing_text": r.text,
            "reframing_type": r.reframing_type.value,
            "selected": r.selected,
        }
        for r in state.reframings
    ]
    return _unique_by_id(rows)


def _analogy_rows(session_id: uuid.UUID, state: ForgeState) -> Rows:
    rows = [
        {
            "id": a.id,
            "session_id": session_id,
            "source_domain": a.source_domain,
            "target_application": a.target_application,
            "analogy_description": a.description,
            "semantic_distance": a.semantic_distance.value,
            "starred": a.starred,
        }
        for a in state.cross_domain_analogies
    ]
    return _unique_by_id(rows)


def _contradiction_rows(session_id: uuid.UUID, state: ForgeState) -> Rows:
    rows = [
        {
            "id": c.id,
            "session_id": session_id,
            "property_a": c.property_a,
            "property_b": c.property_b,
            "description": c.description,
            "resolution_direction": c.resolution_direction,
        }
        for c in state.contradictions
    ]
    return _unique_by_id(rows)


def project_state(session_id: uuid.UUID, state: ForgeState) -> Projection:
    claims = projected_claims(state)
    return Projection(
        claims=[_claim_row(session_id, c) for c in claims],
        evidence=_evidence_rows(session_id, _owned_evidence(state, claims)),
        edges=_edge_rows(session_id, state, {c.id for c in claims}),
        reframings=_reframing_rows(session_id, state),
        analogies=_analogy_rows(session_id, state),
        contradictions=_contradiction_rows(session_id, state),
    )
