"""Later briefs carry only what their phase's tools and goal use (issue 42 item 5): a claim's standing in
one vocabulary (the person's verdict), each evidence source once, and BUILD sends its brief and what
followed, never the earlier conversation."""

from __future__ import annotations

import json
import re
from uuid import UUID

from forge.agent.phase_briefs import messages_to_send, phase_kickoff
from forge.agent.phases.compose_brief import BUILD_CLAIM_FIELDS, VALIDATE_CLAIM_FIELDS
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, Contributor, EvidenceId, EvidenceType, Phase
from forge.core.llm.messages import Message, Role, TextPart, user_text
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Assumption, Claim, Evidence, MorphologicalParameter

JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.S)


def evidence(n: int, source: str) -> Evidence:
    return Evidence(EvidenceId(f"e{n}"), source, "title", "summary", EvidenceType.SUPPORTING, Contributor.AGENT)


def state_in(phase: Phase, status: ClaimStatus) -> ForgeState:
    claim = Claim(
        ClaimId(UUID(int=1)),
        "Capsules seal cracks below 0.3 mm within 28 days.",
        ClaimType.SYNTHESIS,
        0,
        Phase.SYNTHESIZE,
        thesis_text="Capsules seal cracks.",
        antithesis_text="Wide cracks stay open.",
        status=status,
        falsifiability_condition="If crack width does not fall within 28 days, the claim is false.",
        evidence=(evidence(1, "corpus://a"), evidence(2, "corpus://b"), evidence(3, "corpus://a")),
        synthesized=True,
    )
    state = ForgeState(problem="How can concrete bridge decks crack less?", current_round_claims=[claim])
    state.assumptions = [Assumption("Cracks start at the surface"), Assumption("Salt is the cause", confirmed=False)]
    state.morphological_box = [MorphologicalParameter("binder", ("lime", "geopolymer"))]
    state.enter_phase(phase)
    return state


def context_of(state: ForgeState) -> dict[str, object]:
    return json.loads(JSON_BLOCK.findall(phase_kickoff(state).text)[-1])  # type: ignore[no-any-return]


def test_validate_reads_the_claim_it_tests_with_each_source_once_and_no_second_vocabulary() -> None:
    (claim,) = context_of(state_in(Phase.VALIDATE, ClaimStatus.PROPOSED))["claims"]  # type: ignore[misc]
    assert set(claim) <= set(VALIDATE_CLAIM_FIELDS)
    assert claim["evidence_sources"] == ["corpus://a", "corpus://b"]
    assert claim["antithesis"] == "Wide cracks stay open." and "falsifiability_condition" in claim
    assert "status" not in claim and "verdict" not in claim and "thesis" not in claim


def test_build_reads_verdicts_boundaries_and_standing_assumptions_only() -> None:
    context = context_of(state_in(Phase.BUILD, ClaimStatus.VALIDATED))
    (claim,) = context["claims"]  # type: ignore[misc]
    assert set(claim) <= set(BUILD_CLAIM_FIELDS)
    assert claim["verdict"] == "accepted" and "status" not in claim
    assert claim["evidence_sources"] == ["corpus://a", "corpus://b"]
    assert "falsifiability_condition" not in claim and "thesis" not in claim
    assert context["assumptions"] == ["Cracks start at the surface"]
    assert "morphological_box" not in context


def test_build_sends_its_brief_and_what_followed_never_the_earlier_conversation() -> None:
    state = state_in(Phase.BUILD, ClaimStatus.VALIDATED)
    earlier = [
        user_text("[forge phase=validate round=1]\nvalidate brief"),
        Message(Role.ASSISTANT, (TextPart("validated"),)),
    ]
    brief = phase_kickoff(state)
    assert messages_to_send(state, [*earlier, brief]) == (brief,)
