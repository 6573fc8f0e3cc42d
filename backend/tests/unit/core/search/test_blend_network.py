"""The blend check: a generic space, two cross-space mappings, and emergent structures that draw on
both inputs, each with an observable link and a testable prediction."""

from __future__ import annotations

from forge.core.search.blend_network import (
    BlendNetwork,
    CrossSpaceKind,
    CrossSpaceMapping,
    EmergentStructure,
    check_blend,
)

INPUT_1 = "a queue buffer absorbs arrival bursts at the triage desk"
INPUT_2 = "a feedback loop adjusts staffing to the measured backlog"
MAPPINGS = (
    CrossSpaceMapping("buffer", "backlog", CrossSpaceKind.COMPRESSION, "waiting patients"),
    CrossSpaceMapping("arrival bursts", "measured backlog", CrossSpaceKind.ELABORATION, "surge signal"),
)
EMERGENT = EmergentStructure("a buffer whose size the feedback loop sets", "buffer size per hour", "waits fall")


def test_a_complete_blend_drawing_on_both_inputs_is_usable() -> None:
    assert check_blend(BlendNetwork(("a flow under a limit",), MAPPINGS, (EMERGENT,)), INPUT_1, INPUT_2) == ()


def test_an_emergent_structure_restating_one_input_is_not_emergent() -> None:
    one_sided = EmergentStructure("a queue buffer absorbs bursts", "size", "waits fall")
    (problem,) = check_blend(BlendNetwork(("flow",), MAPPINGS, (one_sided,)), INPUT_1, INPUT_2)
    assert "does not draw on both inputs" in problem


def test_missing_parts_are_each_reported() -> None:
    bare = EmergentStructure("a buffer whose size the feedback loop sets", "", " ")
    problems = check_blend(BlendNetwork((" ",), MAPPINGS[:1], (bare,)), INPUT_1, INPUT_2)
    assert len(problems) == 4
    assert any("generic space is empty" in p for p in problems) and any("at least 2" in p for p in problems)
    assert any("no observable link" in p for p in problems) and any("no testable prediction" in p for p in problems)
    assert "no emergent structure" in check_blend(BlendNetwork(("x",), MAPPINGS, ()), INPUT_1, INPUT_2)[0]
