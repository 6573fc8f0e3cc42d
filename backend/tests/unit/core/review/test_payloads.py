"""Review payloads: what each review event carries, built from the state alone."""

from __future__ import annotations

import json
from uuid import UUID

from forge.core.domain_types import (
    AnalogyId,
    ClaimId,
    ClaimType,
    ContradictionId,
    EdgeId,
    EdgeType,
    Phase,
    ReframingId,
    ReframingType,
    ReviewType,
    SemanticDistance,
)
from forge.core.frame.problem_frame import ProblemFrame, audit_frame, make_frame
from forge.core.phases.index_review_items import claim_view
from forge.core.review.payloads import build_review_payload
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    ClaimScores,
    Contradiction,
    Edge,
    MorphologicalParameter,
    NegativeKnowledge,
    Reframing,
    StateOfArt,
)


def claim(n: int, scores: ClaimScores | None = None) -> Claim:
    return Claim(ClaimId(UUID(int=n)), f"claim {n}", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, scores=scores)


def state() -> ForgeState:
    return ForgeState(
        problem="p",
        current_round=1,
        fundamentals=["arrival rate"],
        state_of_art=StateOfArt("fast tracks", ()),
        assumptions=[Assumption("a0"), Assumption("a1", confirmed=True)],
        reframings=[Reframing(ReframingId(UUID(int=20 + i)), f"r{i}", ReframingType.SCOPE_CHANGE) for i in range(3)],
        morphological_box=[MorphologicalParameter("triage", ("nurse", "algorithm"))],
        cross_domain_analogies=[
            Analogy(AnalogyId(UUID(int=30 + i)), f"d{i}", "t", "x", SemanticDistance.FAR) for i in range(2)
        ],
        contradictions=[Contradiction(ContradictionId(UUID(int=40)), "speed", "safety", "d", "r")],
        adjacent_possible=["telemedicine"],
        current_round_claims=[claim(1, ClaimScores(0.9, 0.8, 0.7, 0.6666)), claim(2)],
        knowledge_graph_nodes=[claim(1), claim(3)],
        knowledge_graph_edges=[
            Edge(EdgeId(UUID(int=50)), ClaimId(UUID(int=1)), ClaimId(UUID(int=3)), EdgeType.EXTENDS)
        ],
        negative_knowledge=[NegativeKnowledge(ClaimId(UUID(int=9)), "bad idea", "no evidence", 0)],
        gaps=["staffing data"],
    )


def test_every_review_type_has_a_json_serialisable_payload_naming_it() -> None:
    for review in ReviewType:
        payload = build_review_payload(state(), review)
        assert payload["review"] == review.value
        json.dumps(payload)


def test_every_payload_of_an_empty_state_is_json_serialisable() -> None:
    for review in ReviewType:
        json.dumps(build_review_payload(ForgeState(), review))


def test_decompose_payload_carries_fundamentals_assumptions_and_reframings_with_indices() -> None:
    payload = build_review_payload(state(), ReviewType.DECOMPOSE_REVIEW)
    assert set(payload) == {
        "review", "fundamentals", "state_of_art", "assumptions", "reframings", "problem_frame", "memory",
        "constraints", "constraint_conflicts",
    }  # fmt: skip
    assert payload["constraints"] == [] and payload["constraint_conflicts"] == []  # no frame yet
    assert payload["memory"] == []
    assert payload["fundamentals"] == ["arrival rate"]
    assert payload["state_of_art"]["summary"] == "fast tracks"
    assert [a["index"] for a in payload["assumptions"]] == [0, 1]
    assert payload["assumptions"][1]["confirmed"] is True
    assert [r["index"] for r in payload["reframings"]] == [0, 1, 2]
    assert payload["reframings"][2]["text"] == "r2"
    assert payload["reframings"][0]["reframing_type"] == "scope_change"


def test_decompose_payload_without_state_of_art_has_none() -> None:
    assert build_review_payload(ForgeState(), ReviewType.DECOMPOSE_REVIEW)["state_of_art"] is None


def test_decompose_payload_carries_the_frame_and_its_audit_findings() -> None:
    frame = make_frame(
        "Cut waits", "ED", "shorter waits", hard_constraints=["no more staff", "without hiring more staff"]
    )
    assert isinstance(frame, ProblemFrame)
    payload = build_review_payload(ForgeState(problem_frame=audit_frame(frame)), ReviewType.DECOMPOSE_REVIEW)
    assert payload["problem_frame"]["frame"]["hard_constraints"] == ["no more staff"]
    assert [f["kind"] for f in payload["problem_frame"]["audit"]["findings"]] == ["duplicate"]


def test_explore_payload_carries_box_analogies_contradictions_and_adjacent() -> None:
    payload = build_review_payload(state(), ReviewType.EXPLORE_REVIEW)
    assert set(payload) == {
        "review",
        "morphological_box",
        "analogies",
        "contradictions",
        "adjacent",
        "domain_selection",
        "pool",
        "suggestion_outcomes",
    }
    assert payload["suggestion_outcomes"] == []
    assert payload["morphological_box"] == [{"name": "triage", "options": ["nurse", "algorithm"]}]
    assert [a["index"] for a in payload["analogies"]] == [0, 1]
    assert payload["analogies"][1]["source_domain"] == "d1"
    assert payload["analogies"][0]["semantic_distance"] == "far"
    assert payload["contradictions"][0]["index"] == 0
    assert payload["adjacent"] == ["telemedicine"]


def test_claims_payload_carries_round_and_indexed_claims_with_ids() -> None:
    payload = build_review_payload(state(), ReviewType.CLAIMS_REVIEW)
    assert payload["round"] == 1
    claims = payload["claims"]
    assert [c["index"] for c in claims] == [0, 1]
    assert [c["id"] for c in claims] == [str(UUID(int=1)), str(UUID(int=2))]
    assert claims[0]["score_mean"] == 0.767
    assert claims[1]["score_mean"] is None


def test_verdicts_payload_shows_the_same_claims_as_the_claims_review() -> None:
    s = state()
    claims_payload = build_review_payload(s, ReviewType.CLAIMS_REVIEW)
    verdicts_payload = build_review_payload(s, ReviewType.VERDICTS)
    assert verdicts_payload["review"] == "verdicts"
    assert [{k: v for k, v in c.items() if k != "verify"} for c in verdicts_payload["claims"]] == claims_payload[
        "claims"
    ]
    assert [c["verify"] for c in verdicts_payload["claims"]] == [None, None]  # VERIFY has not run


def test_verdicts_payload_carries_each_verified_claims_breakdown() -> None:
    from forge.core.verify.claim_verification import VerifyInputs, compose_verification
    from forge.core.verify.verdicts import LogicVerdict, PositionCheck, VerifySample

    s = state()
    first = s.current_round_claims[0]
    samples = (VerifySample(LogicVerdict(8, 7, 6), 5.0),) * 3
    s.verifications[first.id] = compose_verification(
        VerifyInputs(first.id, "scripted:verifier", samples, position=PositionCheck(6.2, 6.0), rationale="r")
    )
    claims = build_review_payload(s, ReviewType.VERDICTS)["claims"]
    verify = claims[0]["verify"]
    assert verify["status"] == "failed" and verify["verifier"] == "scripted:verifier"
    assert verify["logic"] == {
        "analogy_validity": 8,
        "internal_consistency": 7,
        "causal_rigor": 6,
        "average": 7.0,
        "passed": True,
    }
    assert verify["novelty"]["searched"] is False and verify["position_consistent"] is True
    assert verify["final_score"] == 5.8 and claims[1]["verify"] is None


def test_build_payload_carries_graph_gaps_curiosity_negatives_round_and_limit() -> None:
    payload = build_review_payload(state(), ReviewType.BUILD_DECISION)
    assert set(payload) == {"review", "graph", "gaps", "curiosity", "negative_knowledge", "round", "max_rounds_reached"}
    assert payload["curiosity"] == []  # none found yet (test_apply_review covers the items)
    assert [n["id"] for n in payload["graph"]["nodes"]] == [str(UUID(int=1)), str(UUID(int=3))]
    assert payload["graph"]["edges"] == [
        {"id": str(UUID(int=50)), "source": str(UUID(int=1)), "target": str(UUID(int=3)), "label": "extends"}
    ]
    assert payload["gaps"] == ["staffing data"]
    assert payload["negative_knowledge"][0]["reason"] == "no evidence"
    assert payload["round"] == 1
    assert payload["max_rounds_reached"] is False


def test_build_payload_reports_max_rounds_reached_in_the_last_round() -> None:
    s = state()
    s.current_round = 4
    assert build_review_payload(s, ReviewType.BUILD_DECISION)["max_rounds_reached"] is True


def test_claim_view_carries_every_claim_field_plus_index_and_mean() -> None:
    view = claim_view(2, claim(7, ClaimScores(0.5, 0.5, 0.5, 0.5)))
    assert view["index"] == 2
    assert view["id"] == str(UUID(int=7))
    assert view["text"] == "claim 7"
    assert view["claim_type"] == "synthesis"
    assert view["score_mean"] == 0.5
    assert view["scores"] == {"novelty": 0.5, "groundedness": 0.5, "falsifiability": 0.5, "significance": 0.5}


def test_payloads_do_not_change_the_state() -> None:
    s = state()
    for review in ReviewType:
        build_review_payload(s, review)
    assert s == state()
