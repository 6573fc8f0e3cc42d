"""One line of phase progress, with the counts the work gates use."""

from __future__ import annotations

from forge.core.domain_types import Phase
from forge.core.phases.phase_progress import phase_progress
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Assumption


def test_decompose_progress_counts_against_the_gate_minimums() -> None:
    s = ForgeState(problem="p")
    s.fundamentals = ["f"]
    s.assumptions = [Assumption("a"), Assumption("b")]
    assert phase_progress(s) == (
        "DECOMPOSE round 1: fundamentals done, state of the art missing, assumptions 2/3, reframings 0/3"
    )


def test_explore_progress_names_analogies_and_contradictions() -> None:
    s = ForgeState(problem="p")
    s.enter_phase(Phase.EXPLORE)
    assert phase_progress(s) == (
        "EXPLORE round 1: morphological box missing, analogies 0/2, contradictions 0/1, adjacent possible 0"
    )


def test_crystallize_progress_says_whether_the_document_exists() -> None:
    s = ForgeState(problem="p")
    s.enter_phase(Phase.CRYSTALLIZE)
    s.current_round = 1
    assert phase_progress(s) == "CRYSTALLIZE round 2: knowledge document missing"
