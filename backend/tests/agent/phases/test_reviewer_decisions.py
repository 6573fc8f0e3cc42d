"""The person's decisions reach the model in words, and each phase's brief says what to do next."""

from __future__ import annotations

import json
from dataclasses import replace
from uuid import UUID

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.phases.reviewer_decisions import reviewer_decided
from forge.core.curation.graph_gaps import CuriosityItem
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, Contributor, EdgeId, EdgeType, Phase
from forge.core.frame.problem_constraints import join_constraints
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Assumption, Claim, Edge
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import VerifyStatus

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def _claim(n: int, text: str, **kw: object) -> Claim:
    return replace(Claim(ClaimId(UUID(int=n)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE), **kw)  # type: ignore[arg-type]


def test_nothing_decided_gives_no_block() -> None:
    assert reviewer_decided(ForgeState(problem=PROBLEM)) == ""
    assert "YOUR REVIEWER DECIDED" not in phase_kickoff(ForgeState(problem=PROBLEM)).text


def test_a_qualification_and_a_rejection_reach_the_build_brief_in_words() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.BUILD)
    s.current_round_claims = [
        _claim(
            1, "Pooling triage queues cuts waits", status=ClaimStatus.QUALIFIED, qualification="only above 40k visits"
        ),
        _claim(2, "Night shifts cause waits", status=ClaimStatus.REJECTED, rejection_reason="one small clinic"),
    ]
    text = phase_kickoff(s).text
    assert "override" in text
    assert "holds only within this limit: only above 40k visits" in text
    assert f"The person rejected claim {UUID(int=2)} “Night shifts cause waits” — one small clinic" in text
    assert '"qualification":"only above 40k visits"' in text and '"verdict":"qualified"' in text


def test_rejected_and_added_assumptions_reach_explore_but_not_build() -> None:
    s = ForgeState(problem=PROBLEM)
    s.assumptions = [
        Assumption("Demand is fixed", confirmed=False),
        Assumption("Nurses can move", Contributor.USER, True),
    ]
    s.enter_phase(Phase.EXPLORE)
    explore = reviewer_decided(s)
    assert "do not rely on them anywhere: “Demand is fixed”" in explore and "“Nurses can move”" in explore
    s.enter_phase(Phase.BUILD)
    assert reviewer_decided(s) == ""


def test_a_deep_dive_names_its_target_in_the_round_two_synthesis_brief() -> None:
    s = ForgeState(problem=PROBLEM)
    target = _claim(7, "Pooling triage queues cuts waits", status=ClaimStatus.VALIDATED)
    s.knowledge_graph_nodes = [target]
    s.enter_phase(Phase.SYNTHESIZE)
    s.current_round, s.deep_dive_active, s.deep_dive_target_claim_id = 1, True, target.id
    text = phase_kickoff(s).text
    assert text.startswith("[forge phase=synthesize round=2]\n")
    assert "get_negative_knowledge first" in text and "builds_on_claim_id" in text
    assert f"The person chose a deep dive: this round goes deeper into claim {target.id}" in text


def _brief_json(text: str) -> dict[str, object]:
    return dict(json.loads(text.split("```json\n", 1)[1].split("\n```", 1)[0]))


def test_a_deep_dive_brings_the_neighbours_the_navigator_walks_to_and_not_the_unrelated_claim() -> None:
    s = ForgeState(problem=PROBLEM)
    target = _claim(7, "Pooling triage queues cuts emergency waits", status=ClaimStatus.VALIDATED)
    near = _claim(8, "Triage queues pooled across two wards cut waits at peaks", status=ClaimStatus.VALIDATED)
    far = _claim(9, "Parking fees fund the cafeteria", status=ClaimStatus.VALIDATED)
    s.knowledge_graph_nodes = [target, near, far]
    s.knowledge_graph_edges = [
        Edge(EdgeId(UUID(int=70)), near.id, target.id, EdgeType.EXTENDS),
        Edge(EdgeId(UUID(int=71)), far.id, target.id, EdgeType.SUPPORTS),
    ]
    s.enter_phase(Phase.SYNTHESIZE)
    s.current_round, s.deep_dive_active, s.deep_dive_target_claim_id = 1, True, target.id
    deep = _brief_json(phase_kickoff(s).text)["deep_dive"]
    assert isinstance(deep, dict)
    assert [n["id"] for n in deep["neighbours"]] == [str(near.id)]
    assert deep["neighbours"][0]["via"] == "extends"
    assert deep["navigation"]["stop_reason"] == "stop_rule"


def test_a_picked_curiosity_item_is_the_round_two_synthesis_direction() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.SYNTHESIZE)
    s.current_round = 1
    s.chosen_direction = CuriosityItem("kg:x", "session_graph", "x", "triage", "What else bears on “triage”?", 0.4, 1)
    text = phase_kickoff(s).text
    assert (
        "The person chose this round's direction (a thin region of the graph, at the build review): What else" in text
    )
    assert "you chose" not in text
    assert _brief_json(text)["direction"] == {"question": "What else bears on “triage”?", "node": "triage"}


def test_the_first_synthesis_round_does_not_ask_for_negative_knowledge() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.SYNTHESIZE)
    guide, tools = phase_kickoff(s).text.split("TOOLS THIS PHASE")
    assert "get_negative_knowledge" not in guide  # listed among the phase's tools, not asked for
    assert "\n- get_negative_knowledge: Read the claims the person rejected" in tools


def test_constraints_are_stated_as_hard_limits_in_every_brief() -> None:
    s = ForgeState(problem=join_constraints(PROBLEM, ["no new hires", "budget under 50k"]))
    for phase in (Phase.DECOMPOSE, Phase.VALIDATE):
        s.enter_phase(phase)
        assert "HARD CONSTRAINTS (limits, not preferences" in phase_kickoff(s).text
        assert "- budget under 50k" in phase_kickoff(s).text


def test_the_validate_brief_casts_the_model_as_an_independent_verifier() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.VALIDATE)
    assert "independent verifier" in phase_kickoff(s).text


def test_every_claim_decision_says_the_person_decided_and_names_the_claim_by_id() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.CRYSTALLIZE)
    s.knowledge_graph_nodes = [
        _claim(1, "Pooling triage queues cuts waits", status=ClaimStatus.VALIDATED),
        _claim(2, "Night shifts cause waits", status=ClaimStatus.SUPERSEDED, rejection_reason="merged into: x"),
    ]
    lines = reviewer_decided(s).splitlines()[1:]
    assert lines == [
        f"- The person accepted claim {UUID(int=1)} “Pooling triage queues cuts waits”.",
        f"- The person merged claim {UUID(int=2)} “Night shifts cause waits” (merged into: x).",
    ]


def test_an_insight_the_person_added_carries_its_id_and_what_each_phase_does_with_it() -> None:
    s = ForgeState(problem=PROBLEM)
    insight = _claim(5, "Most walk-ins at night are minor cases", claim_type=ClaimType.USER_CONTRIBUTED)
    s.knowledge_graph_nodes = [replace(insight, status=ClaimStatus.VALIDATED)]
    said = f"- The person added an insight, claim {UUID(int=5)} “Most walk-ins at night are minor cases” — "
    s.enter_phase(Phase.SYNTHESIZE)
    assert said + "build on it (its id in builds_on_claim_id)" in reviewer_decided(s)
    s.enter_phase(Phase.VALIDATE)
    assert said + "test every claim against it" in reviewer_decided(s)
    s.enter_phase(Phase.BUILD)
    assert said + "link it in the graph" in reviewer_decided(s)
    assert "The person accepted" not in reviewer_decided(s)  # an insight is not a verdict


def test_claim_feedback_asks_for_revise_claim_in_validate_and_shows_the_answer_after() -> None:
    s = ForgeState(problem=PROBLEM)
    s.current_round_claims = [_claim(1, "A"), _claim(2, "Pooling cuts waits", user_feedback="Which wards?")]
    s.enter_phase(Phase.VALIDATE)
    assert (
        f"- The person's feedback on claim {UUID(int=2)} “Pooling cuts waits”: “Which wards?” — act on it first: "
        "revise_claim with claim_index 1, before testing the claim." in reviewer_decided(s)
    )
    s.current_round_claims[1] = replace(
        s.current_round_claims[1], text="Pooling ED wards cuts waits", revised_from="Pooling cuts waits",
        feedback_response="Named the emergency wards.",
    )  # fmt: skip
    s.enter_phase(Phase.BUILD)
    assert "“Which wards?” — revised: Named the emergency wards." in reviewer_decided(s)


def test_a_claim_the_person_kept_although_verify_failed_it_says_so_on_record() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.CRYSTALLIZE)
    s.knowledge_graph_nodes = [
        _claim(1, "Pooling triage queues cuts waits", status=ClaimStatus.VALIDATED),
        _claim(2, "Night shifts cause waits", status=ClaimStatus.QUALIFIED, qualification="in winter"),
        _claim(3, "Fast track for minor injuries", status=ClaimStatus.VALIDATED),
    ]
    s.verifications = {
        ClaimId(UUID(int=1)): _verdict(1, VerifyStatus.FAILED, 4.2),
        ClaimId(UUID(int=2)): _verdict(2, VerifyStatus.FAILED, 5.1),
        ClaimId(UUID(int=3)): _verdict(3, VerifyStatus.PASSED, 7.3),
    }
    lines = reviewer_decided(s).splitlines()[1:]
    assert lines[0] == (
        f"- The person accepted claim {UUID(int=1)} “Pooling triage queues cuts waits”. The person kept it although "
        "VERIFY failed it (final 4.2 below 6.0): say so wherever it is used."
    )
    assert lines[1].endswith(
        "The person kept it although VERIFY failed it (final 5.1 below 6.0): say so wherever it is used."
    )
    assert lines[2] == f"- The person accepted claim {UUID(int=3)} “Fast track for minor injuries”."


def _verdict(n: int, status: VerifyStatus, final: float) -> ClaimVerification:
    return ClaimVerification(
        ClaimId(UUID(int=n)), "verifier", status, final, None, None, 0.9, 0.9, None, True, (), 3, (), ""
    )
