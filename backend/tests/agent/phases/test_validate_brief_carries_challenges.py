"""VALIDATE's brief carries the supervisor's challenges: every red-team challenge a candidate failed
(unless the person dismissed it) and every challenge the supervisor injected, each with its targets."""

from __future__ import annotations

import json

from forge.agent.phases.validate import brief
from forge.core.domain_types import Phase
from forge.core.saga.records import (
    Checkpoint,
    Directive,
    DirectiveId,
    DirectiveKind,
    Finding,
    FindingId,
    FindingKind,
    SupervisorFinding,
)
from forge.core.saga.state import SupervisionState
from forge.core.session.forge_state import ForgeState


def _red_team(n: int, dismissed: bool) -> SupervisorFinding:
    finding = Finding(FindingKind.RED_TEAM_CHALLENGE, 1.0, 1.0, (f"h{n}",), f"h{n} fails: counterexample {n}.")
    return SupervisorFinding(FindingId(f"CP-5-r0-red-{n}"), Checkpoint.CP5, 0, finding, dismissed=dismissed)


def test_failed_and_injected_challenges_reach_the_brief_with_their_targets() -> None:
    injected = Directive(
        DirectiveId("d1"),
        DirectiveKind.INJECT_CHALLENGE,
        FindingId("CP-5-r0-bias"),
        "Red team: would this idea score as well from another domain?",
        hypothesis_ids=("h3",),
        challenge="would this idea score as well from another domain?",
    )
    supervision = SupervisionState(findings=(_red_team(1, False), _red_team(2, True)), directives=(injected,))
    state = ForgeState(problem="How can a hospital cut waits?", current_phase=Phase.VALIDATE, supervision=supervision)
    text = brief(state).text
    context = json.loads(text.rsplit("```json\n", 1)[1].split("\n```")[0])
    assert context["challenges"] == [
        {"from": "CP-5 red team", "targets": ["h1"], "challenge": "h1 fails: counterexample 1."},
        {"from": "supervisor", "targets": ["h3"], "challenge": "would this idea score as well from another domain?"},
    ]  # the dismissed one (h2) is not there
