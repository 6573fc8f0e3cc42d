"""VERIFY (seed 000 §4.3) over a round's claims, by the verifier role: k independent scoring samples
plus one in reversed order per claim, three prior-art searches for claims whose preliminary novelty
reaches 6, a prior-art judgement, then the pure verdict (`core.claim_verification`).

Invariants:
    - Every text that reaches the verifier is scanned for prompt injection first (problem, claim
      parts, evidence, the person's insights and documents, research results); a finding flags the
      claim (its verdict is ESCALATED) and a flagged research result is not shown to the verifier.
    - Each sample (k forward, one reversed) and the prior-art judgement is one call per group of up
      to `VERIFY_BATCH` items, read by item id, with an item a valid answer left out asked once
      more alone (`item_answers.ask_items`); the calls fan out through `run_structured_batch`.
    - Items are claims (`claim-<n>`) or pool hypotheses (their id), and one run may hold both (the
      round's claims and the AnswerPack's ranking candidates at VALIDATE): everything is kept per
      item, never by index; `split_run` parts the verdicts, research and calls again.
    - A failed call, or a claim still unanswered after its repair, costs that sample for those
      claims, never the stage: fewer than k valid samples make the verdict ABSTAINED. No score is
      invented for a claim the verifier did not judge.
    - A research provider that raises is reported as a warning and its query counts as "nothing
      found"; it never stops the stage. Every verdict lists its prior-art searches (query, provider,
      web or local corpus, result count), so it says what was searched.
    - Research results become Evidence with source, title, snippet, query and retrieval time, and
      the run returns their ResearchRecords so the session's provenance knows them.
    - If the prior-art judgement fails (or leaves the claim out, even alone), the share of the
      claim's terms each result covers stands in for it (`core.text_relevance.coverage`), and the
      verdict's note says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from forge.core.document.problem_language import problem_language
from forge.core.domain_types import Contributor, EngineStage, EvidenceId, EvidenceType, Phase, SessionId
from forge.core.llm.messages import Usage
from forge.core.research.results import answered_by, research_warning_of
from forge.core.research.text_relevance import coverage
from forge.core.research.text_terms import salient_terms
from forge.core.session.records import Evidence, ResearchHit, ResearchRecord, SessionDocument
from forge.core.verify.claim_verification import ClaimVerification, VerifyInputs, compose_verification
from forge.core.verify.injection_scan import InjectionFinding, scan_for_injection
from forge.core.verify.prior_art_search import PriorArtSearch, scope_of
from forge.core.verify.verdicts import (
    K_SAMPLES,
    NOVELTY_SEARCH_THRESHOLD,
    LogicVerdict,
    NoveltyEvidence,
    PositionCheck,
    QueryKind,
    VerifySample,
    final_score,
)
from forge.engine.item_answers import UNANSWERED, ItemAnswers, ItemCall, ask_items, even_groups
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink
from forge.engine.verify.requests import (
    VERIFY_BATCH,
    KindResults,
    PriorArtBatch,
    PriorArtContext,
    PriorArtJudgement,
    PriorArtOutput,
    SampleBatch,
    VerifyItemScores,
    VerifyMaterial,
    VerifyScoresOutput,
    prior_art_request,
    sample_request,
)
from forge.ports import Clock, ResearchProvider, StructuredModel

STAGE = EngineStage.VERIFY
RESULTS_PER_QUERY = 3


@dataclass(frozen=True, slots=True)
class VerifySetting:
    """Where the verifier works: the session, its shared texts and the services it calls."""

    session_id: SessionId
    problem: str
    round: int
    research: ResearchProvider
    clock: Clock
    new_id: Callable[[], UUID]
    documents: tuple[SessionDocument, ...] = ()
    insights: tuple[str, ...] = ()
    k: int = K_SAMPLES
    concurrency: int = DEFAULT_CONCURRENCY


@dataclass(frozen=True, slots=True)
class VerifyRun:
    verifications: tuple[ClaimVerification, ...]  # one per material, in the materials' order
    research: tuple[ResearchRecord, ...]  # in the materials' order, one per prior-art search each verdict lists
    warnings: tuple[str, ...]
    usage: Usage
    calls: int
    asked: tuple[tuple[str, ...], ...] = ()  # the item ids each call asked about
    items: tuple[str, ...] = ()  # the item id of each verification


def split_run(run: VerifyRun, count: int) -> tuple[VerifyRun, VerifyRun]:
    """The first `count` items' part of a run and the rest's (the round's claims and the ranking
    candidates verified in one pass): each keeps its verdicts, its own prior-art research and the
    calls that asked about one of its items (a call shared by both counts in both). The usage stays
    with the first part, the warnings with both."""
    searched = sum(len(v.prior_art_searches) for v in run.verifications[:count])

    def part(items: slice, research: slice, usage: Usage) -> VerifyRun:
        ids = set(run.items[items])
        asked = tuple(call for call in run.asked if ids.intersection(call))
        verdicts = run.verifications[items]
        return VerifyRun(verdicts, run.research[research], run.warnings, usage, len(asked), asked, run.items[items])

    first = part(slice(None, count), slice(None, searched), run.usage)
    return first, part(slice(count, None), slice(searched, None), Usage())


@dataclass
class _Claim:
    material: VerifyMaterial
    findings: list[InjectionFinding]
    samples: list[VerifySampleWithText]
    reversed_score: float | None = None
    results: tuple[KindResults, ...] = ()
    evidence: tuple[NoveltyEvidence, ...] = ()
    notes: list[str] | None = None
    searches: tuple[PriorArtSearch, ...] = ()


@dataclass(frozen=True, slots=True)
class VerifySampleWithText:
    sample: VerifySample
    output: VerifyItemScores


async def run_verify(
    model: StructuredModel,
    materials: Sequence[VerifyMaterial],
    setting: VerifySetting,
    progress: ProgressSink | None = None,
) -> VerifyRun:
    shared = shared_texts(setting)
    claims = [_Claim(m, list(scan_for_injection({**shared, **material_texts(m)})), [], notes=[]) for m in materials]
    usage, asked = await _score(model, claims, setting, progress)
    records, warnings = await _search_prior_art(claims, setting)
    more_usage, more_asked = await _judge_prior_art(model, claims, setting, progress)
    verifications = tuple(_compose(c, model.label, setting, records) for c in claims)
    calls = (*asked, *more_asked)
    items = tuple(m.item_id for m in materials)
    return VerifyRun(verifications, tuple(records), tuple(warnings), usage + more_usage, len(calls), calls, items)


def shared_texts(setting: VerifySetting) -> dict[str, str]:
    texts = {"problem": setting.problem}
    texts.update({f"insight:{n}": text for n, text in enumerate(setting.insights, start=1)})
    texts.update({f"document:{d.source}": f"{d.title}\n{d.text}" for d in setting.documents})
    return texts


def material_texts(material: VerifyMaterial) -> dict[str, str]:
    return {f"claim {material.claim_index + 1} {label}": text for label, text in material.parts}


def _groups(ids: Sequence[str]) -> list[tuple[str, ...]]:
    return even_groups(ids, VERIFY_BATCH)


async def _score(
    model: StructuredModel, claims: list[_Claim], setting: VerifySetting, progress: ProgressSink | None
) -> tuple[Usage, list[tuple[str, ...]]]:
    """Sample n (0..k-1 forward, k reversed) is one call per group of up to VERIFY_BATCH claims."""
    documents = tuple(ResearchHit(d.source, d.title, d.text) for d in setting.documents)
    by_id = {c.material.item_id: c for c in claims}

    def call(sample: int, ids: tuple[str, ...]) -> ItemCall:
        batch = SampleBatch(
            setting.problem, tuple(by_id[i].material for i in ids), sample, sample == setting.k, documents
        )
        return ItemCall(sample, ids, sample_request(batch))

    calls = [call(n, ids) for n in range(setting.k + 1) for ids in _groups(list(by_id))]
    got: ItemAnswers[VerifyItemScores] = await ask_items(
        model, calls, _read_scores, lambda n, item: call(n, (item,)),
        stage=STAGE, concurrency=setting.concurrency, progress=progress,
    )  # fmt: skip
    for claim in claims:  # a repeated item id (the same hypothesis twice) reads the same answers
        key = claim.material.item_id
        forward = [got.answers[(n, key)] for n in range(setting.k) if (n, key) in got.answers]
        claim.samples = [VerifySampleWithText(_sample(v), v) for v in forward]
        last = got.answers.get((setting.k, key))
        if last is not None:
            claim.reversed_score = _final(_sample(last))
        elif claim.notes is not None:
            reason = got.failures.get((setting.k, key), UNANSWERED)
            claim.notes.append(f"The reversed-order sample failed ({reason}): no position check.")
    return got.usage, got.asked


def _read_scores(output: VerifyScoresOutput) -> list[tuple[str, VerifyItemScores]]:
    return [(item.item_id, item) for item in output.items]


def _sample(output: VerifyItemScores) -> VerifySample:
    logic = LogicVerdict(output.analogy_validity, output.internal_consistency, output.causal_rigor)
    return VerifySample(logic, output.novelty)


def _final(sample: VerifySample) -> float:
    return final_score(sample.logic, sample.novelty)


def _searching(claim: _Claim, k: int) -> bool:
    if len(claim.samples) < k:
        return False
    return sum(s.sample.novelty for s in claim.samples) / len(claim.samples) >= NOVELTY_SEARCH_THRESHOLD


def prior_art_queries(claim: _Claim) -> dict[QueryKind, str]:
    """Sample 0's queries (the only sample asked for them; a searched claim has all k samples, so it is
    `samples[0]`); a blank one is made from the claim's salient terms."""
    first = claim.samples[0].output
    terms = " ".join(salient_terms(claim.material.claim.text, 6))
    source = claim.material.claim.cross_domain_source or ""
    written = {
        QueryKind.CONCEPT: first.concept_query,
        QueryKind.IMPLEMENTATION: first.implementation_query,
        QueryKind.CROSS_DOMAIN: first.cross_domain_query,
    }
    fallback = {
        QueryKind.CONCEPT: terms,
        QueryKind.IMPLEMENTATION: f"{terms} study trial",
        QueryKind.CROSS_DOMAIN: f"{source} {' '.join(salient_terms(claim.material.claim.text, 3))}".strip(),
    }
    return {kind: (written[kind].strip() or fallback[kind]) for kind in QueryKind}


async def _search_prior_art(claims: list[_Claim], setting: VerifySetting) -> tuple[list[ResearchRecord], list[str]]:
    jobs = [
        (c, kind, query) for c in claims if _searching(c, setting.k) for kind, query in prior_art_queries(c).items()
    ]
    found = await asyncio.gather(*(_search(setting, query) for _, _, query in jobs))
    records: list[ResearchRecord] = []
    warnings: list[str] = []
    for (claim, kind, query), (hits, at, warning, provider) in zip(jobs, found, strict=True):
        if warning:
            warnings.append(warning)
        records.append(ResearchRecord(query, hits, Phase.VALIDATE, setting.round, at, provider))
        claim.searches += (PriorArtSearch(kind, query, provider, scope_of(provider), len(hits)),)
        flagged = scan_for_injection({f"research:{h.source}": f"{h.title}\n{h.snippet}" for h in hits})
        claim.findings.extend(flagged)
        bad = {f.source.removeprefix("research:") for f in flagged}
        # by the item itself: a claim and a ranking candidate verified together share index numbers
        claim.results += (KindResults(kind, query, tuple(h for h in hits if h.source not in bad)),)
    return records, warnings


async def _search(setting: VerifySetting, query: str) -> tuple[tuple[ResearchHit, ...], datetime, str, str]:
    """(hits, when, warning, the provider that answered) for one prior-art query."""
    at, name = setting.clock.now(), setting.research.name
    try:
        hits = await setting.research.search(
            query, session_id=setting.session_id, limit=RESULTS_PER_QUERY, session_documents=setting.documents
        )
    except Exception as error:  # a provider's failure is this query's "nothing found", never the stage's end
        return (
            (),
            at,
            f"Research for “{query}” failed ({type(error).__name__}: {error}); counted as nothing found.",
            name,
        )
    return tuple(hits), at, research_warning_of(hits), answered_by(hits, name)


async def _judge_prior_art(
    model: StructuredModel, claims: list[_Claim], setting: VerifySetting, progress: ProgressSink | None
) -> tuple[Usage, list[tuple[str, ...]]]:
    """One call per group of up to VERIFY_BATCH searched claims (tag 0)."""
    judged = {c.material.item_id: c for c in claims if c.results}
    contexts = {key: PriorArtContext(key, c.material.claim, c.results) for key, c in judged.items()}

    def call(ids: tuple[str, ...]) -> ItemCall:
        return ItemCall(0, ids, prior_art_request(PriorArtBatch(tuple(contexts[i] for i in ids))))

    got: ItemAnswers[PriorArtJudgement] = await ask_items(
        model, [call(ids) for ids in _groups(list(judged))], _read_prior_art, lambda _, item: call((item,)),
        stage=STAGE, concurrency=setting.concurrency, progress=progress,
    )  # fmt: skip
    for claim in (c for c in claims if c.results):
        key = claim.material.item_id
        answer = got.answers.get((0, key))
        if answer is not None:
            claim.evidence = judged_evidence(claim.results, answer)
            continue
        claim.evidence = measured_evidence(claim.material.claim.text, claim.results)
        if claim.notes is not None:
            reason = got.failures.get((0, key), UNANSWERED)
            claim.notes.append(f"The prior-art judgement failed ({reason}); term coverage stood in.")
    return got.usage, got.asked


def _read_prior_art(output: PriorArtOutput) -> list[tuple[str, PriorArtJudgement]]:
    return [(item.item_id, item) for item in output.items]


def judged_evidence(results: Sequence[KindResults], output: PriorArtJudgement) -> tuple[NoveltyEvidence, ...]:
    by_kind: Mapping[QueryKind, KindResults] = {r.kind: r for r in results}
    evidence = []
    for item in output.kinds:
        result = by_kind.get(item.kind)
        if result is None or not 1 <= item.closest_result <= len(result.hits):
            continue  # "none" or a number that names no result: nothing found for that kind
        hit = result.hits[item.closest_result - 1]
        evidence.append(NoveltyEvidence(item.kind, item.similarity, hit.source))
    return tuple(evidence)


def measured_evidence(claim_text: str, results: Sequence[KindResults]) -> tuple[NoveltyEvidence, ...]:
    evidence = []
    for result in results:
        scored = [(coverage(f"{h.title} {h.snippet}", claim_text), h) for h in result.hits]
        if scored:
            similarity, hit = max(scored, key=lambda pair: pair[0])
            evidence.append(NoveltyEvidence(result.kind, round(similarity, 3), hit.source))
    return tuple(evidence)


def _compose(
    claim: _Claim, verifier: str, setting: VerifySetting, records: Sequence[ResearchRecord]
) -> ClaimVerification:
    material = claim.material
    position = None
    if claim.samples and claim.reversed_score is not None:
        position = PositionCheck(round(_final(claim.samples[0].sample), 3), round(claim.reversed_score, 3))
    inputs = VerifyInputs(
        claim_id=material.claim.id,
        verifier=verifier,
        samples=tuple(s.sample for s in claim.samples),
        evidence=claim.evidence,
        position=position,
        injection=tuple(claim.findings),
        sources=_sources(claim, setting, records),
        rationale=claim.samples[0].output.rationale if claim.samples else "",
        notes=tuple(claim.notes or ()),
        prior_art_searches=claim.searches,
        language=problem_language(material.claim.text),
    )
    return compose_verification(inputs, setting.k)


def _sources(claim: _Claim, setting: VerifySetting, records: Sequence[ResearchRecord]) -> tuple[Evidence, ...]:
    at = {record.query: record.at for record in records}
    seen: dict[str, Evidence] = {}
    for result in claim.results:
        for hit in result.hits:
            if hit.source not in seen:
                seen[hit.source] = Evidence(
                    EvidenceId(setting.new_id()),
                    hit.source,
                    hit.title,
                    hit.snippet,
                    EvidenceType.CONTEXTUAL,
                    Contributor.AGENT,
                    result.query,
                    at.get(result.query),
                    claim.material.claim.id,
                )
    return tuple(seen.values())
