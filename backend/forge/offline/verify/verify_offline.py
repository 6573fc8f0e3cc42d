"""The offline verifier: VERIFY's scores from inspectable rules over shipped knowledge and evidence.

Invariants: deterministic and order-invariant (forward and reversed samples agree). Sample k reads
one evidence view: 0 the claim's evidence, 1 the person's documents and the problem, 2 the shipped
record of its source domain; views that disagree spread the scores. Scores (0-10):
    analogy_validity = 3 + 4 x (domain shipped) + 3 x min(1, relevant view texts / 2)
    internal_consistency = 10 x mean(claim covers thesis, condition shares >= 2 terms, antithesis)
    causal_rigor = 5 each: a number (threshold) and a time frame in the falsifiability condition
    novelty = 10 x (0.5 x domain distance + 0.5 x (1 - closest coverage))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from forge.core.explore.library_records import SourceDomain
from forge.core.research.text_relevance import coverage, is_relevant, shared_keys
from forge.core.session.records import Claim
from forge.engine.verify.requests import (
    PriorArtContext,
    PriorArtItem,
    PriorArtOutput,
    SampleContext,
    VerifyScoresOutput,
)
from forge.offline.explore.source_domain_library import distance_of, find_domain
from forge.offline.frame.problem_frame import frame_problem
from forge.offline.offline_structured_model import offline_context
from forge.offline.phases.plan_validate import DISTANCE_SCORE, NO_DISTANCE, falsifiability_score
from forge.ports import StructuredRequest

LABEL = "Offline verifier (deterministic rules over shipped knowledge and session evidence, not a language model)"
VIEWS = ("the evidence the claim cites", "the person's documents and the problem", "the shipped source-domain record")


def offline_verifier(domains: Sequence[SourceDomain]) -> Callable[[StructuredRequest[Any]], VerifyScoresOutput]:
    def generate(request: StructuredRequest[Any]) -> VerifyScoresOutput:
        return score_sample(offline_context(request, SampleContext), domains)

    return generate


def offline_prior_art(request: StructuredRequest[Any]) -> PriorArtOutput:
    context = offline_context(request, PriorArtContext)
    items = []
    for result in context.results:
        scored = [(coverage(f"{h.title} {h.snippet}", context.claim.text), n) for n, h in enumerate(result.hits, 1)]
        similarity, closest = max(scored, default=(0.0, 0))
        items.append(
            PriorArtItem(kind=result.kind, closest_result=closest if similarity else 0, similarity=round(similarity, 3))
        )
    return PriorArtOutput(items=items, rationale=f"{LABEL}: similarity = share of the claim's terms a result states.")


def score_sample(context: SampleContext, domains: Sequence[SourceDomain]) -> VerifyScoresOutput:
    claim = context.material.claim
    domain = find_domain(domains, claim.cross_domain_source or "")
    view = context.sample % len(VIEWS)
    texts = _view_texts(context, domain, view)
    relevant = sum(1 for text in texts if is_relevant(text, claim.text))
    closest = max((coverage(text, claim.text) for text in texts), default=0.0)
    distance = (
        DISTANCE_SCORE.get(distance_of(domain, frame_problem(context.problem)).value, NO_DISTANCE)
        if domain
        else NO_DISTANCE
    )
    analogy = 3.0 + 4.0 * (domain is not None) + 3.0 * min(1.0, relevant / 2)
    consistency = 10.0 * _consistency(claim)
    rigor = 10.0 * falsifiability_score(claim.falsifiability_condition)
    novelty = 10.0 * (0.5 * distance + 0.5 * (1.0 - closest))
    rationale = (
        f"{LABEL}; view {view + 1} of {len(VIEWS)}: {VIEWS[view]} ({len(texts)} texts, {relevant} relevant, closest "
        f"covers {closest:.0%} of the claim's terms). Source domain {'in' if domain else 'not in'} the shipped library. "
        "Reads order-invariantly, so forward and reversed order agree."
    )
    return VerifyScoresOutput(
        analogy_validity=round(analogy, 2),
        internal_consistency=round(consistency, 2),
        causal_rigor=round(rigor, 2),
        novelty=round(min(10.0, novelty), 2),
        rationale=rationale,
    )


def _view_texts(context: SampleContext, domain: SourceDomain | None, view: int) -> list[str]:
    if view == 0:
        return [f"{e.title} {e.summary}" for e in context.material.claim.evidence]
    if view == 1:
        return [context.problem, *(f"{d.title} {d.snippet}" for d in context.documents)]
    return [domain.text] if domain else []


def _consistency(claim: Claim) -> float:
    checks = [
        coverage(claim.text, claim.thesis_text) if claim.thesis_text else 0.0,
        1.0 if len(shared_keys(claim.falsifiability_condition, claim.text)) >= 2 else 0.0,
        1.0 if claim.antithesis_text.strip() else 0.0,
    ]
    return sum(checks) / len(checks)
