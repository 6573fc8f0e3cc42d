"""A claim's VERIFY verdict as the session keeps it (seed 000 §4.3): the verifier's samples reduced by
`verify_verdicts`, with the evidence the novelty check weighed and the injection findings.

Invariants:
    - One ClaimVerification per claim, keyed by claim id in `ForgeState.verifications`; it is made
      once, when VALIDATE opens, and never rewritten by the agent's own scoring (the four 003
      scores stay the agent's; this is the independent verifier's).
    - `status`, `final_score`, the confidences and the position flag come from `verify_verdict`
      alone; `sources` are research results (Evidence with source URL, title, snippet, query and
      retrieval time), so a breakdown never shows a source research did not return.
    - `note` says what limited the verdict (failed calls, a fallback measure, the offline
      verifier), in words a person can read; empty when nothing did.
    - `prior_art_searches` say what was searched for the novelty check (each query, the provider
      that answered and whether it searched the web or the local corpus); empty when the preliminary
      novelty was below the search threshold. The note says "Novelty unverified" when the searches
      found nothing related (`NoveltyVerdict.unverified`), in the claim's language (en/zh/ja,
      `UNVERIFIED_NOVELTY_NOTES`).

Design decisions:
    - Kept in the ForgeState rather than a table: the review payloads are built from the state
      alone, there are at most three claims a round, and the state codec round-trips it with no
      migration. Claims keep their own shape (the 003 record), so nothing else that reads claims
      changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.document.problem_language import DocumentLanguage
from forge.core.domain_types import ClaimId
from forge.core.session.records import Evidence
from forge.core.verify.injection_scan import InjectionFinding
from forge.core.verify.prior_art_search import PriorArtSearch
from forge.core.verify.verdicts import (
    K_SAMPLES,
    LogicVerdict,
    NoveltyEvidence,
    NoveltyVerdict,
    PositionCheck,
    VerifySample,
    VerifyStatus,
    verify_verdict,
)


@dataclass(frozen=True, slots=True)
class ClaimVerification:
    claim_id: ClaimId
    verifier: str  # the verifier model's label
    status: VerifyStatus
    final_score: float
    logic: LogicVerdict | None
    novelty: NoveltyVerdict | None
    variance_confidence: float
    confidence: float
    position: PositionCheck | None
    position_consistent: bool | None
    injection: tuple[InjectionFinding, ...]
    samples: int
    sources: tuple[Evidence, ...]
    rationale: str
    note: str = ""
    prior_art_searches: tuple[PriorArtSearch, ...] = ()


@dataclass(frozen=True, slots=True)
class VerifyInputs:
    """What the verifier produced for one claim, before the arithmetic."""

    claim_id: ClaimId
    verifier: str
    samples: tuple[VerifySample, ...]
    evidence: tuple[NoveltyEvidence, ...] = ()
    position: PositionCheck | None = None
    injection: tuple[InjectionFinding, ...] = ()
    sources: tuple[Evidence, ...] = ()
    rationale: str = ""
    notes: tuple[str, ...] = ()
    prior_art_searches: tuple[PriorArtSearch, ...] = ()
    language: DocumentLanguage = DocumentLanguage.EN  # the claim's: the unverified-novelty note's words


def compose_verification(inputs: VerifyInputs, k: int = K_SAMPLES) -> ClaimVerification:
    verdict = verify_verdict(inputs.samples, inputs.evidence, inputs.position, bool(inputs.injection), k)
    notes = list(inputs.notes)
    if verdict.status is VerifyStatus.ABSTAINED:
        notes.insert(0, f"Only {len(inputs.samples)} of {k} verifier samples were valid: the verifier abstains.")
    notes += _unverified_note(verdict.novelty, inputs.language)
    return ClaimVerification(
        claim_id=inputs.claim_id,
        verifier=inputs.verifier,
        status=verdict.status,
        final_score=round(verdict.final_score, 3),
        logic=verdict.logic,
        novelty=verdict.novelty,
        variance_confidence=round(verdict.variance_confidence, 4),
        confidence=round(verdict.confidence, 4),
        position=inputs.position,
        position_consistent=verdict.position_consistent,
        injection=inputs.injection,
        samples=verdict.samples,
        sources=inputs.sources,
        rationale=inputs.rationale,
        note=" ".join(notes),
        prior_art_searches=inputs.prior_art_searches,
    )


UNVERIFIED_NOVELTY_NOTES = {
    DocumentLanguage.EN: (
        "Novelty unverified: the prior-art search found nothing related, and nothing found is not novelty "
        "(novelty counted {adjusted:.1f}, its preliminary score was {preliminary:.1f})."
    ),
    DocumentLanguage.ZH: (
        "新颖性未经验证：现有技术检索未找到相关内容，而未找到并不等于新颖"
        "（新颖性按 {adjusted:.1f} 计，初步评分为 {preliminary:.1f}）。"
    ),
    DocumentLanguage.JA: (
        "新規性は未検証：先行技術の検索では関連するものが見つからず、見つからないことは新規性を意味しない"
        "（新規性は {adjusted:.1f} として計上、予備評価は {preliminary:.1f}）。"
    ),
}
"""The note on a claim whose prior-art searches found nothing related, in the claim's language (the
terms are the AnswerPack's and the SPA's: 新颖性未经验证 / 新規性は未検証)."""


def _unverified_note(novelty: NoveltyVerdict | None, language: DocumentLanguage) -> list[str]:
    if novelty is None or not novelty.unverified:
        return []
    template = UNVERIFIED_NOVELTY_NOTES[language]
    return [template.format(adjusted=novelty.adjusted, preliminary=novelty.preliminary)]


def unverified_claims(claim_ids: Sequence[ClaimId], verified: Sequence[ClaimId]) -> list[ClaimId]:
    done = set(verified)
    return [claim_id for claim_id in claim_ids if claim_id not in done]
