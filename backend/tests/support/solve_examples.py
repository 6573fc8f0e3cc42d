"""Shared inputs of the Solve tests: the person's hard limit and the material of a session with no claims."""

from __future__ import annotations

from forge.core.solve.constraints import ConstraintOrigin, ConstraintPriority, ConstraintSpec, ConstraintType
from forge.engine.solve.requests import SolveMaterial

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def person_limit(text: str) -> ConstraintSpec:
    return ConstraintSpec(text, ConstraintPriority.CRITICAL, ConstraintType.HARD, ConstraintOrigin.USER, 1.0)


LIMIT = person_limit("without more staff")
MATERIAL = SolveMaterial(PROBLEM, "Cut wait times", (), (), ())
