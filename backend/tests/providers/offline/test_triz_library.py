"""TRIZ parameter detection and principle choice over the shipped 39 parameters and 40 principles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.providers.offline.offline_knowledge import DEFAULT_KNOWLEDGE_DIR
from forge.providers.offline.problem_frame import frame_problem
from forge.providers.offline.triz_library import (
    FALLBACK_PRINCIPLES,
    TrizLibrary,
    choose_principles,
    detect_parameters,
    load_triz,
    principles_named,
)


@pytest.fixture(scope="module")
def triz() -> TrizLibrary:
    return load_triz(DEFAULT_KNOWLEDGE_DIR)


class TestDetectParameters:
    def test_shipped_library_is_complete(self, triz: TrizLibrary) -> None:
        assert len(triz.parameters) == 39 and len(triz.principles) == 40

    def test_waiting_improves_loss_of_time_and_staff_protects_resources(self, triz: TrizLibrary) -> None:
        improving, worsening = detect_parameters(
            triz, frame_problem("How can a hospital cut emergency wait times without more staff?")
        )
        assert improving.name == "Loss of time"
        assert worsening.name == "Quantity of substance or matter"

    def test_deaths_map_to_harmful_factors(self, triz: TrizLibrary) -> None:
        improving, _ = detect_parameters(
            triz, frame_problem("How can a city keep heat-wave deaths down with a fixed budget?")
        )
        assert improving.name == "Object-affected harmful factors"

    def test_churn_maps_to_stability_of_composition(self, triz: TrizLibrary) -> None:
        improving, worsening = detect_parameters(
            triz, frame_problem("How can we reduce churn of open-source contributors?")
        )
        assert improving.number == 13
        assert worsening.number != improving.number

    def test_improving_and_worsening_always_differ(self, triz: TrizLibrary) -> None:
        for problem in ("Why is this hard?", "How can we speed up drug discovery?", "Make it work"):
            improving, worsening = detect_parameters(triz, frame_problem(problem))
            assert improving.number != worsening.number


class TestChoosePrinciples:
    def test_cue_matches_come_first_then_fallbacks_fill_up(self, triz: TrizLibrary) -> None:
        frame = frame_problem("How can we split the backlog into parts to reduce delay?")
        improving, worsening = detect_parameters(triz, frame)
        chosen = choose_principles(triz, frame, improving, worsening, count=4)
        assert chosen[0].name == "Segmentation"
        assert len({p.number for p in chosen}) == 4

    def test_without_cue_matches_the_fixed_fallbacks_are_used(self, triz: TrizLibrary) -> None:
        frame = frame_problem("Qwerty zxcv?")
        improving, worsening = detect_parameters(triz, frame)
        chosen = choose_principles(triz, frame, improving, worsening, count=4)
        assert tuple(p.number for p in chosen) == FALLBACK_PRINCIPLES

    def test_abstract_form_is_filled_with_the_target(self, triz: TrizLibrary) -> None:
        segmentation = triz.principle(1)
        assert segmentation is not None
        assert "emergency wait times" in segmentation.applied_to("emergency wait times")

    def test_principles_are_found_by_their_labels(self, triz: TrizLibrary) -> None:
        found = principles_named(triz, ["1. Segmentation", "10. Preliminary action"])
        assert [p.number for p in found] == [1, 10]


def test_a_shipped_matrix_puts_its_principles_first(tmp_path: Path) -> None:
    for name in ("triz_parameters.json", "triz_principles.json"):
        (tmp_path / name).write_text((DEFAULT_KNOWLEDGE_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "triz_matrix.json").write_text(json.dumps({"25,26": [35, 38]}), encoding="utf-8")
    triz = load_triz(tmp_path)
    frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
    improving, worsening = detect_parameters(triz, frame)
    assert [p.number for p in choose_principles(triz, frame, improving, worsening)][:2] == [35, 38]
