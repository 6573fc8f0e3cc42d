"""identify_contradictions records the matrix cell the model's parameters name, for every model."""

from __future__ import annotations

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phases.explore_tools import ContradictionInput, identify_contradictions
from forge.agent.tool_context import ToolContext
from forge.core.document.render import DocumentInput, render_knowledge_document
from forge.core.domain_types import SessionId
from forge.core.explore.library_records import TrizKnowledge
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.knowledge.load_knowledge import load_triz

TRIZ = load_triz()


def _context(triz: TrizKnowledge | None = TRIZ) -> ToolContext:
    ids = CountingIds()
    state = ForgeState(problem="How can a bakery bake faster without losing crust quality?")
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "scripted", triz)


def _input(**extra: object) -> ContradictionInput:
    return ContradictionInput.model_validate(
        {
            "property_a": "baking speed",
            "property_b": "crust quality",
            "description": "A hotter oven bakes faster but burns the crust.",
            "resolution_direction": "Separate in time: high heat first, then a lower finishing heat.",
            **extra,
        }
    )


async def test_named_parameters_record_the_cells_principles_and_the_models_additions() -> None:
    ctx = _context()
    cell = TRIZ.matrix.lookup(9, 27)
    assert isinstance(cell, tuple) and cell
    extra = next(p for p in TRIZ.principles if p.number not in cell)
    outcome = await identify_contradictions(
        ctx, _input(improving_parameter="9", worsening_parameter="Reliability", principles=[extra.label])
    )
    assert outcome.violation is None
    recorded = ctx.state.contradictions[0]
    assert recorded.matrix_cell is not None
    assert (recorded.matrix_cell.improving, recorded.matrix_cell.worsening) == (9, 27)
    assert recorded.matrix_cell.principles == cell
    assert recorded.principles == (*(TRIZ.principles[n - 1].label for n in cell), extra.label)
    assert outcome.payload["matrix_cell"] == [9, 27]
    assert outcome.payload["your_additions"] == [extra.label]


async def test_without_parameters_the_models_principles_are_recorded_as_before() -> None:
    ctx = _context()
    outcome = await identify_contradictions(ctx, _input(principles=["15 Dynamics"]))
    assert outcome.violation is None
    assert ctx.state.contradictions[0].principles == ("15 Dynamics",)
    assert ctx.state.contradictions[0].matrix_cell is None


async def test_one_parameter_alone_is_refused_and_nothing_is_recorded() -> None:
    ctx = _context()
    outcome = await identify_contradictions(ctx, _input(improving_parameter="9"))
    assert outcome.violation is not None and outcome.violation.code is ErrorCode.INVALID_INPUT
    assert "worsening_parameter" in outcome.violation.message
    assert ctx.state.contradictions == []


async def test_an_unknown_parameter_is_refused_with_the_list_and_nothing_is_recorded() -> None:
    ctx = _context()
    outcome = await identify_contradictions(ctx, _input(improving_parameter="oven heat", worsening_parameter="27"))
    assert outcome.violation is not None and "39 TRIZ engineering parameters" in outcome.violation.message
    assert ctx.state.contradictions == []


async def test_a_context_without_the_matrix_says_so_rather_than_dropping_the_cell() -> None:
    ctx = _context(triz=None)
    outcome = await identify_contradictions(ctx, _input(improving_parameter="9", worsening_parameter="27"))
    assert outcome.violation is not None and outcome.violation.code is ErrorCode.TOOL_FAILED


async def test_the_document_names_the_cell_used() -> None:
    ctx = _context()
    await identify_contradictions(ctx, _input(improving_parameter="9", worsening_parameter="27"))
    document = render_knowledge_document(DocumentInput("s-1", ctx.state, "scripted", FixedClock().now()))
    speed, reliability = TRIZ.parameters[8].name, TRIZ.parameters[26].name
    assert f"TRIZ matrix cell: improving #9 {speed} against worsening #27 {reliability}" in document
