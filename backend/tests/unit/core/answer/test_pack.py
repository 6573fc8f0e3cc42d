"""The AnswerPack: built from the record (evidence traced, only VERIFY-passed hypotheses ranked, the
supervisor hook), rendered to Markdown with an explicit compliance table and to JSON that the API
schema accepts, kept in the state losslessly, and opening the Knowledge Document with its direct
answer; a solution that still breaks a hard constraint is withheld, and the pack says which
constraint cannot be met and what relaxing it would allow."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID

from forge.api.schemas.answer import AnswerPackOut
from forge.core.answer.build import AnswerInputs, build_answer_pack, verifier_line, with_supervisor_findings
from forge.core.answer.pack import AnswerPack, SolveSummary, TalkerAnswer
from forge.core.answer.render import ANSWER_SECTIONS, answer_pack_json, render_answer_markdown
from forge.core.answer.words import CHINESE_ANSWER_WORDS, JAPANESE_ANSWER_WORDS
from forge.core.document.render import DocumentInput, render_knowledge_document
from forge.core.domain_types import (
    ClaimId,
    ClaimStatus,
    ClaimType,
    Contributor,
    EvidenceId,
    EvidenceType,
    Phase,
)
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.hypotheses.judged_scores import JudgedScores, ScoreSource
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary
from forge.core.selection.composite_score import ScoreVector
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ClaimScores, Evidence, NegativeKnowledge, StateOfArt
from forge.core.session.state_codec import decode_state, encode_state
from forge.core.solve.compliance_audit import ComplianceCheck, ComplianceResult, ComplianceStatus, ComplianceVerdict
from forge.core.solve.constraints import ConstraintOrigin
from forge.core.solve.loop import Convergence, Risk, RiskSeverity
from forge.core.verify.claim_verification import ClaimVerification, VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, NoveltyEvidence, QueryKind, VerifySample, VerifyStatus

AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def evidence(n: int, kind: EvidenceType, by: Contributor = Contributor.AGENT) -> Evidence:
    query = "triage research" if by is Contributor.AGENT else None
    return Evidence(EvidenceId(UUID(int=n)), f"corpus://src/{n}", f"Source {n}", "what it says", kind, by, query=query)


def claim(
    n: int, text: str, status: ClaimStatus, mean: float, *ev: Evidence, qualification: str | None = None
) -> Claim:
    return Claim(
        ClaimId(UUID(int=n)),
        text,
        ClaimType.SYNTHESIS,
        0,
        Phase.SYNTHESIZE,
        status=status,
        scores=ClaimScores(mean, mean, mean, mean),
        evidence=ev,
        qualification=qualification,
        falsifiability_condition=f"waits do not fall ({n})",
    )


def state() -> ForgeState:
    return ForgeState(
        problem="How can a hospital cut emergency wait times without more staff?",
        current_phase=Phase.CRYSTALLIZE,
        knowledge_graph_nodes=[
            claim(1, "Weaker idea", ClaimStatus.VALIDATED, 0.5),
            claim(
                2,
                "Smooth the evening peak",
                ClaimStatus.QUALIFIED,
                0.9,
                evidence(10, EvidenceType.SUPPORTING),
                evidence(11, EvidenceType.CONTEXTUAL),
                evidence(12, EvidenceType.SUPPORTING, Contributor.USER),
                qualification="only on weekdays",
            ),
            claim(3, "Rejected idea", ClaimStatus.REJECTED, 1.0, evidence(13, EvidenceType.SUPPORTING)),
        ],
        negative_knowledge=[NegativeKnowledge(ClaimId(UUID(int=3)), "Rejected idea", "no evidence", 0)],
    )


def hypothesis(n: int, observable: str) -> Hypothesis:
    rows = tuple(
        MappingRow(f"s{i}", "drives", f"t{i}", "drives", MappingType.RELATION, "g", observable) for i in range(6)
    )
    table = MappingTable(rows)
    return Hypothesis(
        HypothesisId(f"h{n}"),
        "queueing",
        "Queueing",
        "s",
        f"Hypothesis {n}",
        "A statement about waits",
        "m",
        table,
        observable,
        ("breaks at night",),
        gate_summary(table, observable),
    )


def verified(n: int, logic: float, novelty: float, prior_art: float = 0.0) -> ClaimVerification:
    sample = VerifySample(LogicVerdict(logic, logic, logic), novelty)
    evidence = (NoveltyEvidence(QueryKind.IMPLEMENTATION, prior_art, "https://prior.example"),)
    return compose_verification(VerifyInputs(ClaimId(UUID(int=100 + n)), "verifier model", (sample,) * 3, evidence))


def checks(verdict: ComplianceVerdict, relaxing: str = "") -> ComplianceResult:
    relaxing = relaxing if verdict is ComplianceVerdict.VIOLATION else ""
    rows = (ComplianceCheck("without more staff", ConstraintOrigin.USER, verdict, "step 2 hires two nurses", relaxing),)
    status = ComplianceStatus.VIOLATION if verdict is ComplianceVerdict.VIOLATION else ComplianceStatus.COMPLIANT
    return ComplianceResult(status, rows, 2)


def inputs(verdict: ComplianceVerdict = ComplianceVerdict.PASS) -> AnswerInputs:
    return AnswerInputs(
        state=state(),
        hypotheses=[hypothesis(n, "wait minutes per patient" if n % 2 else "x") for n in range(7)],
        answer=TalkerAnswer("Smooth the evening peak on weekdays.", "1. Move electives\n2. <b>Watch</b> waits"),
        risks=(Risk("labs are late", RiskSeverity.HIGH, "start labs earlier"), Risk("signs", RiskSeverity.LOW)),
        compliance=checks(verdict),
        solve=SolveSummary(Convergence.LIMITS_REACHED, 1, 2, 6, ("start labs earlier",), ()),
        model_label="offline model",
        offline=True,
    )


def pack(verdict: ComplianceVerdict = ComplianceVerdict.PASS) -> AnswerPack:
    return build_answer_pack(inputs(verdict))


def test_key_evidence_is_traced_to_standing_claims_strongest_first_and_never_rejected_ones() -> None:
    items = pack().key_evidence
    assert [(i.claim_id, i.source) for i in items] == [
        (str(UUID(int=2)), "corpus://src/10"),
        (str(UUID(int=2)), "corpus://src/12"),
        (str(UUID(int=1)), None),  # a claim without evidence is listed as a validated claim, no source
    ]
    assert [i.trace for i in items] == ["research query: triage research", "provided by the user", "validated claim"]


def test_key_evidence_names_the_pool_hypotheses_its_claim_came_from_in_markdown_and_json() -> None:
    s = state()
    s.knowledge_graph_nodes[1] = replace(s.knowledge_graph_nodes[1], hypothesis_ids=("h2", "search-7"))
    p = build_answer_pack(replace(inputs(), state=s))
    assert [(i.claim_id, i.hypothesis_ids) for i in p.key_evidence] == [
        (str(UUID(int=2)), ("h2", "search-7")),
        (str(UUID(int=2)), ("h2", "search-7")),
        (str(UUID(int=1)), ()),
    ]
    assert f"(claim `{UUID(int=2)}`) from pool hypotheses `h2`, `search-7`" in render_answer_markdown(p)
    assert AnswerPackOut.model_validate(answer_pack_json(p)).key_evidence[0].hypothesis_ids == ["h2", "search-7"]


def test_key_evidence_of_a_claim_kept_over_a_failed_verify_says_so_in_markdown_and_json() -> None:
    s = state()
    failed = replace(verified(2, 3.0, 3.0), claim_id=ClaimId(UUID(int=2)))
    s.verifications = {ClaimId(UUID(int=2)): failed}  # claim 1: never verified
    assert failed.status is VerifyStatus.FAILED
    p = build_answer_pack(replace(inputs(), state=s))
    assert [(i.claim_id, i.verify_status) for i in p.key_evidence] == [
        (str(UUID(int=2)), "failed"),
        (str(UUID(int=2)), "failed"),
        (str(UUID(int=1)), "unverified"),
    ]
    markdown = render_answer_markdown(p)
    assert markdown.count("kept by the person although VERIFY failed it") == 2
    assert AnswerPackOut.model_validate(answer_pack_json(p)).key_evidence[0].verify_status == "failed"


def test_state_of_the_art_sources_follow_with_their_first_sentence_and_query() -> None:
    s = state()
    s.state_of_art = StateOfArt(
        "Queues grow with load. Much more text follows here.", (evidence(20, EvidenceType.CONTEXTUAL),)
    )
    p = build_answer_pack(replace(inputs(), state=s))
    last = p.key_evidence[-1]
    assert (last.statement, last.claim_id, last.source) == (
        "State of the art: Queues grow with load.",
        None,
        "corpus://src/20",
    )
    assert last.trace == "research query: triage research"


def test_without_verify_no_hypothesis_ranks_and_the_top_five_candidates_say_unverified() -> None:
    p = pack()
    assert p.ranking == () and len(p.unranked) == 5
    assert {(h.verify_status, h.verify_score) for h in p.unranked} == {("unverified", None)}
    markdown = render_answer_markdown(p)
    assert "No hypothesis passed VERIFY, so none is ranked." in markdown and "VERIFY: unverified" in markdown


def test_only_hypotheses_verify_passed_rank_with_their_real_status_and_score() -> None:
    verdicts = {"h1": verified(1, 8.0, 5.0), "h3": verified(3, 7.0, 6.5, 0.1), "h5": verified(5, 4.0, 3.0)}
    p = build_answer_pack(replace(inputs(), verifications=verdicts))
    assert [(h.id, h.verify_status) for h in p.ranking] == [("h1", "passed"), ("h3", "passed")]
    assert [h.verify_score for h in p.ranking] == [6.2, round(verdicts["h3"].final_score, 2)]
    assert ("h5", "failed") in [(h.id, h.verify_status) for h in p.unranked]
    assert not {"h1", "h3"} & {h.id for h in p.unranked}
    markdown = render_answer_markdown(p)
    assert "| passed 6.2 |" in markdown and "VERIFY: failed 3.4" in markdown
    assert "Only hypotheses VERIFY passed rank" in markdown


def test_a_hypothesis_whose_prior_art_search_found_nothing_says_novelty_unverified() -> None:
    verdicts = {"h3": verified(3, 9.0, 8.0), "h1": verified(1, 9.0, 8.0, 0.1)}
    p = build_answer_pack(replace(inputs(), verifications=verdicts))
    ranked = {h.id: h for h in p.ranking}
    assert ranked["h3"].novelty_unverified and not ranked["h1"].novelty_unverified
    assert ranked["h3"].verify_score == round(0.4 * 9 + 0.6 * 5, 2)  # novelty capped at 5, not 8
    assert "(novelty unverified)" in render_answer_markdown(p)
    assert "(新颖性未经验证)" in render_answer_markdown(p, CHINESE_ANSWER_WORDS)
    assert "(新規性は未検証)" in render_answer_markdown(p, JAPANESE_ANSWER_WORDS)


def test_a_persistent_violation_is_withheld_saying_what_cannot_be_met_and_what_relaxing_would_allow() -> None:
    relaxing = "two more nurses on evening shifts would cut the peak wait by half"
    p = build_answer_pack(
        replace(inputs(ComplianceVerdict.VIOLATION), compliance=checks(ComplianceVerdict.VIOLATION, relaxing))
    )
    assert p.cannot_be_met is not None and p.cannot_be_met.revisions == 2
    (unmet,) = p.cannot_be_met.constraints
    assert (unmet.constraint, unmet.why, unmet.relaxing_allows) == (
        "without more staff",
        "step 2 hires two nurses",
        relaxing,
    )
    assert p.direct_answer.startswith("No solution meets every hard constraint")
    assert (
        f"“without more staff” cannot be met: step 2 hires two nurses. Relaxing it would allow: {relaxing}"
        in p.direct_answer
    )
    assert p.cannot_be_met.withheld_answer == "Smooth the evening peak on weekdays."
    markdown = render_answer_markdown(p)
    assert "Move electives" not in markdown and "Smooth the evening peak on weekdays." not in markdown
    assert "No solution is delivered" in markdown and "Relaxing it would allow: " + relaxing in markdown
    out = answer_pack_json(p)
    assert out["cannot_be_met"]["constraints"][0]["relaxing_allows"] == relaxing
    assert (
        out["solution_markdown"]
        == "No solution is delivered: the best one Solve reached breaks a hard constraint (see the direct answer)."
    )


def test_a_violation_without_the_auditors_relaxing_says_what_the_withheld_plan_does() -> None:
    p = pack(ComplianceVerdict.VIOLATION)
    assert p.cannot_be_met is not None
    assert (
        p.cannot_be_met.constraints[0].relaxing_allows
        == "what the withheld plan does: Smooth the evening peak on weekdays."
    )


def test_a_compliant_or_unclear_solution_is_delivered_as_the_answer() -> None:
    for verdict in (ComplianceVerdict.PASS, ComplianceVerdict.UNCLEAR):
        p = pack(verdict)
        assert p.cannot_be_met is None and p.direct_answer == "Smooth the evening peak on weekdays."


def test_risks_boundaries_and_the_supervisor_hook() -> None:
    p = pack()
    assert [(r.text, r.unresolved) for r in p.risks] == [("labs are late", True), ("signs", False)]
    assert "Smooth the evening peak — qualified: only on weekdays" in p.boundaries
    assert "Ruled out: Rejected idea (no evidence)" in p.boundaries
    assert p.methodology.supervisor_findings == ()
    filled = with_supervisor_findings(p, ["score compression on round 1"])
    assert "score compression on round 1" in render_answer_markdown(filled)


def test_a_chinese_problem_gets_its_traces_and_boundaries_in_chinese() -> None:
    s = state()
    s.problem = "医院如何在不增加人手的情况下缩短急诊等待时间？"
    s.state_of_art = StateOfArt("Queues grow with load.", (evidence(20, EvidenceType.CONTEXTUAL),))
    p = build_answer_pack(replace(inputs(), state=s))
    assert [i.trace for i in p.key_evidence] == [
        "检索查询：triage research",
        "由用户提供",
        "已验证的论断",
        "检索查询：triage research",
    ]
    assert p.key_evidence[-1].statement == "现有技术：Queues grow with load."
    assert "Smooth the evening peak — 限定条件：only on weekdays" in p.boundaries
    assert "已排除：Rejected idea（no evidence）" in p.boundaries
    assert not any(b.startswith(("Stop if", "Ruled out")) for b in p.boundaries)


def test_markdown_has_every_section_and_marks_a_violation_plainly() -> None:
    markdown = render_answer_markdown(pack(ComplianceVerdict.VIOLATION))
    assert [line[3:] for line in markdown.splitlines() if line.startswith("## ")] == list(ANSWER_SECTIONS)
    assert "| without more staff | user | ❌ VIOLATION | step 2 hires two nurses |" in markdown
    assert "No solution meets every hard constraint" in markdown
    delivered = render_answer_markdown(pack())
    assert "<b>" not in delivered and "&lt;b&gt;Watch&lt;/b&gt;" in delivered  # the model's text is escaped
    assert "✅ pass" in delivered


def test_json_is_accepted_by_the_api_schema_and_the_state_keeps_the_pack_losslessly() -> None:
    p = pack(ComplianceVerdict.VIOLATION)
    out = AnswerPackOut.model_validate(answer_pack_json(p))
    assert out.compliance.status.value == "violation" and out.solve.status.value == "limits_reached"
    assert out.model_dump(mode="json") == answer_pack_json(p)
    s = state()
    s.answer_pack = p
    assert decode_state(encode_state(s)) == s


def test_the_document_is_titled_by_the_pack_and_opens_with_its_direct_answer() -> None:
    s = state()
    s.answer_pack = pack(ComplianceVerdict.VIOLATION)
    document = render_knowledge_document(DocumentInput("sid", s, "offline model", AT))
    assert document.startswith(
        "# Knowledge Document: How can a hospital cut emergency wait times without more staff?\n"
    )
    answer_at, first_section = document.index("## Direct Answer"), document.index("## 1. Problem and Framing")
    opening = document[answer_at:first_section]
    assert answer_at < first_section and "“without more staff” cannot be met" in opening
    assert "no solution meets every hard constraint" in opening


def test_the_ranking_orders_by_the_verifiers_scores_and_the_methodology_says_who_judged() -> None:
    verdicts = {"h1": verified(1, 8.0, 5.0), "h3": verified(3, 7.0, 6.5, 0.1)}
    s = state()
    low, high = ScoreVector(1.0, 1.0, 1.0, 1.0, 1.0), ScoreVector(9.0, 9.0, 9.0, 9.0, 9.0)
    s.hypothesis_scores = {
        "h1": JudgedScores(ScoreSource.VERIFIER, "verifier-model", low),
        "h3": JudgedScores(ScoreSource.VERIFIER, "verifier-model", high),
    }
    p = build_answer_pack(replace(inputs(), state=s, verifications=verdicts, verifier_label="verifier-model"))
    assert [(h.id, h.score) for h in p.ranking] == [("h3", 9.0), ("h1", 1.0)]
    assert p.methodology.scoring == (
        "Hypothesis scores: 2 by the verifier (verifier-model).",
        verifier_line("offline model", "verifier-model"),
    )
    assert "another model than the generator (offline model)" in p.methodology.scoring[1]
    assert "Hypothesis scores: 2 by the verifier (verifier-model)." in render_answer_markdown(p)
    same = build_answer_pack(replace(inputs(), verifier_label="offline model"))
    assert "Verifier: the generator itself (offline model)" in same.methodology.scoring[1]
    assert AnswerPackOut.model_validate(answer_pack_json(same)).methodology.scoring == list(same.methodology.scoring)
