"""BISO: one call per domain in parallel, the gate per hypothesis, stable ids, near-duplicates merged,
failed domains reported; and the offline generator's tables judged like any model's."""

from __future__ import annotations

from typing import Any

from forge.core.explore.mapping_quality_gate import GateRule, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus
from forge.core.llm.messages import Usage
from forge.engine.explore.biso import BisoOutput, HypothesisDraft, MappingRowOut, run_biso
from forge.engine.explore.review_mapping_depth import MappingReviewBatch, MappingReviewOutput, MappingReviewsOutput
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.explore.mapping_review_offline import offline_mapping_reviews
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
DOMAINS = load_shipped_knowledge().domains


def row(source: str, source_rel: str, target: str, target_rel: str, kind: MappingType, link: str) -> MappingRowOut:
    return MappingRowOut(
        source_concept=source,
        source_relation=source_rel,
        target_concept=target,
        target_relation=target_rel,
        mapping_type=kind,
        systematicity_group="congestion",
        observable_link=link,
    )


def draft(title: str, statement: str, rows: list[MappingRowOut]) -> HypothesisDraft:
    return HypothesisDraft(
        title=title,
        structure="Queueing",
        statement=statement,
        mechanism="Arrivals above capacity accumulate.",
        mapping=rows,
        observable="median waiting minutes per patient, by acuity, against occupancy in the evening peak",
        failure_modes=["Breaks when bed shortage blocking, not triage nurse capacity, drives the surge pattern."],
    )


GOOD_ROWS = [
    row("customer", "arrives at random", "patient", "walks into triage", MappingType.ENTITY, "arrivals per hour"),
    row(
        "server",
        "serves one job at a time",
        "triage nurse",
        "assesses each patient",
        MappingType.ENTITY,
        "nurse minutes",
    ),
    row(
        "utilisation",
        "nears one before delay explodes",
        "department occupancy",
        "saturates in the evening peak",
        MappingType.ATTRIBUTE,
        "occupancy percent",
    ),
    row(
        "buffer",
        "absorbs bursts of jobs",
        "waiting room",
        "holds surges between assessments",
        MappingType.RELATION,
        "queue length",
    ),
    row(
        "priority discipline",
        "reorders service by class",
        "acuity score",
        "moves urgent cases forward",
        MappingType.RELATION,
        "waiting minutes by acuity",
    ),
    row(
        "blocking",
        "rejects work when downstream is full",
        "bed shortage",
        "stalls admitted patients in corridors",
        MappingType.HIGHER_ORDER,
        "boarding hours",
    ),
    row(
        "variability",
        "inflates waiting beyond average load",
        "surge pattern",
        "creates evening spikes in waiting",
        MappingType.HIGHER_ORDER,
        "coefficient of variation",
    ),
]


THIN_ROWS = GOOD_ROWS[:2] * 3  # six rows, as the schema asks, but only two that say anything


class ByDomain:
    """Answers per domain: a dict domain id -> BisoOutput or a failure; counts the requests."""

    def __init__(self, answers: dict[str, BisoOutput | StructuredFailure]) -> None:
        self.answers = answers
        self.requests: list[StructuredRequest[Any]] = []

    @property
    def label(self) -> str:
        return "by domain"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        if request.output is MappingReviewsOutput:  # the gate's model layer: shallow reviews, rows unexplained
            assert isinstance(request.offline_context, MappingReviewBatch)
            reviews = [
                MappingReviewOutput(
                    hypothesis_id=item.hypothesis.id,
                    explanations=[],
                    rationale="scripted",
                    systematicity=6,
                    depth=4,
                    higher_order_mapped=True,
                )
                for item in request.offline_context.items
            ]
            return StructuredResult(MappingReviewsOutput(reviews=reviews), Usage(100, 50), 1)
        domain_id = next(d.id for d in DOMAINS if f"Source domain: {d.name} " in request.input)
        answer = self.answers[domain_id]
        return answer if isinstance(answer, StructuredFailure) else StructuredResult(answer, Usage(1000, 400), 1)


async def test_each_domain_is_one_call_and_each_hypothesis_is_gated_with_a_stable_id() -> None:
    first, second = DOMAINS[0], DOMAINS[1]
    model = ByDomain(
        {
            first.id: BisoOutput(
                hypotheses=[
                    draft(
                        "Surge buffer",
                        "Use the waiting room as a buffer and an acuity score priority so the triage nurse absorbs the evening surge pattern.",
                        GOOD_ROWS,
                    )
                ]
            ),
            second.id: BisoOutput(
                hypotheses=[
                    draft(
                        "Thin table",
                        "Route low acuity patients to a fast lane staffed by the same nurses during the peak.",
                        THIN_ROWS,
                    )
                ]
            ),
        }
    )
    run = await run_biso(model, PROBLEM, FRAME, [first, second], per_domain=3, round_=1)
    # two domain calls, then one model-layer review for the one table that passed the rules
    assert len(model.requests) == 3 and run.calls == 3 and run.usage == Usage(2100, 850)
    assert run.reviewed == 1
    good, thin = run.hypotheses
    assert (good.id, thin.id) == (f"biso-1-{first.id}-1", f"biso-1-{second.id}-1")
    assert good.gate.status is GateStatus.PASSED and good.gate.rule_layer_score is not None
    assert good.gate.rule_layer_score >= 6.0 and good.gate.depth_review is not None
    assert run.padding_suspected == (good.id,)  # the review explained none of the two unpacked rows
    assert thin.gate.status is GateStatus.FAILED and GateRule.EFFECTIVE_ROWS in thin.gate.failed_rules
    assert thin.gate.mapping_score <= 4.0
    assert "without more staff" in model.requests[0].input  # the frame's hard limits reach the model


async def test_a_failed_domain_is_reported_and_the_others_still_count() -> None:
    first, second = DOMAINS[0], DOMAINS[1]
    model = ByDomain(
        {
            first.id: BisoOutput(
                hypotheses=[
                    draft(
                        "Surge buffer",
                        "Use the waiting room as a buffer and an acuity score priority so the triage nurse absorbs the evening surge pattern.",
                        GOOD_ROWS,
                    )
                ]
            ),
            second.id: StructuredFailure("no valid hypotheses after 3 attempts", Usage(30, 3), 3),
        }
    )
    run = await run_biso(model, PROBLEM, FRAME, [first, second])
    assert [h.domain_id for h in run.hypotheses] == [first.id]
    assert [(f.domain_id, f.message) for f in run.failed_domains] == [
        (second.id, "no valid hypotheses after 3 attempts")
    ]


async def test_near_duplicate_statements_across_domains_are_merged_into_the_better_one() -> None:
    first, second = DOMAINS[0], DOMAINS[1]
    statement = "Use the waiting room as a buffer and an acuity score priority so the triage nurse absorbs the evening surge pattern."
    model = ByDomain(
        {
            first.id: BisoOutput(hypotheses=[draft("Thin", statement, THIN_ROWS)]),
            second.id: BisoOutput(hypotheses=[draft("Full", statement + " Keep it small.", GOOD_ROWS)]),
        }
    )
    run = await run_biso(model, PROBLEM, FRAME, [first, second])
    assert run.generated == 2
    (kept,) = run.hypotheses
    assert kept.title == "Full" and kept.absorbed == (f"biso-0-{first.id}-1",)


async def test_offline_biso_carries_each_structure_with_a_table_the_gate_can_judge() -> None:
    model = OfflineStructuredModel({BisoOutput: offline_biso, MappingReviewsOutput: offline_mapping_reviews})
    run = await run_biso(model, PROBLEM, FRAME, DOMAINS[:6], per_domain=3)
    assert run.failed_domains == () and run.generated == 18
    for hypothesis in run.hypotheses:
        domain = next(d for d in DOMAINS if d.id == hypothesis.domain_id)
        assert hypothesis.structure in {s.name for s in domain.structures}
        assert len(hypothesis.mapping.rows) >= 6 and hypothesis.observable and hypothesis.failure_modes
        assert "emergency wait times" in hypothesis.statement
    again = await run_biso(model, PROBLEM, FRAME, DOMAINS[:6], per_domain=3)
    assert again.hypotheses == run.hypotheses  # deterministic


class OmitsOnce(ByDomain):
    """Reviews every hypothesis of a batch by id, except that its first review answer leaves out the last."""

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        if request.output is not MappingReviewsOutput:
            return await super().generate(request)
        self.requests.append(request)
        assert isinstance(request.offline_context, MappingReviewBatch)
        items = request.offline_context.items
        first = sum(r.output is MappingReviewsOutput for r in self.requests) == 1
        answered = items[:-1] if first else items
        reviews = [
            MappingReviewOutput(
                hypothesis_id=item.hypothesis.id,
                explanations=[],
                rationale="scripted",
                systematicity=7,
                depth=5,
                higher_order_mapped=True,
            )
            for item in answered
        ]
        return StructuredResult(MappingReviewsOutput(reviews=reviews), Usage(100, 50), 1)


async def test_the_mapping_review_is_one_batched_call_and_a_missing_id_is_asked_again_alone() -> None:
    first, second = DOMAINS[0], DOMAINS[1]
    statements = (
        "Use the waiting room as a buffer and an acuity score priority so the triage nurse absorbs the evening surge pattern.",
        "Hold the evening surge pattern in the waiting room buffer while the acuity score moves urgent cases to the triage nurse first.",
    )
    model = OmitsOnce(
        {
            domain.id: BisoOutput(hypotheses=[draft(f"Idea {n}", statement, GOOD_ROWS)])
            for n, (domain, statement) in enumerate(zip((first, second), statements, strict=True), start=1)
        }
    )
    run = await run_biso(model, PROBLEM, FRAME, [first, second], per_domain=1, round_=1)
    ids = [h.id for h in run.hypotheses]
    assert len(ids) == 2 and all(h.gate.status is GateStatus.PASSED for h in run.hypotheses)
    reviews = [r for r in model.requests if r.output is MappingReviewsOutput]
    assert [r.name for r in model.requests] == ["record_biso_hypotheses"] * 2 + ["record_mapping_reviews"] * 2
    batches = [[item.hypothesis.id for item in r.offline_context.items] for r in reviews]  # type: ignore[attr-defined]
    assert batches == [ids, ids[1:]]  # the whole batch, then the repair with only the id left out
    assert f"(ids: {ids[0]}, {ids[1]})" in reviews[0].input and f"(ids: {ids[1]})" in reviews[1].input
    assert f"## Hypothesis {ids[0]}" not in reviews[1].input
    assert run.calls == 4 and run.reviewed == 2 and run.usage == Usage(2200, 900)
    assert all(h.gate.depth_review is not None and h.gate.depth_review.systematicity == 7 for h in run.hypotheses)
