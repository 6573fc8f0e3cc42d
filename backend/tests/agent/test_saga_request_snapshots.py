"""What a model reads in the batched engine requests of issues 36 and 37, as snapshots to review:
SAGA's hard-constraint check (Layer 4, several hypotheses per call), the red team's challenges
(Layer 2, several targets per call) and Stage B's source-domain feasibility (the shortlist in one
call), each with its instructions, input and output schema (the reason before the verdict). Update
with `make prompt-snapshots` and read the diff."""

from __future__ import annotations

import json
from typing import Any

from agent.test_prompt_snapshots import SNAPSHOTS, _compare_or_update, _undescribed_fields

from forge.core.explore.select_source_domains import shortlist_domains
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.saga.domain_profile import ProfiledText
from forge.engine.explore.choose_source_domains import problem_text
from forge.engine.explore.judge_domain_feasibility import FeasibilityRequest, feasibility_request
from forge.engine.saga.constraint_check import ConstraintCheckBatch, constraint_check_request
from forge.engine.saga.red_team import RedTeamTarget, red_team_request
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.ports import StructuredRequest

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))


def _text(request: StructuredRequest[Any]) -> str:
    schema = json.dumps(request.output.model_json_schema(), ensure_ascii=False, indent=1)
    head = f"# {request.name}\n\n{request.purpose}\n\n## instructions\n\n{request.instructions}\n\n## input\n\n"
    return f"{head}{request.input}\n\n## output schema\n\n{schema}\n"


def test_the_constraint_check_request_matches_the_snapshot() -> None:
    items = (
        ProfiledText(
            "biso-0-queueing_theory-1", "Pool the two triage queues so that an idle nurse takes the next patient."
        ),
        ProfiledText(
            "biso-0-ecology-2", "Hire two nurses for the evening peak, as a predator population grows with prey."
        ),
    )
    request = constraint_check_request(ConstraintCheckBatch(("without more staff", "budget under 50k"), items))
    assert _undescribed_fields(request.output.model_json_schema(), request.name) == []
    _compare_or_update(SNAPSHOTS / "constraint_check_request.md", _text(request))


def test_the_domain_feasibility_request_matches_the_snapshot() -> None:
    domains = load_shipped_knowledge().domains
    shortlist = tuple(shortlist_domains(problem_text(PROBLEM, FRAME), domains, 30))
    request = feasibility_request(FeasibilityRequest(PROBLEM, FRAME, shortlist))
    assert _undescribed_fields(request.output.model_json_schema(), request.name) == []
    _compare_or_update(SNAPSHOTS / "domain_feasibility_request.md", _text(request))


def test_the_red_team_request_matches_the_snapshot() -> None:
    targets = (
        RedTeamTarget(
            "biso-0-queueing_theory-1", "Pool the two triage queues so that an idle nurse takes the next patient.",
            "An idle server takes the next arrival, so no queue waits while a nurse is free.",
            "door-to-triage minutes per patient each evening", ("a surge fills both queues",),
            ("Pooled queues cut waits 20% in 3 EDs (corpus://pooling)",), ("without more staff",), 1,
        ),
        RedTeamTarget(
            "biso-0-ecology-2", "Stagger elective admissions like predator-prey cycles to flatten the evening peak.",
            "Admissions follow the bed supply with a lag.", "", (), (), ("without more staff",), 3,
            ("Does the lag hold at weekends?",),
        ),
    )  # fmt: skip
    request = red_team_request(targets)
    assert _undescribed_fields(request.output.model_json_schema(), request.name) == []
    _compare_or_update(SNAPSHOTS / "red_team_request.md", _text(request))
