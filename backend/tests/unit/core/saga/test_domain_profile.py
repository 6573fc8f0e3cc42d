from forge.core.frame.problem_frame import ProblemFrame
from forge.core.saga.domain_profile import (
    ConstraintFlag,
    ProfiledText,
    build_profile,
    check_anti_patterns,
    check_hard_constraints,
    check_stale_ideas,
)
from forge.core.saga.records import FindingKind, Severity

FRAME = ProblemFrame(
    "Cut emergency waiting times",
    "emergency department",
    "waiting time",
    hard_constraints=("No new hires", "Budget under 50k"),
    domain_tags=("healthcare",),
)
SOTA = "Fast-track streams route low-acuity patients to a separate lane. Tiny."


def test_profile_carries_the_frames_hard_constraints_and_stale_ideas():
    profile = build_profile(FRAME, SOTA, [])
    assert profile.name == "healthcare"
    assert profile.hard_constraints == ("No new hires", "Budget under 50k")
    assert [s.text for s in profile.stale_ideas] == ["Fast-track streams route low-acuity patients to a separate lane."]


def test_a_hypothesis_proposing_what_is_forbidden_is_a_critical_violation():
    profile = build_profile(FRAME, SOTA, [])
    batch = [ProfiledText("h1", "Hire two triage nurses for the night shift"), ProfiledText("h2", "Queue by acuity")]
    finding = check_hard_constraints(profile, batch)
    assert finding is not None
    assert finding.kind is FindingKind.HARD_CONSTRAINT_VIOLATION and finding.severity is Severity.CRITICAL
    assert finding.hypothesis_ids == ("h1",)
    assert "h1 breaks “No new hires”: Offline word rule: proposes “hire two triage nurses”" in finding.message


def test_a_models_flags_replace_the_word_rule_and_their_reasons_reach_the_message():
    profile = build_profile(FRAME, SOTA, [])
    batch = [ProfiledText("h1", "Hire two triage nurses"), ProfiledText("h2", "Rent a mobile unit")]
    flags = [ConstraintFlag("h2", "Budget under 50k", "Renting a unit costs about 80k a year.")]
    finding = check_hard_constraints(profile, batch, flags)
    assert finding is not None and finding.hypothesis_ids == ("h2",)
    assert "h2 breaks “Budget under 50k”: Renting a unit costs about 80k a year." in finding.message
    assert check_hard_constraints(profile, batch, []) is None  # the model flagged nothing


def test_a_hypothesis_that_itself_avoids_the_forbidden_thing_is_fine():
    profile = build_profile(FRAME, SOTA, [])
    assert check_hard_constraints(profile, [ProfiledText("h", "Rebalance work without any hire")]) is None


def test_anti_patterns_suggest_a_constraint():
    finding = check_anti_patterns([ProfiledText("h1", "Use machine learning to predict arrivals")])
    assert finding is not None and finding.suggested_constraint
    assert check_anti_patterns([ProfiledText("h1", "Pool beds across wards by pheromone-like markers")]) is None


def test_stale_ideas_are_the_ones_close_to_the_state_of_the_art():
    profile = build_profile(FRAME, SOTA, [])
    stale = ProfiledText("old", "Route low-acuity patients to a separate fast-track lane")
    fresh = ProfiledText("new", "Borrow immune clonal selection to grow the triage rules that work")
    finding = check_stale_ideas(profile, [stale, fresh])
    assert finding is not None and finding.hypothesis_ids == ("old",)
    assert finding.statistic < 0.5
