"""A pool hypothesis read as the claim it would make, so VERIFY judges the AnswerPack's ranking
candidates with the same samples, prior-art check and arithmetic as the round's claims (seed 000
§7 stage 6: only verified hypotheses rank).

Invariants:
    - Pure and deterministic: the stand-in's id is a UUID5 of the hypothesis id, so the same
      hypothesis always maps to the same id; its verdict is kept by hypothesis id
      (`ForgeState.hypothesis_verifications`), never among the claims' verdicts.
    - The parts the verifier reads map one to one: statement → claim, mechanism → thesis, failure
      modes → antithesis, observable → falsifiability condition, source domain → cross-domain source;
      the mapping table's rows are extra labelled parts (`hypothesis_parts`).
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, uuid5

from forge.core.domain_types import ClaimId, ClaimType, Phase
from forge.core.hypotheses.pool import Hypothesis
from forge.core.session.records import Claim

MAPPING_ROWS_SHOWN = 6


def hypothesis_claim(h: Hypothesis) -> Claim:
    return Claim(
        id=ClaimId(uuid5(NAMESPACE_URL, f"forge:hypothesis:{h.id}")),
        text=h.statement,
        claim_type=ClaimType.THESIS,
        round_created=h.round,
        phase_created=Phase.SYNTHESIZE,
        thesis_text=h.mechanism,
        antithesis_text="; ".join(h.failure_modes),
        falsifiability_condition=h.observable,
        hypothesis_ids=(h.id,),
        cross_domain_source=h.domain_name,
    )


def hypothesis_parts(h: Hypothesis) -> tuple[tuple[str, str], ...]:
    """The labelled parts the verifier reads, in forward order."""
    parts = [
        ("hypothesis", h.statement),
        ("mechanism", h.mechanism),
        ("failure modes", "; ".join(h.failure_modes)),
        ("observable", h.observable),
    ]
    parts += [
        (
            f"mapping row {n} ({h.domain_name})",
            f"{r.source_concept} {r.source_relation} → {r.target_concept} {r.target_relation}",
        )
        for n, r in enumerate(h.mapping.rows[:MAPPING_ROWS_SHOWN], start=1)
    ]
    return tuple((label, text) for label, text in parts if text.strip())
