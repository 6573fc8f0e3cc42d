"""The offline model's contradiction cites the classic matrix cell it used."""

from __future__ import annotations

from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.explore.triz_library import detect_parameters
from forge.offline.frame.problem_frame import frame_problem
from forge.offline.phases.plan_explore import contradiction

KNOWLEDGE = load_shipped_knowledge()


def test_the_description_names_the_matrix_cell_and_its_principles_lead() -> None:
    frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
    improving, worsening = detect_parameters(KNOWLEDGE.triz, frame)
    cell = KNOWLEDGE.triz.matrix.lookup(improving.number, worsening.number)
    assert isinstance(cell, tuple) and cell
    made = contradiction(frame, KNOWLEDGE)
    assert f"improving #{improving.number} against worsening #{worsening.number}" in made["description"]
    assert f"recommends principles {', '.join(str(n) for n in cell)}." in made["description"]
    assert made["principles"][:2] == [KNOWLEDGE.triz.principles[n - 1].label for n in cell[:2]]
