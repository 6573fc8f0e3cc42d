"""The projection's per-table digest and which tables a refresh must rewrite (pure, no database)."""

from __future__ import annotations

import uuid
from dataclasses import replace

from support.rich_state import rich_state as build_rich_state

from forge.core.domain_types import ClaimId, ClaimType, EdgeId, EdgeType, Phase, ReframingId
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, Edge, Reframing
from forge.db.state_projection import project_state, projection_digest, tables_to_rewrite
from forge.db.tables import AnalogyRow, ClaimRow, ContradictionRow, EdgeRow, EvidenceRow, ReframingRow

SID = uuid.UUID("00000000-0000-4000-8000-0000000000aa")
EVERY_TABLE = frozenset({ClaimRow, EvidenceRow, EdgeRow, ReframingRow, AnalogyRow, ContradictionRow})


def digest(state: ForgeState) -> str:
    return projection_digest(project_state(SID, state))


def test_the_digest_is_the_same_for_the_same_rows_and_has_one_part_per_table() -> None:
    state = build_rich_state()
    assert digest(state) == digest(state)
    assert len(digest(state).split(",")) == 6
    assert len(digest(state)) <= 128  # the column's width


def test_an_unchanged_state_rewrites_nothing() -> None:
    state = build_rich_state()
    assert tables_to_rewrite(digest(state), digest(state)) == frozenset()


def test_an_unknown_previous_digest_rewrites_every_table() -> None:
    current = digest(build_rich_state())
    assert tables_to_rewrite(None, current) == EVERY_TABLE
    assert tables_to_rewrite("", current) == EVERY_TABLE
    assert tables_to_rewrite("abc,def", current) == EVERY_TABLE  # another format


def test_a_changed_reframing_rewrites_only_the_reframings() -> None:
    state = build_rich_state()
    before = digest(state)
    state.reframings = [replace(state.reframings[0], selected=not state.reframings[0].selected), *state.reframings[1:]]
    assert tables_to_rewrite(before, digest(state)) == frozenset({ReframingRow})


def test_a_new_reframing_rewrites_the_reframings() -> None:
    state = build_rich_state()
    before = digest(state)
    state.reframings.append(Reframing(ReframingId(uuid.uuid4()), "new angle", state.reframings[0].reframing_type))
    assert tables_to_rewrite(before, digest(state)) == frozenset({ReframingRow})


def test_a_changed_claim_rewrites_its_evidence_and_edges_too() -> None:
    """Deleting the claims cascades to evidence and edges: both must be written again."""
    state = build_rich_state()
    before = digest(state)
    state.current_round_claims[0] = replace(state.current_round_claims[0], user_feedback="sharper, please")
    assert tables_to_rewrite(before, digest(state)) == frozenset({ClaimRow, EvidenceRow, EdgeRow})


def test_a_new_edge_alone_rewrites_only_the_edges() -> None:
    state = build_rich_state()
    before = digest(state)
    first, second = state.all_claims[:2]
    state.knowledge_graph_edges.append(Edge(EdgeId(uuid.uuid4()), first.id, second.id, EdgeType.SUPPORTS))
    assert tables_to_rewrite(before, digest(state)) == frozenset({EdgeRow})


def test_a_new_claim_rewrites_the_claims_and_their_dependents() -> None:
    state = build_rich_state()
    before = digest(state)
    state.knowledge_graph_nodes.append(
        Claim(ClaimId(uuid.uuid4()), "another", ClaimType.USER_CONTRIBUTED, 1, Phase.BUILD)
    )
    assert tables_to_rewrite(before, digest(state)) == frozenset({ClaimRow, EvidenceRow, EdgeRow})
