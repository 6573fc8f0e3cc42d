"""TRIZ parameter detection and principle choice over the shipped 39 parameters and 40 principles."""

from __future__ import annotations

import pytest

from forge.core.explore.library_records import TrizKnowledge
from forge.knowledge.load_knowledge import load_triz
from forge.offline.explore.triz_library import (
    FALLBACK_PRINCIPLES,
    choose_principles,
    detect_parameters,
    principles_named,
)
from forge.offline.frame.problem_frame import frame_problem


@pytest.fixture(scope="module")
def triz() -> TrizKnowledge:
    return load_triz()


class TestDetectParameters:
    def test_shipped_library_is_complete(self, triz: TrizKnowledge) -> None:
        assert len(triz.parameters) == 39 and len(triz.principles) == 40

    def test_waiting_improves_loss_of_time_and_staff_protects_resources(self, triz: TrizKnowledge) -> None:
        improving, worsening = detect_parameters(
            triz, frame_problem("How can a hospital cut emergency wait times without more staff?")
        )
        assert (improving.number, improving.name) == (25, "Loss of Time")
        assert worsening.number == 26  # Quantity of substance

    def test_deaths_map_to_harmful_factors(self, triz: TrizKnowledge) -> None:
        improving, _ = detect_parameters(
            triz, frame_problem("How can a city keep heat-wave deaths down with a fixed budget?")
        )
        assert improving.number == 30  # External harm affects the object

    def test_churn_maps_to_stability_of_composition(self, triz: TrizKnowledge) -> None:
        improving, worsening = detect_parameters(
            triz, frame_problem("How can we reduce churn of open-source contributors?")
        )
        assert improving.number == 13
        assert worsening.number != improving.number

    def test_improving_and_worsening_always_differ(self, triz: TrizKnowledge) -> None:
        for problem in ("Why is this hard?", "How can we speed up drug discovery?", "Make it work"):
            improving, worsening = detect_parameters(triz, frame_problem(problem))
            assert improving.number != worsening.number


class TestChoosePrinciples:
    def test_matrix_principles_then_cue_matches(self, triz: TrizKnowledge) -> None:
        frame = frame_problem("How can we split the backlog into parts to reduce delay?")
        improving, worsening = detect_parameters(triz, frame)
        chosen = [p.number for p in choose_principles(triz, frame, improving, worsening, count=4)]
        cell = triz.matrix.lookup(improving.number, worsening.number)
        assert isinstance(cell, tuple)
        assert chosen[:2] == list(cell[:2])
        assert 1 in chosen  # Segmentation, cued by "split" and "parts"
        assert len(set(chosen)) == 4

    def test_without_cue_matches_the_fixed_fallbacks_follow_the_matrix(self, triz: TrizKnowledge) -> None:
        frame = frame_problem("Qwerty zxcv?")
        improving, worsening = detect_parameters(triz, frame)
        chosen = [p.number for p in choose_principles(triz, frame, improving, worsening, count=4)]
        cell = triz.matrix.lookup(improving.number, worsening.number)
        assert isinstance(cell, tuple)
        fallbacks = [n for n in FALLBACK_PRINCIPLES if n not in cell[:2]]
        assert chosen == [*cell[:2], *fallbacks][:4]

    def test_abstract_form_is_filled_with_the_target(self, triz: TrizKnowledge) -> None:
        segmentation = triz.principle(1)
        assert segmentation is not None
        assert "emergency wait times" in segmentation.applied_to("emergency wait times")

    def test_principles_are_found_by_their_labels(self, triz: TrizKnowledge) -> None:
        found = principles_named(triz, ["1. Segmentation", "10. Preliminary action"])
        assert [p.number for p in found] == [1, 10]


def test_the_matrix_cell_puts_its_first_two_principles_first(triz: TrizKnowledge) -> None:
    frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
    improving, worsening = detect_parameters(triz, frame)
    cell = triz.matrix.lookup(improving.number, worsening.number)
    assert isinstance(cell, tuple) and cell
    assert [p.number for p in choose_principles(triz, frame, improving, worsening)][:2] == list(cell[:2])
