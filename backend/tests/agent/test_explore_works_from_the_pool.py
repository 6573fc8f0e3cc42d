"""EXPLORE works from the pool, through the whole exchange with a scripted model: the brief offers
BISO's strongest gated hypotheses and the results on a suggested domain (id, domain, statement,
mechanism, observable, mapping score, gate); an analogy cites the pool id it promotes, or is new and
passes the same mapping-quality gate as BISO's — refused with the gate's reasons otherwise — and the
autopilot then stars by score from the whole offer."""

from __future__ import annotations

import json
import re
from typing import Any

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, ReviewType, SessionId
from forge.core.explore.suggested_domains import SuggestionOutcome, SuggestionSource
from forge.core.hypotheses.pool import BisoSummary
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.llm.messages import ToolResult
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.review.inputs import ExploreReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HIT = ResearchHit("https://example.org/ed-flow", "Emergency department flow", "Boarding delays emergency care.")
JSON_BLOCK = re.compile(r"```json\n(.*)\n```", re.DOTALL)
OBSERVABLE = "minutes patients wait at triage, per hour of the day"


def candidate(hid: str, domain: str, score: float, failed: tuple[str, ...] = ()) -> PoolCandidate:
    return PoolCandidate(
        id=hid, title=f"title {hid}", statement=f"statement {hid}", mechanism=f"mechanism {hid}",
        observable=OBSERVABLE, mapping_score=score, gate_passed=not failed,
        domain_id=domain.lower(), domain_name=domain, failed_rules=failed,
    )  # fmt: skip


def explore_state() -> ForgeState:
    state = ForgeState(problem=PROBLEM, biso=BisoSummary(0, 3, 3, 2, ()))
    state.pool_candidates = [
        candidate("b1", "Ant colonies", 7.5),
        candidate("b2", "Hydrology", 3.0, ("effective_rows",)),
    ]
    atc = candidate("s1", "Air traffic control", 5.5)
    state.suggestion_outcomes = [
        SuggestionOutcome(
            "air traffic control", SuggestionSource.LIBRARY, "air traffic control", "ATC", 1, 0, "", (atc,)
        )
    ]
    state.enter_phase(Phase.EXPLORE)
    return state


def analogy(domain: str, rows: list[dict[str, str]], hypothesis_id: str | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {
        "source_domain": domain,
        "target_application": "triage at the emergency department",
        "analogy_description": "Water finds the least-loaded channel; triage sends patients where the wait is short.",
        "semantic_distance": "far",
        "mapping": rows,
        "observable": OBSERVABLE,
        "failure_mode": "Breaks when every channel is full and patients wait at triage anyway.",
    }
    return args | ({"hypothesis_id": hypothesis_id} if hypothesis_id else {})


def gated_row(source: str, source_relation: str, target: str, target_relation: str, kind: str) -> dict[str, str]:
    return {
        "source_concept": source,
        "target_concept": target,
        "relation": f"{source_relation}; here {target_relation}",
        "source_relation": source_relation,
        "target_relation": target_relation,
        "mapping_type": kind,
        "systematicity_group": "flow to the least-loaded channel",
        "observable_link": f"{target}: minutes patients wait at triage",
    }


GATED = [
    gated_row("river discharge", "rises with rainfall upstream", "arrivals", "patients arriving per hour wait", "attribute"),
    gated_row("channel capacity", "bounds the flow a bed carries", "treatment bays", "bays bound patients seen", "attribute"),
    gated_row("floodplain", "stores overflow until the peak passes", "waiting room", "holds patients who wait", "entity"),
    gated_row("levee", "diverts water into relief channels", "fast track", "diverts minor cases from triage", "relation"),
    gated_row("gauge station", "measures stage before the flood", "triage board", "shows the wait per hour", "entity"),
    gated_row("flood wave", "slows as storage fills and drains", "surge", "triage minutes fall as bays drain", "higher_order"),
]  # fmt: skip


THIN = [  # the rows BISO's schema asks for, each complete, but saying one thing six times
    gated_row("river", "flows downhill", "patients", "flow to triage", "entity") for _ in range(6)
]


def results(model: ScriptedModel, request: int) -> list[ToolResult]:
    return [p for p in model.requests[request].messages[-1].parts if isinstance(p, ToolResult)]


async def test_the_brief_offers_the_pool_and_an_analogy_cites_it_or_passes_the_same_gate() -> None:
    state = explore_state()
    model = ScriptedModel(
        [
            turn(
                call("research", {"query": "Ant colonies foraging triage"}),
                call("research", {"query": "Hydrology river channels"}),
            ),
            turn(
                call("search_cross_domain", analogy("Ant colonies", THIN, "b1")),
                call("search_cross_domain", analogy("Hydrology", THIN, "b2")),
                call("search_cross_domain", analogy("Hydrology", THIN, "nope")),
                call("search_cross_domain", analogy("Hydrology", THIN)),
            ),
            turn(call("search_cross_domain", analogy("Hydrology", GATED))),
            turn(text="two analogies recorded"),
        ]
    )
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "scripted")
    await record_run(AgentRunner(model, max_nudges=0), ctx, [phase_kickoff(state)])

    brief = model.requests[0].messages[0].text
    assert "POOL: the engine already carried distant domains onto the problem" in brief
    pool = json.loads(JSON_BLOCK.findall(brief)[-1])["pool"]
    assert [(c["id"], c["domain"], c["gate"]) for c in pool] == [
        ("b1", "Ant colonies", "passed"),
        ("b2", "Hydrology", "failed: effective_rows"),
        ("s1", "Air traffic control", "passed"),
    ]
    assert pool[0]["statement"] == "statement b1" and pool[0]["mapping_score"] == 7.5
    assert pool[0]["mechanism"] == "mechanism b1" and pool[0]["observable"] == OBSERVABLE
    assert pool[2]["suggested"] == "air traffic control" and "suggested" not in pool[0]

    cited = results(model, 2)[0]
    assert not cited.is_error and '"builds_on":"b1"' in cited.content.replace(" ", "")
    failed_pool, unknown, thin = results(model, 2)[1:]
    assert failed_pool.is_error and "Pool hypothesis b2 failed the mapping-quality gate" in failed_pool.content
    assert unknown.is_error and "the ids offered are: b1, b2, s1" in unknown.content
    assert thin.is_error and "does not pass the mapping-quality gate" in thin.content
    assert "- effective_rows: 1 of 6 rows add new information (needs >= 6)" in thin.content
    assert "- duplicate_ratio:" in thin.content and "hypothesis_id" in thin.content
    (gated,) = results(model, 3)
    assert not gated.is_error and '"gate":"passed"' in gated.content.replace(" ", "")

    first, second = state.cross_domain_analogies
    assert (first.hypothesis_id, first.mapping_score) == ("b1", 7.5)
    assert second.hypothesis_id == "" and second.mapping_score is not None and second.mapping_score >= 6.0
    assert state.cross_domain_search_count == 2

    review = AutopilotPolicy(star_top=2).review_for(state, ReviewType.EXPLORE_REVIEW)
    assert review == ExploreReview(starred_analogies=(0, 1))  # b1 via the analogy citing it, then the gated one
    review = AutopilotPolicy(star_top=3).review_for(state, ReviewType.EXPLORE_REVIEW)
    assert review == ExploreReview(starred_analogies=(0, 1), starred_hypotheses=("s1",))
