"""EXPLORE works from the pool and SYNTHESIZE gets the results on suggested domains, in a whole
offline session (the offline model behind a recorder, the offline engine): EXPLORE's first brief
offers BISO's gated head by id; every analogy the offline stand-in records cites one of those ids
or passed the same mapping gate, none is refused; the autopilot stars from the pool; a suggested
domain's results are SYNTHESIZE's candidates; one that shares nothing with the library is refused at
the explore review in plain words, one that shares a term explores the closest shipped domain.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from support.recorded_offline_service import RecordingModel, first_brief, recorded_offline_service

from forge.core.domain_types import Phase
from forge.core.llm.messages import ToolResult
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.review.inputs import ExploreReview
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
JSON_BLOCK = re.compile(r"```json\n(.*)\n```", re.DOTALL)
UNRELATED = "jazz improvisation"
NEAR_ONE = "jazz river improvisation"  # shares "river" with a shipped domain


async def test_explore_promotes_pool_hypotheses_and_synthesize_reads_the_suggested_domains(tmp_path: Path) -> None:
    model = RecordingModel()
    autopilot = AutopilotPolicy()
    async with recorded_offline_service(tmp_path, model) as container:
        service = container.service
        record = await service.create(PROBLEM)
        assert not isinstance(record, ServiceFailure)
        await service.start_run(record.id)
        await container.runs.wait(record.id)
        assert not isinstance(await service.submit_autopilot_review(record.id, autopilot), ServiceFailure)
        await container.runs.wait(record.id)
        explored = await service.state(record.id)
        assert not isinstance(explored, ServiceFailure) and explored.current_phase is Phase.EXPLORE
        stars = autopilot.review_for(explored, explored.awaiting_input_type)  # type: ignore[arg-type]
        assert isinstance(stars, ExploreReview)
        review = ExploreReview(stars.starred_analogies, (UNRELATED,), starred_hypotheses=stars.starred_hypotheses)
        refused = await service.submit_review(record.id, review)  # the offline engine cannot explore it
        assert (
            isinstance(refused, ServiceFailure)
            and f"'{UNRELATED}' cannot be explored: it is not one of" in refused.message
        )
        assert "real model" in refused.message and "`" not in refused.message
        review = replace(review, suggested_domains=("hydrology", NEAR_ONE))
        assert not isinstance(await service.submit_review(record.id, review), ServiceFailure)
        await container.runs.wait(record.id)
        state = await service.state(record.id)
        assert not isinstance(state, ServiceFailure)

    pool = json.loads(JSON_BLOCK.findall(first_brief(model, "explore"))[-1])["pool"]
    assert pool and all(c["id"].startswith("biso-0-") for c in pool)
    assert {"domain", "statement", "mechanism", "observable", "mapping_score", "gate"} <= set(pool[0])
    offered = {c["id"] for c in pool}
    analogies = explored.cross_domain_analogies
    assert any(a.hypothesis_id for a in analogies)
    assert all(a.hypothesis_id in offered or a.mapping_score is not None for a in analogies)
    refusals = [
        p.content
        for r in model.requests
        for m in r.messages
        for p in m.parts
        if isinstance(p, ToolResult) and p.is_error and "mapping-quality gate" in p.content
    ]
    assert refusals == []
    scored = sorted((c["mapping_score"] for c in pool), reverse=True)
    assert stars.starred_analogies or stars.starred_hypotheses
    assert all(a.mapping_score is not None and a.mapping_score >= scored[1] for a in state.starred_analogies)

    synthesize = json.loads(JSON_BLOCK.findall(first_brief(model, "synthesize"))[-1])
    results = {r["suggestion"]: r for r in synthesize["suggested_domain_results"]}
    assert results["hydrology"]["candidates"] and results["hydrology"]["explored_as"] == "Hydrology and river systems"
    assert results[NEAR_ONE]["explored_as"] == "Hydrology and river systems" and results[NEAR_ONE]["candidates"]
    assert "closest shipped domain" in results[NEAR_ONE]["note"]
