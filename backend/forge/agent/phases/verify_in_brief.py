"""What VALIDATE's brief carries of the engine: VERIFY's verdict per claim and the red team's
challenges, so the agent's falsification, novelty checks and scores engage with them.

Invariants:
    - Built from the state alone: `ForgeState.verifications` (VERIFY runs when VALIDATE opens,
      before the brief is sent: `phase_briefs.refreshed_conversation`) and the supervisor's open
      RED_TEAM_CHALLENGE findings and INJECT_CHALLENGE directives.
    - A claim without a verdict (no verifier configured) has no `verify` entry; the agent's own
      scoring then stands alone, and the brief says nothing about VERIFY.
    - The verdict is compact (scores rounded to 0.1, prior art as references, at most 3): it is
      read by a model in every request of the phase.
"""

from __future__ import annotations

from typing import Any

from forge.core.saga.records import DirectiveKind, FindingKind
from forge.core.session.forge_state import ForgeState
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import FINAL_PASS_THRESHOLD

PRIOR_ART_SHOWN = 3


def verify_verdict_view(v: ClaimVerification) -> dict[str, Any]:
    """One claim's VERIFY verdict as the agent reads it."""
    view: dict[str, Any] = {
        "status": v.status.value,
        "final_score": round(v.final_score, 1),
        "pass_threshold": FINAL_PASS_THRESHOLD,
        "confidence": round(v.confidence, 2),
        "position_consistent": v.position_consistent,
    }
    if v.logic is not None:
        view["logic"] = {
            "analogy_validity": round(v.logic.analogy_validity, 1),
            "internal_consistency": round(v.logic.internal_consistency, 1),
            "causal_rigor": round(v.logic.causal_rigor, 1),
            "passed": v.logic.passed,
        }
    if v.novelty is not None:
        prior_art = [e.reference for e in v.novelty.evidence if e.reference][:PRIOR_ART_SHOWN]
        view["novelty"] = {
            "score": round(v.novelty.adjusted, 1),
            "prior_art_similarity": round(v.novelty.prior_art, 2),
            "prior_art": prior_art or [s.title or s.source for s in v.sources][:PRIOR_ART_SHOWN],
        }
        if v.novelty.unverified:  # nothing related was found: the score is capped, not a finding of novelty
            view["novelty"]["unverified"] = True
    if v.injection:
        view["injection_flagged"] = True
    if v.rationale:
        view["rationale"] = v.rationale
    if v.note:
        view["note"] = v.note
    return view


def verify_verdicts(state: ForgeState) -> dict[str, dict[str, Any]]:
    """The round's verdicts by claim id (only claims VERIFY judged)."""
    return {
        str(c.id): verify_verdict_view(v)
        for c in state.current_round_claims
        if (v := state.verifications.get(c.id)) is not None
    }


def red_team_challenges(state: ForgeState) -> list[dict[str, Any]]:
    """The red team's failed challenges the person did not dismiss, and the challenges the
    supervisor asked to be put to the candidates, each with the ids it targets."""
    sup = state.supervision
    if sup is None:
        return []
    failed = [
        {
            "from": f"{f.checkpoint.value} red team",
            "targets": list(f.finding.hypothesis_ids),
            "challenge": f.finding.message,
        }
        for f in sup.findings
        if f.finding.kind is FindingKind.RED_TEAM_CHALLENGE and not f.dismissed
    ]
    asked = [
        {"from": "supervisor", "targets": list(d.hypothesis_ids), "challenge": d.challenge}
        for d in sup.directives
        if d.kind is DirectiveKind.INJECT_CHALLENGE and d.challenge
    ]
    return failed + asked
