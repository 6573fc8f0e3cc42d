"""Stage 8, the AnswerPack builder: a pure assembly of the session's record and Solve's result.

Invariants:
    - Pure: `build_answer_pack(AnswerInputs)` is a function of its inputs.
    - Key evidence comes only from evidence already in the state (graph claims that stand, then the
      state of the art), each item traced to its claim and to the research query or the person's
      document that returned it; a claim without evidence is listed as a validated claim, no source.
    - The ranking holds at most RANKING_SIZE hypotheses VERIFY passed, best composite score first
      (`core.answer.ranking`); the checked candidates that did not pass are `unranked` with their
      real status. The scores are the rule-layer proxies (`hypothesis_scores`).
    - A compliance VIOLATION after the revisions withholds the solution: the direct answer says which
      hard constraint cannot be met and what relaxing it would allow (`core.answer.withheld`).
    - The phrases the builder writes (traces, boundaries, the state-of-the-art line) are in the
      problem's language (`answer_words_for`); English is the default of the helpers.
    - Supervisor findings enter only through `supervisor_findings` / `with_supervisor_findings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from forge.core.answer.pack import (
    AnswerPack,
    AnswerRisk,
    EvidenceItem,
    Methodology,
    SolveSummary,
    SpendLine,
    TalkerAnswer,
)
from forge.core.answer.ranking import UNVERIFIED, rank_verified, ranking_candidates
from forge.core.answer.withheld import cannot_be_met, withheld_direct_answer
from forge.core.answer.words import ENGLISH_ANSWER_WORDS, AnswerWords, answer_words_for
from forge.core.domain_types import ClaimStatus, Contributor, EvidenceType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.judged_scores import describe_sources, model_scores
from forge.core.hypotheses.pool import Hypothesis
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim
from forge.core.session.spend import total_spend
from forge.core.solve.compliance_audit import ComplianceResult
from forge.core.solve.loop import Risk, RiskSeverity
from forge.core.verify.claim_verification import ClaimVerification

MAX_EVIDENCE = 8


@dataclass(frozen=True, slots=True)
class AnswerInputs:
    state: ForgeState
    hypotheses: Sequence[Hypothesis]
    answer: TalkerAnswer
    risks: Sequence[Risk]
    compliance: ComplianceResult
    solve: SolveSummary
    model_label: str
    offline: bool
    verifications: Mapping[str, ClaimVerification] | None = None  # hypothesis id -> VERIFY's verdict
    supervisor_findings: Sequence[str] = ()
    verifier_label: str | None = None  # the verifier role's model (None: no verifier ran)


def answer_title(problem: str, frame: ProblemFrame | None, fallback: str = "Answer") -> str:
    """The frame's objective, else the problem's first line (a question keeps its mark)."""
    if frame is not None and frame.objective:
        return frame.objective.rstrip(".")
    first = next((line.strip() for line in problem.splitlines() if line.strip()), "")
    return first.rstrip(".") or fallback


def kept_claims(state: ForgeState) -> list[Claim]:
    """The graph's claims that stand (not rejected, not superseded), strongest mean score first."""
    standing = [
        c for c in state.knowledge_graph_nodes if c.status not in (ClaimStatus.REJECTED, ClaimStatus.SUPERSEDED)
    ]
    return sorted(standing, key=lambda c: -(c.scores.mean if c.scores else 0.0))


def key_evidence(state: ForgeState, words: AnswerWords = ENGLISH_ANSWER_WORDS) -> tuple[EvidenceItem, ...]:
    items: list[EvidenceItem] = []
    seen: set[tuple[str, str]] = set()
    for claim in kept_claims(state):
        traced = [e for e in claim.evidence if e.evidence_type is not EvidenceType.CONTEXTUAL]
        pool = claim.hypothesis_ids
        verdict = state.verifications.get(claim.id)
        status = verdict.status.value if verdict is not None else UNVERIFIED
        if not traced:
            items.append(
                EvidenceItem(
                    claim.text, str(claim.id), None, "", "", "validated_claim", words.validated_claim, pool, status
                )
            )
        for e in traced:
            if (str(claim.id), e.source) in seen:
                continue
            seen.add((str(claim.id), e.source))
            trace = words.trace_user if e.contributed_by is Contributor.USER else _query_trace(e.query, words)
            items.append(
                EvidenceItem(
                    claim.text, str(claim.id), e.source, e.title, e.summary, e.evidence_type.value, trace, pool, status
                )
            )
    if state.state_of_art is not None:
        statement = words.state_of_the_art.format(summary=_first_sentence(state.state_of_art.summary))
        for e in state.state_of_art.evidence[:2]:
            items.append(
                EvidenceItem(statement, None, e.source, e.title, e.summary, "contextual", _query_trace(e.query, words))
            )
    return tuple(items[:MAX_EVIDENCE])


def _first_sentence(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    sentence = flat if end == -1 else flat[: end + 1]
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"


def _query_trace(query: str | None, words: AnswerWords) -> str:
    return words.trace_query.format(query=query) if query else words.trace_research


def boundaries(state: ForgeState, words: AnswerWords = ENGLISH_ANSWER_WORDS) -> tuple[str, ...]:
    kept = kept_claims(state)
    found = [words.qualified.format(claim=c.text, qualification=c.qualification) for c in kept if c.qualification]
    found += [
        words.stop_if.format(condition=c.falsifiability_condition) for c in kept[:3] if c.falsifiability_condition
    ]
    found += [words.ruled_out.format(claim=n.claim_text, reason=n.reason) for n in state.negative_knowledge]
    return tuple(found)


def verifier_line(generator: str, verifier: str | None) -> str:
    """Whether an independent model judged the generator's work (seed 000 §4.3.1)."""
    if verifier is None:
        return "Verifier: none ran; hypotheses were scored without one."
    if verifier == generator:
        return (
            f"Verifier: the generator itself ({generator}): scores and verdicts come from the model that "
            "proposed the ideas, so no cross-model check of its preferences was possible."
        )
    return (
        f"Verifier: {verifier}, another model than the generator ({generator}); the supervisor compares "
        "their scores (preference-gaming check)."
    )


def methodology(
    state: ForgeState, model_label: str, supervisor_findings: Sequence[str], verifier_label: str | None = None
) -> Methodology:
    domains = tuple(d.domain_name for d in state.biso.domains) if state.biso is not None else ()
    operators: tuple[str, ...] = ("biso",) if state.biso is not None else ()
    if state.search is not None:
        operators += tuple(op for op in state.search.operators if op not in operators)
    spend = total_spend(state.spend_by_phase)
    return Methodology(
        domains,
        operators,
        (model_label,),
        SpendLine(spend.tokens, round(spend.cost_usd, 6), spend.calls),
        state.current_round + 1,
        tuple(supervisor_findings),
        (describe_sources(state.hypothesis_scores), verifier_line(model_label, verifier_label)),
    )


def frame_or_title(state: ForgeState) -> ProblemFrame:
    """The session's frame, else one made of the problem's title (what the ranking scores against)."""
    if state.problem_frame is not None:
        return state.problem_frame.frame
    return ProblemFrame(objective=answer_title(state.problem, None), target_object="", target_outcome="")


def session_ranking_candidates(state: ForgeState, pool: Sequence[Hypothesis]) -> tuple[Hypothesis, ...]:
    """The hypotheses this session's AnswerPack would rank — by the verifier's scores where it scored,
    against the frame — the ones VERIFY checks at VALIDATE and Solve's stage 6 (one definition, so the
    checked and the ranked are the same)."""
    return ranking_candidates(pool, frame_or_title(state), judged=model_scores(state.hypothesis_scores))


def build_answer_pack(inputs: AnswerInputs) -> AnswerPack:
    state = inputs.state
    words = answer_words_for(state.problem)  # the pack's own phrases in the problem's language
    frame = state.problem_frame.frame if state.problem_frame is not None else None
    # the risks of Solve's best attempt: its high risks are by definition the unresolved ones
    risks = tuple(
        AnswerRisk(r.text, r.severity.value, r.mitigation, r.severity is RiskSeverity.HIGH) for r in inputs.risks
    )
    judged = model_scores(state.hypothesis_scores)
    ranking, unranked = rank_verified(inputs.hypotheses, frame_or_title(state), inputs.verifications or {}, judged)
    unmet = cannot_be_met(inputs.compliance, inputs.answer, words)
    return AnswerPack(
        title=answer_title(state.problem, frame),
        question=state.problem,
        direct_answer=inputs.answer.direct_answer if unmet is None else withheld_direct_answer(unmet, words),
        solution_markdown=inputs.answer.solution_markdown if unmet is None else words.solution_withheld,
        key_evidence=key_evidence(state, words),
        risks=risks,
        boundaries=boundaries(state, words),
        ranking=ranking,
        compliance=inputs.compliance,
        solve=inputs.solve,
        methodology=methodology(state, inputs.model_label, inputs.supervisor_findings, inputs.verifier_label),
        written_by=inputs.model_label,
        offline=inputs.offline,
        cannot_be_met=unmet,
        unranked=unranked,
    )


def with_current_spend(pack: AnswerPack, state: ForgeState) -> AnswerPack:
    """The pack with the session's spend as it stands now (the document is written after Solve)."""
    spend = total_spend(state.spend_by_phase)
    line = SpendLine(spend.tokens, round(spend.cost_usd, 6), spend.calls)
    return replace(pack, methodology=replace(pack.methodology, spend=line))


def with_supervisor_findings(pack: AnswerPack, findings: Sequence[str]) -> AnswerPack:
    """The hook SAGA fills: the supervisor's findings in the methodology appendix."""
    return replace(pack, methodology=replace(pack.methodology, supervisor_findings=tuple(findings)))
