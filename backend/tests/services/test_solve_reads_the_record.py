"""The CRYSTALLIZE stage through the whole exchange with scripted models: Solve's requests carry what
each piece of evidence says, the falsification result, VERIFY's status and the red-team failures; a
solution that still breaks a hard constraint after its revisions is withheld and the AnswerPack
(Markdown and JSON) says which constraint cannot be met and what relaxing it would allow; VERIFY
checks the ranking candidates first and only the ones it passed rank."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from pydantic import BaseModel
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phases import crystallize
from forge.agent.tool_context import ToolContext
from forge.core.answer.render import answer_pack_json, render_answer_markdown
from forge.core.domain_types import (
    ClaimId,
    ClaimStatus,
    ClaimType,
    Contributor,
    EvidenceId,
    EvidenceType,
    Phase,
    SessionId,
)
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame, audit_frame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary
from forge.core.llm.messages import Usage
from forge.core.saga.records import Checkpoint, Finding, FindingId, FindingKind, SupervisorFinding
from forge.core.saga.state import SupervisionState
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ClaimScores, Evidence
from forge.core.session.state_codec import decode_state, encode_state
from forge.core.solve.compliance_audit import ComplianceVerdict
from forge.core.verify.claim_verification import VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, VerifySample
from forge.engine.solve.requests import (
    AnalysisOutput,
    AuditOutput,
    CheckOut,
    ComplianceOutput,
    PlanOutput,
    TalkerOutput,
)
from forge.engine.verify.requests import VerifyScoresOutput
from forge.offline.offline_model import OfflineModel
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.services.stages.solve_stage import SolveStage
from forge.services.stages.verify_claims import VerifyStage

PROBLEM = "How can a hospital cut emergency wait times without more staff?\n\nConstraints:\n- without more staff"
CLAIM_ID = ClaimId(UUID(int=7))
EVIDENCE_SAYS = "Evening arrivals peak at 18:00 at twice the morning rate, in 14 emergency departments."
FALSIFICATION = "No trial was found where moving electives to mornings failed to cut evening waits."
RED_TEAM = "Counterexample: a flu surge fills the morning slots and the peak returns."
POOL_RED_TEAM = "Simplification test: the mechanism reduces to adding beds."
RELAXING = "two more evening nurses would halve the peak wait"

Answer = Callable[[StructuredRequest[Any]], BaseModel]


class Recorder:
    """A scripted structured model: one answer function per output type; every request is kept."""

    def __init__(self, label: str, answers: dict[type[BaseModel], Answer]) -> None:
        self.label = label
        self.answers = answers
        self.requests: list[StructuredRequest[Any]] = []

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        return StructuredResult(self.answers[request.output](request), Usage(input_tokens=10, output_tokens=5), 1)

    def names(self) -> list[str]:
        return [r.name for r in self.requests]


def solver(violating: bool) -> Recorder:
    verdict = ComplianceVerdict.VIOLATION if violating else ComplianceVerdict.PASS
    relaxing = RELAXING if violating else ""
    check = CheckOut(index=0, verdict=verdict, reason="step 2 hires two nurses", relaxing_would_allow=relaxing)
    return Recorder(
        "scripted solver",
        {
            AnalysisOutput: lambda r: AnalysisOutput(
                problem_analysis="Waits come from evening peaks.",
                hypothesis_assessments=[],
                evidence=[],
                cross_checks=[],
            ),
            PlanOutput: lambda r: PlanOutput(summary="Smooth the evening peak", steps=["Hire two evening nurses"]),
            AuditOutput: lambda r: AuditOutput(risks=[]),
            TalkerOutput: lambda r: TalkerOutput(
                direct_answer="Hire two evening nurses to smooth the peak.",
                solution_markdown="1. Hire two evening nurses.\n2. Move electives to mornings.",
            ),
            ComplianceOutput: lambda r: ComplianceOutput(checks=[check]),
        },
    )


def standing_claim() -> Claim:
    evidence = Evidence(
        EvidenceId(UUID(int=70)), "corpus://ed-arrivals", "ED arrival patterns", EVIDENCE_SAYS,
        EvidenceType.SUPPORTING, Contributor.AGENT, query="emergency arrivals by hour",
    )  # fmt: skip
    return Claim(
        CLAIM_ID, "Moving electives to mornings smooths the evening peak", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE,
        status=ClaimStatus.VALIDATED, scores=ClaimScores(0.8, 0.7, 0.7, 0.7), evidence=(evidence,),
        falsifiability_condition="evening waits do not fall within 4 weeks", falsification_summary=FALSIFICATION,
        hypothesis_ids=("biso-0-queueing-1",),
    )  # fmt: skip


def verdict(logic: float, novelty: float, claim_id: ClaimId = CLAIM_ID) -> Any:
    sample = VerifySample(LogicVerdict(logic, logic, logic), novelty)
    return compose_verification(VerifyInputs(claim_id, "scripted verifier", (sample,) * 3))


def red_team(n: int, target: str, message: str) -> SupervisorFinding:
    finding = Finding(FindingKind.RED_TEAM_CHALLENGE, 1.0, 0.5, (target,), message)
    return SupervisorFinding(FindingId(f"f{n}"), Checkpoint.CP6, 0, finding)


def crystallizing() -> ForgeState:
    frame = ProblemFrame("Cut emergency wait times", "ED", "shorter waits", ("without more staff",))
    supervision = SupervisionState(
        findings=(red_team(1, str(CLAIM_ID), RED_TEAM), red_team(2, "search-0-1-refine", POOL_RED_TEAM))
    )
    return ForgeState(
        problem=PROBLEM,
        current_phase=Phase.CRYSTALLIZE,
        problem_frame=audit_frame(frame),
        knowledge_graph_nodes=[standing_claim()],
        verifications={CLAIM_ID: verdict(4.0, 3.0)},
        supervision=supervision,
    )


def context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "scripted")


async def test_every_solve_request_carries_evidence_content_falsification_verify_status_and_red_team() -> None:
    model = solver(violating=False)
    state = crystallizing()
    await SolveStage(model, OfflineModel()).run(context(state), lambda progress: None)
    assert model.names() == [
        "record_reasoner_analysis",
        "record_solution_plan",
        "record_quality_audit",
        "record_solution",
        "record_compliance_audit",
    ]
    for request in model.requests[:4]:  # the compliance audit reads the solution, not the record
        body = request.input
        assert f"says: {EVIDENCE_SAYS}" in body, request.name
        assert f"Falsification result: {FALSIFICATION}" in body, request.name
        assert "[WEAKENED: see VERIFY / red team]" in body, request.name
        assert "VERIFY (scripted verifier): failed — final score 3.4 (passes at 6.0), logic failed" in body
        assert f"Red team (CP-6) challenge failed: {RED_TEAM}" in body, request.name
        assert f"- (CP-6) search-0-1-refine: {POOL_RED_TEAM}" in body, request.name
    assert "VERIFY verdict other than passed" in model.requests[2].instructions
    assert state.answer_pack is not None and state.answer_pack.cannot_be_met is None


async def test_a_persistent_violation_yields_cannot_be_met_and_what_relaxing_would_allow() -> None:
    model = solver(violating=True)
    state = crystallizing()
    events = await SolveStage(model, OfflineModel()).run(context(state), lambda progress: None)
    assert model.names().count("record_solution") == 3 and model.names().count("record_compliance_audit") == 3
    pack = state.answer_pack
    assert pack is not None and pack.cannot_be_met is not None
    assert events[-1].data["counts"]["violations"] == 1 and events[-1].data["counts"]["revisions"] == 2
    markdown = render_answer_markdown(pack)
    direct = markdown[markdown.index("## Direct answer") : markdown.index("## Solution")]
    assert "No solution meets every hard constraint: after 2 revision(s)" in direct
    assert f"“without more staff” cannot be met: step 2 hires two nurses. Relaxing it would allow: {RELAXING}" in direct
    solution = markdown[markdown.index("## Solution") : markdown.index("## Key evidence")]
    assert "Hire two evening nurses" not in solution and "No solution is delivered" in solution
    body = answer_pack_json(pack)
    assert body["cannot_be_met"]["constraints"] == [
        {
            "constraint": "without more staff",
            "origin": "user",
            "why": "step 2 hires two nurses",
            "relaxing_allows": RELAXING,
        }
    ]
    assert body["cannot_be_met"]["withheld_answer"] == "Hire two evening nurses to smooth the peak."
    assert "Hire two evening nurses" not in body["direct_answer"] + body["solution_markdown"]
    assert decode_state(encode_state(state)).answer_pack == pack
    brief = crystallize.brief(state).text  # the agent's summary must agree: the solution was withheld
    assert '"relaxing_would_allow":"two more evening nurses would halve the peak wait"' in brief
    assert "Hire two evening nurses" not in brief


def pool_hypothesis(n: int, statement: str) -> Hypothesis:
    observable = "door-to-doctor minutes per patient each evening"
    rows = tuple(
        MappingRow(f"source {i}", "drives", f"target {i}", "drives", MappingType.RELATION, "g", observable)
        for i in range(6)
    )
    return Hypothesis(
        HypothesisId(f"biso-0-queueing-{n}"), "queueing", "Queueing", "s", f"Hypothesis {n}", statement,
        "arrivals are throttled like packets", MappingTable(rows), observable, ("fails in a surge",),
        gate_summary(MappingTable(rows), observable),
    )  # fmt: skip


def scores_for(request: StructuredRequest[Any]) -> VerifyScoresOutput:
    logic = 3.0 if "weak idea" in request.input else 8.0
    return VerifyScoresOutput(
        analogy_validity=logic, internal_consistency=logic, causal_rigor=logic, novelty=5.0, rationale="scripted sample"
    )


async def test_verify_checks_the_ranking_candidates_before_solve_and_only_passed_ones_rank() -> None:
    verifier = Recorder("scripted verifier", {VerifyScoresOutput: scores_for})
    pool = [pool_hypothesis(1, "Throttle evening arrivals"), pool_hypothesis(2, "A weak idea about signs")]

    async def read_pool(_: SessionId) -> list[Hypothesis]:
        return pool

    stage = SolveStage(
        solver(False), OfflineModel(), read_pool=read_pool, ranking_verify=VerifyStage(verifier, OfflineModel())
    )
    state = crystallizing()
    events = await stage.run(context(state), lambda progress: None)
    assert verifier.names() == ["verify_claim"] * 8  # k = 3 forward + 1 reversed, per candidate
    assert sum("[hypothesis] Throttle evening arrivals" in r.input for r in verifier.requests) == 4
    assert sum("[observable] door-to-doctor minutes" in r.input for r in verifier.requests) == 8
    assert {h: v.status.value for h, v in state.hypothesis_verifications.items()} == {
        "biso-0-queueing-1": "passed",
        "biso-0-queueing-2": "failed",
    }
    (verify_event,) = [e for e in events if e.type == "engine_stage" and e.data["stage"] == "verify"]
    assert verify_event.data["counts"]["hypotheses"] == 2 and verify_event.data["counts"]["passed"] == 1
    pack = state.answer_pack
    assert pack is not None
    assert [(h.id, h.verify_status, h.verify_score) for h in pack.ranking] == [("biso-0-queueing-1", "passed", 6.2)]
    assert [(h.id, h.verify_status) for h in pack.unranked] == [("biso-0-queueing-2", "failed")]
    assert decode_state(encode_state(state)) == state  # the verdicts and the pack persist losslessly
    again = await stage.run(context(state), lambda progress: None)  # verdicts are kept: no second check
    assert len(verifier.requests) == 8 and not [e for e in again if e.data.get("stage") == "verify"]
