"""The offline verifier: VERIFY's scores from inspectable rules over shipped knowledge and evidence.

Invariants: deterministic and order-invariant (forward and reversed samples agree); one answer per item
of a batch, by its id. Sample k reads one evidence view: 0 the claim's evidence, 1 the person's documents
and the problem, 2 the shipped record of its source domain; views that disagree spread the scores. Scores:
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
from forge.engine.verify import requests as rq
from forge.engine.verify import research_relevance as rr
from forge.offline.explore.source_domain_library import distance_of, find_domain
from forge.offline.frame.problem_frame import frame_problem
from forge.offline.offline_structured_model import offline_context
from forge.offline.phases.plan_validate import DISTANCE_SCORE, NO_DISTANCE, falsifiability_score
from forge.ports import StructuredRequest

LABEL = "Offline verifier (deterministic rules over shipped knowledge and session evidence, not a language model)"
VIEWS = ("the evidence the claim cites", "the person's documents and the problem", "the shipped source-domain record")


def offline_verifier(domains: Sequence[SourceDomain]) -> Callable[[StructuredRequest[Any]], rq.VerifyScoresOutput]:
    def generate(request: StructuredRequest[Any]) -> rq.VerifyScoresOutput:
        batch = offline_context(request, rq.SampleBatch)
        return rq.VerifyScoresOutput(items=[score_sample(batch, m, domains) for m in batch.items])

    return generate


def offline_prior_art(request: StructuredRequest[Any]) -> rq.PriorArtOutput:
    return rq.PriorArtOutput(items=[_prior_art(c) for c in offline_context(request, rq.PriorArtBatch).items])


def offline_research_relevance(request: StructuredRequest[Any]) -> rr.ResearchRelevanceOutput:
    """The stand-in's word rule as a judgment: a result sharing two of the claim's terms is about it."""
    context = offline_context(request, rr.RelevanceContext)
    said = [(n, is_relevant(f"{h.title} {h.snippet}", context.subject)) for n, h in enumerate(context.offered, 1)]
    reason = {True: f"{LABEL}: shares at least two of the claim's terms.", False: f"{LABEL}: shares fewer."}
    return rr.ResearchRelevanceOutput(
        results=[rr.ResultRelevance(result=n, reason=reason[about], about_subject=about) for n, about in said]
    )


def _prior_art(context: rq.PriorArtContext) -> rq.PriorArtJudgement:
    kinds = []
    for result in context.results:
        scored = [(coverage(f"{h.title} {h.snippet}", context.claim.text), n) for n, h in enumerate(result.hits, 1)]
        similarity, closest = max(scored, default=(0.0, 0))
        kinds.append(
            rq.PriorArtItem(
                kind=result.kind, closest_result=closest * bool(similarity), similarity=round(similarity, 3)
            )
        )
    rationale = f"{LABEL}: similarity = share of the claim's terms a result states."
    return rq.PriorArtJudgement(item_id=context.item_id, rationale=rationale, kinds=kinds)


def score_sample(
    batch: rq.SampleBatch, item: rq.VerifyMaterial, domains: Sequence[SourceDomain]
) -> rq.VerifyItemScores:
    claim = item.claim
    domain = find_domain(domains, claim.cross_domain_source or "")
    view = batch.sample % len(VIEWS)
    texts = _view_texts(batch, claim, domain, view)
    relevant = sum(1 for text in texts if is_relevant(text, claim.text))
    closest = max((coverage(text, claim.text) for text in texts), default=0.0)
    distance = (
        DISTANCE_SCORE.get(distance_of(domain, frame_problem(batch.problem)).value, NO_DISTANCE)
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
    return rq.VerifyItemScores(
        item_id=item.item_id,
        analogy_validity=round(analogy, 2),
        internal_consistency=round(consistency, 2),
        causal_rigor=round(rigor, 2),
        novelty=round(min(10.0, novelty), 2),
        rationale=rationale,
    )


def _view_texts(batch: rq.SampleBatch, claim: Claim, domain: SourceDomain | None, view: int) -> list[str]:
    if view == 0:
        return [f"{e.title} {e.summary}" for e in claim.evidence]
    if view == 1:
        return [batch.problem, *(f"{d.title} {d.snippet}" for d in batch.documents)]
    return [domain.text] if domain else []


def _consistency(claim: Claim) -> float:
    checks = [
        coverage(claim.text, claim.thesis_text) if claim.thesis_text else 0.0,
        1.0 if len(shared_keys(claim.falsifiability_condition, claim.text)) >= 2 else 0.0,
        1.0 if claim.antithesis_text.strip() else 0.0,
    ]
    return sum(checks) / len(checks)
