"""The person's decisions reach the model in words, and each phase's brief says what to do next."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.phases.reviewer_decisions import reviewer_decided
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, Contributor, Phase
from forge.core.forge_state import ForgeState
from forge.core.problem_constraints import join_constraints
from forge.core.records import Assumption, Claim

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
    assert "Rejected: “Night shifts cause waits” — one small clinic" in text
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
    assert f"Deep dive: this round goes deeper into claim {target.id}" in text


def test_the_first_synthesis_round_does_not_ask_for_negative_knowledge() -> None:
    s = ForgeState(problem=PROBLEM)
    s.enter_phase(Phase.SYNTHESIZE)
    assert "get_negative_knowledge" not in phase_kickoff(s).text


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
