"""The matrix, not the model, gives a contradiction's principles once the parameters are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.core.explore.triz_contradiction import (
    TrizResolution,
    resolve_contradiction,
    resolve_parameter,
    resolve_principle,
)
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.knowledge.load_knowledge import KNOWLEDGE_DIR, load_triz

TRIZ = load_triz()
RAW = json.loads(Path(KNOWLEDGE_DIR, "triz_matrix.json").read_text(encoding="utf-8"))


def _resolved(improving: str, worsening: str, proposed: list[str] | None = None) -> TrizResolution:
    result = resolve_contradiction(TRIZ, improving, worsening, proposed or [])
    assert isinstance(result, TrizResolution), result
    return result


def _empty_cell() -> tuple[int, int]:
    return next((i, j) for i in range(1, 40) for j in range(1, 40) if i != j and RAW["matrix"][i - 1][j - 1] == [])


def test_every_off_diagonal_cell_gives_the_shipped_files_principles_in_matrix_order() -> None:
    names = {p["id"]: p["name"] for p in RAW["principles"]}
    for i in range(1, 40):
        for j in range(1, 40):
            if i == j:
                continue
            expected = RAW["matrix"][i - 1][j - 1]
            resolved = _resolved(str(i), str(j))
            assert resolved.cell.principles == tuple(expected)
            assert resolved.principles == tuple(f"{n}. {names[n]}" for n in expected)


def test_a_parameter_is_found_by_number_by_exact_name_or_by_both() -> None:
    speed = TRIZ.parameters[8]
    for reference in ("9", "#9", f"9 {speed.name}", f"9. {speed.name}", speed.name.upper(), f" {speed.name} "):
        assert resolve_parameter(TRIZ, reference) == speed, reference


def test_a_number_and_a_name_that_disagree_are_refused_not_guessed() -> None:
    assert resolve_parameter(TRIZ, f"9 {TRIZ.parameters[9].name}") is None
    assert resolve_parameter(TRIZ, "40") is None
    assert resolve_parameter(TRIZ, "fastness of things") is None


def test_an_unknown_parameter_is_refused_with_the_catalogue_to_choose_from() -> None:
    result = resolve_contradiction(TRIZ, "fastness", "9", [])
    assert isinstance(result, RuleViolation) and result.code is ErrorCode.INVALID_INPUT
    assert "improving_parameter 'fastness'" in result.message
    assert all(f"{p.number} {p.name}" in result.message for p in TRIZ.parameters)


def test_the_same_parameter_on_both_sides_is_a_physical_contradiction_not_a_cell() -> None:
    result = resolve_contradiction(TRIZ, "9", TRIZ.parameters[8].name, [])
    assert isinstance(result, RuleViolation) and "diagonal" in result.message
    assert "resolution_direction" in result.message


def test_the_models_own_real_principles_follow_the_cell_without_repeats() -> None:
    cell = RAW["matrix"][8][26]  # improving 9 against worsening 27
    assert cell, "the test needs a non-empty cell"
    inside = TRIZ.principle(cell[0])
    outside = next(p for p in TRIZ.principles if p.number not in cell)
    assert inside is not None
    resolved = _resolved("9", "27", [inside.name, f"{outside.number} {outside.name}", "Make it better"])
    assert resolved.principles[: len(cell)] == tuple(TRIZ.principles[n - 1].label for n in cell)
    assert resolved.added_by_model == (outside.label,)
    assert resolved.not_principles == ("Make it better",)
    assert resolved.principles == (*resolved.principles[: len(cell)], outside.label, "Make it better")


def test_where_the_classic_matrix_is_empty_the_models_principles_are_recorded() -> None:
    i, j = _empty_cell()
    resolved = _resolved(str(i), str(j), ["1 Segmentation", "35"])
    assert resolved.cell.principles == ()
    assert resolved.principles == (TRIZ.principles[0].label, TRIZ.principles[34].label)


@pytest.mark.parametrize("reference", ["35", "35. Parameter changes", "parameter changes"])
def test_a_principle_is_found_by_number_or_exact_name(reference: str) -> None:
    assert resolve_principle(TRIZ, reference) == TRIZ.principles[34]
