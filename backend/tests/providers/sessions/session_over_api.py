"""A whole session over the app's API (autopilot, or the reviews a person would post) until the
knowledge document, on a container the composition root builds from Settings; what every engine
request of a session is called, and the offline decisions the fake servers answer with."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import httpx
from support.reviews import REVIEW_EVENTS, review_for
from support.scripted_scorer import word_rule_scorer
from support.sse_client import Received, read_stream, run_and_stream

from forge.api.app import create_app
from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.build_container import build_container
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.config import Settings
from forge.core.llm.messages import Usage
from forge.core.saga.constraint_rule import judge_by_word_rule
from forge.db.migrate import upgrade_database
from forge.engine.explore.judge_domain_feasibility import (
    DomainFeasibilityOutput,
    DomainJudgement,
    DomainVerdict,
    FeasibilityRequest,
)
from forge.engine.saga.constraint_check import (
    ConstraintCheckBatch,
    ConstraintCheckOutput,
    ConstraintJudgement,
    ConstraintVerdict,
)
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_model import OfflineModel
from forge.ports import OutputT, StructuredFailure, StructuredModel, StructuredRequest, StructuredResult
from forge.providers.library_prices import install_prices_file

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
CONSTRAINTS = ["budget under 50k"]
# The engine's requests, by the name each stage gives its StructuredRequest: the frame, Stage B's
# domain feasibility, BISO, the mapping review, the verifier's hypothesis scores, VERIFY (scores and prior art), the red team, SAGA's
# hard-constraint check and Solve's five; SEARCH's operators are `record_<operator>_hypothesis`.
ENGINE_REQUESTS = {
    "record_problem_frame", "record_domain_feasibility", "record_biso_hypotheses", "record_mapping_reviews",
    "verify_claims", "judge_prior_art", "record_red_team_challenges", "record_constraint_check",
    "record_reasoner_analysis", "record_solution_plan", "record_quality_audit", "record_solution",
    "record_compliance_audit", "score_hypotheses", "judge_research_relevance",
}  # fmt: skip


async def app_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    await upgrade_database(settings.database_url)
    container = build_container(replace(settings, embedder="hashed"))  # no test here checks meaning
    transport = httpx.ASGITransport(app=create_app(container))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost", timeout=60) as http:
            yield http
    finally:
        await container.close()
        install_prices_file(None)  # the composition root installed the settings' prices process-wide


async def run_to_the_answer(client: httpx.AsyncClient, *, autopilot: bool) -> tuple[str, list[Received]]:
    body = {"problem": PROBLEM, "constraints": CONSTRAINTS}
    sid = str((await client.post("/api/v1/sessions", json=body)).json()["id"])
    events = await run_and_stream(client, sid)
    for _ in range(12):
        failures = [e.data for e in events if e.type == "error"]
        assert not failures, failures  # a refused call ends the run with its error: say which
        if any(e.type == "knowledge_document" for e in events):
            return sid, events
        if autopilot:
            events += await read_stream(client, "POST", f"/api/v1/sessions/{sid}/autopilot")
        else:
            review = review_for(next(e for e in reversed(events) if e.type in REVIEW_EVENTS))
            events += await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review)
    raise AssertionError(f"no knowledge document; last events: {[e.type for e in events[-5:]]}")


class OfflineDecisions:
    """The offline model's structured generators, plus answers to the judgments of meaning that only a
    real model is asked (issue 37; offline the engine never asks them): the constraint check answered
    by the offline word rule's verdicts, Stage B keeping every shortlisted domain."""

    def __init__(self, structured: StructuredModel) -> None:
        self._structured = structured

    @property
    def label(self) -> str:
        return self._structured.label

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        context: Any = request.offline_context
        if isinstance(context, ConstraintCheckBatch):
            judged = [
                ConstraintJudgement(
                    hypothesis_id=item.id,
                    constraint=n,
                    reason=(v := judge_by_word_rule(c, item.text)).reason,
                    verdict=ConstraintVerdict.BREAKS if v.violates else ConstraintVerdict.KEEPS,
                )
                for item in context.items
                for n, c in enumerate(context.constraints, start=1)
            ]
            value: Any = ConstraintCheckOutput(judgements=judged)
        elif isinstance(context, FeasibilityRequest):
            kept = [
                DomainJudgement(domain_id=d.id, reason="Kept by the fake server.", verdict=DomainVerdict.FEASIBLE)
                for d in context.shortlist
            ]
            value = DomainFeasibilityOutput(judgements=kept)
        else:
            return await self._structured.generate(request)
        return StructuredResult(request.output.model_validate(value.model_dump()), Usage(), 1)


def offline_deciders() -> tuple[OfflineModel, StructuredModel]:
    """The offline model and its structured generators (the scoring call answered with the word rules'
    scores, which the offline model makes no call for): what the fake servers answer with."""
    offline = OfflineModel(KNOWLEDGE_DIR)
    domains = load_shipped_knowledge(KNOWLEDGE_DIR).domains
    structured = OfflineDecisions(build_structured_model(ModelRoute(Provider.OFFLINE, "offline"), offline, domains))
    return offline, word_rule_scorer(structured)  # the verifier's scoring call: the word rules' scores


def engine_requests_missing(asked: set[str]) -> set[str]:
    """The engine requests a session made none of (SEARCH: any `record_<operator>_hypothesis`)."""
    operators = {n for n in asked if n.endswith("_hypothesis") and n != "record_biso_hypotheses"}
    return (ENGINE_REQUESTS - asked) | (set() if operators else {"record_<operator>_hypothesis"})


def stages_of(events: list[Received]) -> dict[str, dict[str, Any]]:
    """The last event of each stage; VERIFY on the AnswerPack's ranking candidates alone (before Solve,
    counting `hypotheses` and no `claims`) is `verify_ranking`, apart from VERIFY at VALIDATE (the
    claims, and the ranking candidates with them: `hypotheses`)."""
    return {_stage_key(e.data): e.data for e in events if e.type == "engine_stage"}


def _stage_key(data: dict[str, Any]) -> str:
    ranking_only = data["stage"] == "verify" and "claims" not in data["counts"]
    return "verify_ranking" if ranking_only else str(data["stage"])


def stages_without_results(events: list[Received]) -> list[str]:
    """The engine stages whose counts show no result from the model (the frame's constraints, BISO's
    hypotheses and their mapping review, SEARCH's children, the verifier's scores of the last new
    hypotheses, VERIFY's judged claims and ranking
    candidates, Solve's five calls)."""
    counts = {stage: data["counts"] for stage, data in stages_of(events).items()}
    produced = {
        "frame": lambda c: c["hard_constraints"] >= len(CONSTRAINTS),
        "biso": lambda c: c["generated"] > 0 and c["reviewed"] > 0,
        "search": lambda c: c["children"] > 0 and c["failed"] == 0,
        "score": lambda c: c["scored"] > 0 and c["fallback"] == 0,
        # VALIDATE's VERIFY judges the claims and the ranking candidates (so CP-6 sees both); Solve
        # verifies only candidates still without a verdict, so it may have nothing left to judge.
        "verify": lambda c: (
            c["claims"] > 0 and c["passed"] + c["failed"] + c["escalated"] == c["claims"] and c["hypotheses"] > 0
        ),
        "solve": lambda c: c["calls"] == 5 and c["attempts"] >= 1,
    }
    return [stage for stage, check in produced.items() if stage not in counts or not check(counts[stage])]
