"""VALIDATE reads VERIFY, through the whole exchange: VERIFY runs when VALIDATE opens, the brief the
model receives is rebuilt with each claim's verdict (status, final score against its threshold,
logic, novelty with prior art, confidence, position consistency), and the autopilot accepts by
VERIFY's final score, not by the agent's own.

The model is the offline one behind a recorder (every request kept); the engine is the offline one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from support.recorded_offline_service import RecordingModel, autopilot_until, first_brief, recorded_offline_service

from forge.core.domain_types import ClaimStatus, Phase
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.verify.verdicts import FINAL_PASS_THRESHOLD
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
JSON_BLOCK = re.compile(r"```json\n(.*)\n```", re.DOTALL)


async def test_the_validate_brief_carries_verifys_verdicts_and_the_autopilot_follows_them(tmp_path: Path) -> None:
    model = RecordingModel()
    policy = AutopilotPolicy(accept_threshold=0.0)  # the agent's own scores would accept every claim
    async with recorded_offline_service(tmp_path, model) as container:
        service = container.service
        record = await service.create(PROBLEM)
        assert not isinstance(record, ServiceFailure)
        await service.start_run(record.id)
        state = await autopilot_until(container, record.id, Phase.BUILD, policy)
    assert state.current_phase is Phase.BUILD and state.verifications

    # SEARCH ran when SYNTHESIZE opened: the brief the model first read already offers its children.
    synthesize = json.loads(JSON_BLOCK.findall(first_brief(model, "synthesize"))[-1])
    assert synthesize["search_candidates"] and {"operator", "parents", "lineage"} <= set(
        synthesize["search_candidates"][0]
    )

    brief = first_brief(model, "validate")
    assert "VERIFY, an independent verifier, has already judged the claims" in brief
    claims = json.loads(JSON_BLOCK.findall(brief)[-1])["claims"]
    assert {c["id"] for c in claims} == {str(i) for i in state.verifications}
    for shown in claims:
        verdict = state.verifications[next(i for i in state.verifications if str(i) == shown["id"])]
        verify = shown["verify"]
        assert verify["status"] == verdict.status.value
        assert verify["final_score"] == round(verdict.final_score, 1)
        assert verify["pass_threshold"] == FINAL_PASS_THRESHOLD
        assert {"confidence", "position_consistent"} <= set(verify)
        assert verdict.logic is None or set(verify["logic"]) == {
            "analogy_validity", "internal_consistency", "causal_rigor", "passed",
        }  # fmt: skip
        assert verdict.novelty is None or "prior_art" in verify["novelty"]

    for claim in state.current_round_claims:
        verdict = state.verifications[claim.id]
        accepted = verdict.final_score >= FINAL_PASS_THRESHOLD
        assert (claim.status is ClaimStatus.VALIDATED) == accepted, (claim.status, verdict.final_score)
        if not accepted:
            assert claim.rejection_reason is not None and "VERIFY final score" in claim.rejection_reason
