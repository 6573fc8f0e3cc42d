"""Stage B by a model over a scripted judge, the whole exchange: one call over the shortlist (the
ranker's best 30, none near the problem's own field), the reason asked before the verdict; the
domains it judges infeasible never reach the diversity pick and carry its reason; a verdict about a
domain it was not asked about is ignored; a failed call keeps the ranker's choice and says so."""

from __future__ import annotations

from typing import Any

from forge.core.explore.select_source_domains import Feasibility, shortlist_domains
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.llm.messages import Usage
from forge.engine.explore.choose_source_domains import (
    choose_judged_source_domains,
    choose_source_domains,
    problem_text,
)
from forge.engine.explore.judge_domain_feasibility import (
    FEASIBILITY_INSTRUCTIONS,
    DomainFeasibilityOutput,
    DomainJudgement,
    DomainVerdict,
    FeasibilityRequest,
)
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
DOMAINS = load_shipped_knowledge().domains


class ScriptedJudge:
    """Judges the first `reject` shortlisted domains infeasible, the rest feasible, plus one unknown id."""

    def __init__(self, reject: int, fails: bool = False) -> None:
        self.requests: list[StructuredRequest[Any]] = []
        self._reject, self._fails = reject, fails

    @property
    def label(self) -> str:
        return "scripted judge"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        if self._fails:
            return StructuredFailure("invalid output after retries", Usage(40, 4), 3)
        asked = request.offline_context
        assert isinstance(asked, FeasibilityRequest)
        judgements = [
            DomainJudgement(
                domain_id=d.id,
                reason=f"Nothing in {d.name} maps onto a queue." if n < self._reject else f"{d.name} maps onto triage.",
                verdict=DomainVerdict.INFEASIBLE if n < self._reject else DomainVerdict.FEASIBLE,
            )
            for n, d in enumerate(asked.shortlist)
        ]
        judgements.append(DomainJudgement(domain_id="astrology", reason="invented", verdict=DomainVerdict.INFEASIBLE))
        return StructuredResult(DomainFeasibilityOutput(judgements=judgements), Usage(900, 300), 1)


async def test_one_call_over_the_shortlist_and_its_infeasible_domains_never_reach_the_pick() -> None:
    judge = ScriptedJudge(reject=3)
    choice = await choose_judged_source_domains(judge, PROBLEM, FRAME, DOMAINS)
    shortlist = shortlist_domains(problem_text(PROBLEM, FRAME), DOMAINS, 30)
    (request,) = judge.requests
    assert request.name == "record_domain_feasibility" and request.instructions == FEASIBILITY_INSTRUCTIONS
    lines = request.input.splitlines()
    assert lines[:5] == [
        f"Problem: {PROBLEM}",
        "Objective: Cut emergency wait times",
        "Target: emergency department → shorter waits",
        "Hard constraint: without more staff",
        "",
    ]
    assert [line.split("]")[0][1:] for line in lines[6:]] == [d.id for d in shortlist] and len(shortlist) == 30
    assert list(DomainJudgement.model_fields) == ["domain_id", "reason", "verdict"]
    rejected = {d.id for d in shortlist[:3]}
    assert rejected.isdisjoint(c.domain_id for c in choice.selection.chosen)
    dropped = {v.domain_id: v for v in choice.selection.filtered_out if v.feasibility is Feasibility.INFEASIBLE}
    assert rejected <= set(dropped) and "astrology" not in dropped
    assert dropped[shortlist[0].id].reason == f"Nothing in {shortlist[0].name} maps onto a queue."
    assert choice.feasibility_note == "scripted judge kept 27 of 30 shortlisted domains, 3 judged infeasible"
    assert choice.usage == Usage(900, 300)


async def test_a_failed_call_keeps_the_rankers_choice_and_says_so() -> None:
    choice = await choose_judged_source_domains(ScriptedJudge(reject=0, fails=True), PROBLEM, FRAME, DOMAINS)
    assert choice.selection == choose_source_domains(PROBLEM, FRAME, DOMAINS).selection
    assert choice.feasibility_note == (
        "feasibility not judged (invalid output after retries); the ranker's estimate was kept"
    )


async def test_offline_nothing_is_asked_and_the_selection_is_the_rankers() -> None:
    for problem in (PROBLEM, "如何在不增加人手的情况下缩短急诊等待时间？"):
        choice = await choose_judged_source_domains(None, problem, None, DOMAINS)
        assert choice.selection == choose_source_domains(problem, None, DOMAINS).selection
        assert choice.feasibility_note == "the ranker's estimate (feasibility needs a model)"
