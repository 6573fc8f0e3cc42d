"""Every fast-path event kind is reported where it happens: CP-5 reads the SEARCH round (HKG paths
found or not, a blend made, transform proposals and the gate's decisions), CP-7 a constraint patch
(Solve added constraints, or the person adopted a suggested one)."""

from __future__ import annotations

from dataclasses import replace

from forge.core.domain_types import Phase
from forge.core.explore.mapping_quality_gate import MappingTable
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.saga.observe import observe_answer, search_events
from forge.core.saga.records import DirectiveId, FastEvent
from forge.core.saga.state import SupervisionState
from forge.core.search.concept_space import SpaceOrigin, TransformOp
from forge.core.search.summary import SearchSummary
from forge.core.search.transform_gate import TransformProposal, TransformRecord, TransformStatus
from forge.core.session.forge_state import ForgeState


def child(hid: str, operator: str) -> Hypothesis:
    gate = GateSummary(GateStatus.PASSED, (), 7, 7.0)
    return Hypothesis(
        HypothesisId(hid), "q", "Queueing", "Little's law", hid, "statement", "", MappingTable(()), "wait", (), gate,
        operator=operator,
    )  # fmt: skip


def transform(status: TransformStatus) -> TransformRecord:
    proposal = TransformProposal(TransformOp.RELAX_THRESHOLD, "c1", "wait under 4 h", "wait under 6 h", "why")
    return TransformRecord("transform-0-1", "h1", "ed", SpaceOrigin.SHIPPED, proposal, status)


def searched(**changes: object) -> ForgeState:
    summary = SearchSummary(0, "research", "mome", (), 4, 6, 3)
    return ForgeState(problem="p", current_phase=Phase.SYNTHESIZE, search=replace(summary, **changes))  # type: ignore[arg-type]


def test_a_plain_round_reports_nothing_beyond_its_completion() -> None:
    assert search_events(searched(), [child("c1", "refine"), child("c2", "oppose")]) == ()


def test_structural_blend_and_transform_children_are_reported() -> None:
    state = searched(transforms=(transform(TransformStatus.ACCEPTED),), ungrounded=1)
    events = search_events(state, [child("c1", "hyperpath_expand"), child("c2", "blend_expand")])
    assert events == (
        FastEvent.HKG_PATH_FOUND,
        FastEvent.HKG_PATH_NOT_FOUND,
        FastEvent.BLEND_EXPAND_COMPLETED,
        FastEvent.TRANSFORM_PROPOSED,
        FastEvent.TRANSFORM_ACCEPTED_OR_REJECTED,
    )


def test_a_proposal_the_gate_has_not_decided_is_only_proposed() -> None:
    state = searched(transforms=(transform(TransformStatus.PROPOSED),), hkg_paths={"HKG_PATH_NOT_FOUND": 2})
    assert search_events(state, []) == (FastEvent.HKG_PATH_NOT_FOUND, FastEvent.TRANSFORM_PROPOSED)


def test_cp7_reports_a_constraint_the_person_adopted_as_a_patch() -> None:
    state = ForgeState(problem="p", current_phase=Phase.CRYSTALLIZE)
    assert FastEvent.CONSTRAINT_PATCH_APPLIED not in observe_answer(state).fast_events
    state.supervision = SupervisionState(adopted=(DirectiveId("CP-4-r0-hard_constraint_violation:ADD_CONSTRAINT"),))
    assert observe_answer(state).fast_events == (FastEvent.CONSTRAINT_PATCH_APPLIED,)
