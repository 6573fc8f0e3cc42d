"""Suggested domains: library ones get BISO, unknown ones are described by the model then explored,
ones already explored this round cost nothing, and a model that cannot describe one explores the closest
shipped domain, or says why not in plain words."""

from __future__ import annotations

from typing import Any

from forge.core.explore.suggested_domains import SuggestionSource, describe_outcomes
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.llm.messages import Usage
from forge.engine.explore.biso import BisoContext, BisoOutput, HypothesisDraft, MappingRowOut
from forge.engine.explore.review_mapping_depth import MappingReviewsOutput
from forge.engine.explore.suggested_domains import (
    DomainOut,
    StructureOut,
    explore_suggested_domains,
)
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.explore.mapping_review_offline import offline_mapping_reviews
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
LIBRARY = load_shipped_knowledge().domains
OFFLINE = OfflineStructuredModel({BisoOutput: offline_biso, MappingReviewsOutput: offline_mapping_reviews})


def _structure(n: int) -> StructureOut:
    return StructureOut(
        name=f"Call-and-response {n}",
        source_relation="a phrase invites an answering phrase",
        mechanism="The answer is timed to the call's cadence.",
        key_variables=["cadence", "phrase length"],
        dynamics="Builds, then resolves.",
        typical_observables=["gap between call and response"],
        failure_modes=["A soloist ignores the call."],
        references=["Floyd, S. (1999). Ring shout! Literary studies."],
    )


class Describer(OfflineStructuredModel):
    """Describes any domain it is asked about as a jazz-like domain; everything else is offline."""

    def __init__(self) -> None:
        super().__init__({BisoOutput: offline_biso, MappingReviewsOutput: offline_mapping_reviews})
        self.described: list[str] = []

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        if request.output is DomainOut:
            self.described.append(str(request.offline_context))
            out = DomainOut(
                name="Jazz improvisation",
                field="social",  # type: ignore[arg-type]
                summary="How players coordinate in real time.",
                structures=[_structure(n) for n in range(3)],
            )
            return StructuredResult(out, Usage(500, 900), 1)
        context = request.offline_context
        if isinstance(context, BisoContext) and context.domain.id.startswith("suggested-"):
            drafts = [_draft(s.name, n) for n, s in enumerate(context.domain.structures[: context.per_domain])]
            return StructuredResult(BisoOutput(hypotheses=drafts), Usage(), 1)
        return await super().generate(request)


STATEMENTS = (
    "Let triage answer each arrival surge the way a band answers a call, with a timed reply.",
    "Rotate the lead role among senior nurses every hour so coordination never waits on one person.",
    "Publish a visible cadence board in the waiting area so patients know when the next answer comes.",
)


def _draft(structure: str, n: int) -> HypothesisDraft:
    rows = [
        MappingRowOut(
            source_concept=f"{word} of the band",
            source_relation=f"the {word} answers the soloist",
            target_concept=f"{word} of the triage team",
            target_relation=f"the {word} answers the arrival surge",
            mapping_type="relation",  # type: ignore[arg-type]
            systematicity_group="call and response",
            observable_link=f"{word} response minutes",
        )
        for word in ("drummer", "bassist", "pianist", "horn", "leader", "audience")
    ]
    return HypothesisDraft(
        title=f"{structure} at triage",
        structure=structure,
        statement=STATEMENTS[n],
        mechanism="Timed answers keep the queue from building.",
        mapping=rows,
        observable="response minutes from arrival surge to triage answer",
        failure_modes=["Breaks when surges arrive faster than any answer can be timed."],
    )


async def test_a_library_suggestion_gets_a_biso_run_with_its_hypotheses() -> None:
    run = await explore_suggested_domains(
        OFFLINE, PROBLEM, FRAME, LIBRARY, ["hydrology"], explored_this_round={}, per_domain=2, round_=1
    )
    (outcome,) = run.outcomes
    assert outcome.source is SuggestionSource.LIBRARY and outcome.domain_name == "Hydrology and river systems"
    assert outcome.hypotheses == len(run.hypotheses) == 2
    assert all(h.id.startswith(f"biso-1-{outcome.domain_id}-") for h in run.hypotheses)


async def test_a_domain_already_explored_this_round_costs_nothing_and_keeps_its_count() -> None:
    hydrology = next(d for d in LIBRARY if d.name == "Hydrology and river systems")
    run = await explore_suggested_domains(
        OFFLINE, PROBLEM, FRAME, LIBRARY, ["Hydrology"], explored_this_round={hydrology.id: 3}
    )
    assert run.calls == 0 and run.hypotheses == ()
    assert run.outcomes[0].hypotheses == 3 and "already explored" in run.outcomes[0].note


async def test_an_unknown_suggestion_is_described_by_the_model_then_explored() -> None:
    model = Describer()
    run = await explore_suggested_domains(
        model, PROBLEM, FRAME, LIBRARY, ["jazz improvisation"], explored_this_round={}, per_domain=2
    )
    (outcome,) = run.outcomes
    assert model.described == ["jazz improvisation"]
    assert outcome.source is SuggestionSource.GENERATED and outcome.domain_id == "suggested-jazz-improvisation"
    assert outcome.hypotheses == 2 and {h.domain_id for h in run.hypotheses} == {outcome.domain_id}
    assert run.usage == Usage(500, 900) and run.calls >= 2  # describe + BISO (+ reviews)


async def test_the_offline_model_says_in_plain_words_why_it_cannot_explore_an_unrelated_domain() -> None:
    run = await explore_suggested_domains(
        OFFLINE, PROBLEM, FRAME, LIBRARY, ["jazz improvisation", "queueing"], explored_this_round={}, per_domain=1
    )
    jazz, queueing = run.outcomes
    assert jazz.source is SuggestionSource.NONE and "not one of the" in jazz.note and "real model" in jazz.note
    text = describe_outcomes(run.outcomes)
    assert "`" not in text and "DomainOut" not in text and ".." not in text
    assert queueing.source is SuggestionSource.LIBRARY and queueing.hypotheses == 1
    assert [c.id for c in queueing.candidates] == [h.id for h in run.hypotheses]  # offered to the briefs


async def test_the_offline_model_explores_the_closest_shipped_domain_for_one_it_cannot_describe() -> None:
    run = await explore_suggested_domains(
        OFFLINE, PROBLEM, FRAME, LIBRARY, ["jazz river improvisation"], explored_this_round={}, per_domain=1
    )
    (outcome,) = run.outcomes
    assert outcome.source is SuggestionSource.LIBRARY and outcome.domain_name == "Hydrology and river systems"
    assert "closest shipped domain" in outcome.note and outcome.hypotheses == 1 and len(outcome.candidates) == 1
