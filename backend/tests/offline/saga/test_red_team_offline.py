"""The offline red team answers the four challenges from the target's own text, labelled offline,
and the engine turns failures into findings (and operationalisability failures into C-K signals)."""

from forge.engine.saga.red_team import ChallengeKind, RedTeamOutput, RedTeamTarget, run_red_team
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.offline.saga.red_team_offline import offline_red_team

MODEL = OfflineStructuredModel({RedTeamOutput: offline_red_team})

SOUND = RedTeamTarget(
    "good",
    "Cap the triage queue so that arrivals are rerouted before waits exceed 30 minutes.",
    "A queue length limit triggers diversion to the urgent-care clinic, smoothing the arrival rate.",
    "median door-to-doctor time in minutes per shift",
    ("Diversion fails when the clinic is also full.",),
    ("When the clinic is also full, diversion stalled in a 2019 audit.",),
    (),
    3,
)
VAGUE = RedTeamTarget("vague", "Make the hospital better at flow.", "Better flow.", "flow", (), (), (), 3)


async def test_a_measurable_ordered_idea_with_its_failure_mode_survives():
    run = await run_red_team(MODEL, [SOUND])
    assert run.findings == () and run.units == 3 and run.failed == 0


async def test_a_vague_idea_fails_and_says_why_offline():
    run = await run_red_team(MODEL, [VAGUE])
    (finding,) = run.findings
    assert finding.hypothesis_ids == ("vague",)
    assert set(finding.dimensions) == {"counterexample", "operationalizability", "simplification"}
    assert "Offline check:" in finding.message
    assert finding.suggested_constraint
    assert run.non_operational == ("vague",)


async def test_depth_follows_the_units():
    shallow = RedTeamTarget(**{**{f: getattr(VAGUE, f) for f in VAGUE.__dataclass_fields__}, "units": 1})
    assert shallow.challenges == (ChallengeKind.COUNTEREXAMPLE, ChallengeKind.OPERATIONALIZABILITY)
    run = await run_red_team(MODEL, [shallow])
    assert set(run.findings[0].dimensions) == {"counterexample", "operationalizability"}
    injected = RedTeamTarget(
        **{**{f: getattr(VAGUE, f) for f in VAGUE.__dataclass_fields__}, "injected": ("Why here?",)}
    )
    assert ChallengeKind.INJECTED in injected.challenges
