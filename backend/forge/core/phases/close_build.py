"""Closing BUILD: its work gate, the build decision, and rule 11 (at most MAX_ROUNDS rounds).

Invariants:
    - The work gate: every claim the person accepted or qualified this round is in the graph.
    - The decision continues (a new round), deep-dives (a new round on one graph claim), adds the
      person's insight (the session keeps waiting) or resolves (on to CRYSTALLIZE). Starting a
      new round is refused, before anything changes, once the last allowed round is done (rule 11).
    - The payload offers the round's curiosity items (thin regions the path navigator found); a
      decision that starts a new round may pick one by id (`curiosity_id`): it becomes the new
      round's `chosen_direction`, which its briefs carry. An unknown id is refused.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from uuid import UUID

from forge.core.domain_types import (
    BuildDecision,
    ClaimConfidence,
    ClaimId,
    ClaimStatus,
    ClaimType,
    Contributor,
    EvidenceId,
    EvidenceType,
    Phase,
    ReviewType,
)
from forge.core.graph.project_to_flow import project_graph_to_flow
from forge.core.phases.phase_review import NewId, PhaseReview
from forge.core.review.inputs import BuildDecisionReview, ReviewRejection, invalid_review
from forge.core.rules.phase_gates import check_can_start_new_round
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, Evidence
from forge.core.session.state_codec import encode_value


def check_build_work_complete(state: ForgeState) -> RuleViolation | None:
    in_graph = {c.id for c in state.knowledge_graph_nodes}
    pending = [
        str(i)
        for i, c in enumerate(state.current_round_claims)
        if c.status in (ClaimStatus.VALIDATED, ClaimStatus.QUALIFIED) and c.id not in in_graph
    ]
    if pending:
        return RuleViolation(
            ErrorCode.PHASE_WORK_INCOMPLETE,
            f"BUILD is incomplete: accepted claims not in the graph (by index): {', '.join(pending)}. "
            "Call add_to_knowledge_graph for each.",
        )
    return None


def build_decision_payload(state: ForgeState) -> dict[str, Any]:
    flow = project_graph_to_flow(state.knowledge_graph_nodes, state.knowledge_graph_edges)
    return {
        "graph": {"nodes": [asdict(n) for n in flow.nodes], "edges": [asdict(e) for e in flow.edges]},
        "gaps": list(state.gaps),
        "curiosity": encode_value(state.curiosity_items),
        "negative_knowledge": encode_value(state.negative_knowledge),
        "round": state.current_round,
        "max_rounds_reached": state.max_rounds_reached,
    }


def check_build_decision(state: ForgeState, review: BuildDecisionReview) -> ReviewRejection | None:
    if review.decision == BuildDecision.ADD_INSIGHT and not (review.user_insight or "").strip():
        return invalid_review("decision 'add_insight' needs a non-empty user_insight.")
    if review.decision == BuildDecision.DEEP_DIVE:
        ids = {str(c.id) for c in state.knowledge_graph_nodes}
        if review.deep_dive_claim_id not in ids:
            return invalid_review(
                "decision 'deep_dive' needs deep_dive_claim_id of a claim in the knowledge graph; "
                f"known ids: {sorted(ids) or 'none'}."
            )
    if review.curiosity_id is not None:
        known = [i.id for i in state.curiosity_items]
        if review.decision not in (BuildDecision.CONTINUE, BuildDecision.DEEP_DIVE):
            return invalid_review("curiosity_id goes with decision 'continue' or 'deep_dive' (a new round).")
        if review.curiosity_id not in known:
            return invalid_review(f"curiosity_id must be one of the offered items; known ids: {known or 'none'}.")
    return None


def check_new_round_allowed(state: ForgeState, review: BuildDecisionReview) -> RuleViolation | None:
    """Rule 11, for the decisions that start a new round (continue, deep_dive)."""
    if review.decision in (BuildDecision.CONTINUE, BuildDecision.DEEP_DIVE):
        return check_can_start_new_round(state)
    return None


def _user_insight_claim(s: ForgeState, r: BuildDecisionReview, new_id: NewId) -> Claim:
    claim_id = ClaimId(new_id())
    evidence = tuple(
        Evidence(
            EvidenceId(new_id()),
            url,
            "Provided by the user",
            "Evidence supplied with a user insight.",
            EvidenceType.SUPPORTING,
            Contributor.USER,
            claim_id=claim_id,
        )
        for url in r.user_evidence_urls
    )
    return Claim(
        id=claim_id,
        text=(r.user_insight or "").strip(),
        claim_type=ClaimType.USER_CONTRIBUTED,
        round_created=s.current_round,
        phase_created=Phase.BUILD,
        status=ClaimStatus.VALIDATED,
        confidence=ClaimConfidence.EMERGING if evidence else ClaimConfidence.SPECULATIVE,
        evidence=evidence,
    )


def apply_build_decision(s: ForgeState, r: BuildDecisionReview, new_id: NewId) -> tuple[Phase | None, str]:
    if r.decision == BuildDecision.ADD_INSIGHT:
        claim = _user_insight_claim(s, r, new_id)
        s.knowledge_graph_nodes.append(claim)
        s.user_insights.append(claim.text)
        return None, "added a user insight to the knowledge graph"
    if r.decision == BuildDecision.RESOLVE:
        return Phase.CRYSTALLIZE, "resolved: crystallize the knowledge"
    chosen = next((i for i in s.curiosity_items if i.id == r.curiosity_id), None)
    s.reset_for_new_round()
    s.chosen_direction = chosen
    s.deep_dive_active = r.decision == BuildDecision.DEEP_DIVE
    s.deep_dive_target_claim_id = (
        ClaimId(UUID(r.deep_dive_claim_id)) if s.deep_dive_active and r.deep_dive_claim_id else None
    )
    return Phase.SYNTHESIZE, f"{r.decision.value}: round {s.current_round + 1}"


REVIEW: PhaseReview[BuildDecisionReview] = PhaseReview(
    ReviewType.BUILD_DECISION,
    payload=build_decision_payload,
    check=check_build_decision,
    apply=apply_build_decision,
    admission_rule=check_new_round_allowed,
)
