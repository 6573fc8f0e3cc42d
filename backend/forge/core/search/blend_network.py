"""Fauconnier–Turner conceptual blending (seed 000 §2.3, §4.2.3): two hypotheses are the input
spaces; a blend names the generic space they share, the cross-space mappings between them and the
emergent structures of the blend space.

Invariants:
    - A blend is usable (`check_blend` returns no problem) only when it has a generic space, at least
      `MIN_MAPPINGS` cross-space mappings, and at least one emergent structure; every emergent
      structure carries an observable link and a testable prediction.
    - Emergence is checked, not assumed: an emergent structure must draw on BOTH inputs — it shares a
      content term with input 1 that input 2 lacks, and one with input 2 that input 1 lacks. A
      structure that restates one input alone is not emergent.
    - Problems are returned as readable reasons (never raised); the caller turns them into a failed
      application.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.research.text_terms import term_set

MIN_MAPPINGS = 2


class CrossSpaceKind(str, Enum):
    IDENTITY = "identity"
    COMPRESSION = "compression"
    ELABORATION = "elaboration"
    COMPLETION = "completion"


@dataclass(frozen=True, slots=True)
class CrossSpaceMapping:
    input_1: str  # an element of input space 1 (the first parent)
    input_2: str  # its counterpart in input space 2 (the second parent)
    kind: CrossSpaceKind
    blended: str  # what the pair becomes in the blend


@dataclass(frozen=True, slots=True)
class EmergentStructure:
    description: str
    observable_link: str
    testable_prediction: str


@dataclass(frozen=True, slots=True)
class BlendNetwork:
    generic_space: tuple[str, ...]
    mappings: tuple[CrossSpaceMapping, ...]
    emergent: tuple[EmergentStructure, ...]


def check_blend(network: BlendNetwork, input_1_text: str, input_2_text: str) -> tuple[str, ...]:
    """Why this blend is not usable (empty when it is). `input_n_text` is each parent's own text."""
    problems: list[str] = []
    if not any(item.strip() for item in network.generic_space):
        problems.append("the generic space is empty: name the structure both inputs share")
    if len(network.mappings) < MIN_MAPPINGS:
        problems.append(f"at least {MIN_MAPPINGS} cross-space mappings are needed, got {len(network.mappings)}")
    if not network.emergent:
        problems.append("no emergent structure: the blend must produce something neither input has")
    only_1 = term_set(input_1_text) - term_set(input_2_text)
    only_2 = term_set(input_2_text) - term_set(input_1_text)
    for n, structure in enumerate(network.emergent, start=1):
        problems.extend(_emergent_problems(n, structure, only_1, only_2))
    return tuple(problems)


def _emergent_problems(
    n: int, structure: EmergentStructure, only_1: frozenset[str], only_2: frozenset[str]
) -> Sequence[str]:
    problems = []
    if not structure.observable_link.strip():
        problems.append(f"emergent structure {n} has no observable link")
    if not structure.testable_prediction.strip():
        problems.append(f"emergent structure {n} has no testable prediction")
    terms = term_set(structure.description)
    if not (terms & only_1 and terms & only_2):
        problems.append(f"emergent structure {n} does not draw on both inputs (it restates one of them)")
    return problems
