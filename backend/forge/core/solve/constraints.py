"""Solve's constraints (seed 000 §6.4): the structured ConstraintSpec, the library built from a
session, and the ConstraintCompiler that decides what each prompt carries.

Invariants:
    - The person's constraints (origin USER) are never pruned and never deduplicated away; a limit
      the frame quotes word for word from the problem statement is the person's too.
    - The library holds at most `LIBRARY_CAP` (15) constraints; when it would hold more, the
      non-user constraints of lowest priority, then lowest weight, then newest, are pruned first.
      If the person's constraints alone exceed the cap, they are all kept (the cap yields).
    - The compiler splits the library into the HardCore (every hard constraint, always injected,
      repeated at the start and the end of a prompt) and the ActiveSoftSet: between
      `MIN_ACTIVE_SOFT` (3, or fewer when fewer exist) and `MAX_ACTIVE_SOFT` (6) soft constraints
      ranked by relevance = priority rank + weight + term overlap with the round's focus text. The
      first three are always active; the rest only when they share terms with the focus.
    - Deduplication and repeated-risk detection take a `Similarity` (0..1): lexical term Jaccard
      by default, an embedding cosine when the shell passes one. Pure and deterministic either way.
    - Conflicts between constraints are found by the CP-1 audit (`audit_constraints`): opposite
      polarity on one subject, or numeric bounds nothing satisfies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.frame.audit_constraints import Constraint, ConstraintFindingKind, ConstraintKind, audit_constraints
from forge.core.frame.problem_constraints import split_constraints
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.research.text_terms import term_set

LIBRARY_CAP = 15
MIN_ACTIVE_SOFT = 3
MAX_ACTIVE_SOFT = 6
DUPLICATE_SIMILARITY = 0.5

Similarity = Callable[[str, str], float]


class ConstraintPriority(str, Enum):
    CRITICAL = "critical"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


PRIORITY_RANK: dict[ConstraintPriority, int] = {
    ConstraintPriority.CRITICAL: 3,
    ConstraintPriority.HIGH: 2,
    ConstraintPriority.MEDIUM: 1,
    ConstraintPriority.LOW: 0,
}


class ConstraintType(str, Enum):
    HARD = "hard"  # violation = rejection
    SOFT = "soft"  # violation = penalty


class ConstraintOrigin(str, Enum):
    USER = "user"
    DOMAIN = "domain"  # the problem frame's own reading of the problem
    RISK_REFINEMENT = "risk_refinement"  # an unresolved high risk of Solve's outer loop


@dataclass(frozen=True, slots=True)
class ConstraintSpec:
    text: str
    priority: ConstraintPriority
    type: ConstraintType
    origin: ConstraintOrigin
    weight: float  # 0..1

    @property
    def is_hard(self) -> bool:
        return self.type is ConstraintType.HARD


def term_jaccard(a: str, b: str) -> float:
    """Lexical similarity: the Jaccard overlap of the two texts' content terms (0 when either has none)."""
    terms_a, terms_b = term_set(a), term_set(b)
    if not terms_a or not terms_b:
        return 0.0
    return len(terms_a & terms_b) / len(terms_a | terms_b)


def _user(text: str) -> ConstraintSpec:
    return ConstraintSpec(text, ConstraintPriority.CRITICAL, ConstraintType.HARD, ConstraintOrigin.USER, 1.0)


def session_constraints(problem: str, frame: ProblemFrame | None) -> tuple[ConstraintSpec, ...]:
    """The library a session starts Solve with: the person's limits, then the frame's hard and soft ones."""
    parts = split_constraints(problem)
    statement = " ".join(parts.statement.lower().split())
    specs = [_user(c) for c in parts.constraints]
    if frame is not None:
        for text in frame.hard_constraints:
            if " ".join(text.lower().split()) in statement:
                specs.append(_user(text))
            else:
                specs.append(
                    ConstraintSpec(text, ConstraintPriority.HIGH, ConstraintType.HARD, ConstraintOrigin.DOMAIN, 0.8)
                )
        specs += [
            ConstraintSpec(text, ConstraintPriority.MEDIUM, ConstraintType.SOFT, ConstraintOrigin.DOMAIN, 0.5)
            for text in frame.soft_constraints
        ]
    return add_constraints((), specs).library


@dataclass(frozen=True, slots=True)
class Addition:
    library: tuple[ConstraintSpec, ...]
    added: tuple[ConstraintSpec, ...]
    duplicates: tuple[ConstraintSpec, ...]  # refused: they say what the library already says
    pruned: tuple[ConstraintSpec, ...]  # dropped by the library cap


def add_constraints(
    library: Sequence[ConstraintSpec],
    new: Iterable[ConstraintSpec],
    similarity: Similarity = term_jaccard,
    cap: int = LIBRARY_CAP,
) -> Addition:
    """The library with `new` appended, semantic duplicates refused (a user constraint is only
    refused when it repeats another user constraint verbatim), then capped."""
    kept = list(library)
    added: list[ConstraintSpec] = []
    duplicates: list[ConstraintSpec] = []
    for spec in new:
        if _is_duplicate(spec, kept, similarity):
            duplicates.append(spec)
            continue
        kept.append(spec)
        added.append(spec)
    capped, pruned = cap_library(kept, cap)
    return Addition(capped, tuple(a for a in added if a in capped), tuple(duplicates), pruned)


def _is_duplicate(spec: ConstraintSpec, library: Sequence[ConstraintSpec], similarity: Similarity) -> bool:
    if spec.origin is ConstraintOrigin.USER:
        return any(c.origin is ConstraintOrigin.USER and c.text.lower() == spec.text.lower() for c in library)
    return any(
        c.text.lower() == spec.text.lower() or similarity(c.text, spec.text) >= DUPLICATE_SIMILARITY for c in library
    )


def cap_library(
    library: Sequence[ConstraintSpec], cap: int = LIBRARY_CAP
) -> tuple[tuple[ConstraintSpec, ...], tuple[ConstraintSpec, ...]]:
    """(kept in their order, pruned): user constraints always stay; others go lowest-value first."""
    prunable = [(i, c) for i, c in enumerate(library) if c.origin is not ConstraintOrigin.USER]
    excess = max(0, len(library) - cap)
    # lowest priority first, then lowest weight, then the newest
    prunable.sort(key=lambda ic: (PRIORITY_RANK[ic[1].priority], ic[1].weight, -ic[0]))
    dropped = {i for i, _ in prunable[:excess]}
    kept = tuple(c for i, c in enumerate(library) if i not in dropped)
    return kept, tuple(c for i, c in enumerate(library) if i in dropped)


@dataclass(frozen=True, slots=True)
class CompiledConstraints:
    hard_core: tuple[ConstraintSpec, ...]
    active_soft: tuple[ConstraintSpec, ...]
    dormant_soft: tuple[ConstraintSpec, ...]  # soft constraints not active this round


def relevance(spec: ConstraintSpec, focus: str) -> float:
    return PRIORITY_RANK[spec.priority] + spec.weight + 4 * term_jaccard(spec.text, focus)


def compile_constraints(library: Sequence[ConstraintSpec], focus: str) -> CompiledConstraints:
    """HardCore + ActiveSoftSet for a round whose work is about `focus`."""
    hard = tuple(c for c in library if c.is_hard)
    soft = [c for c in library if not c.is_hard]
    ranked = sorted(range(len(soft)), key=lambda i: (-relevance(soft[i], focus), i))
    active_idx = ranked[:MIN_ACTIVE_SOFT]
    active_idx += [i for i in ranked[MIN_ACTIVE_SOFT:] if term_jaccard(soft[i].text, focus) > 0][
        : MAX_ACTIVE_SOFT - MIN_ACTIVE_SOFT
    ]
    chosen = set(active_idx)
    active = tuple(soft[i] for i in active_idx)
    return CompiledConstraints(hard, active, tuple(c for i, c in enumerate(soft) if i not in chosen))


def _hard_block(compiled: CompiledConstraints) -> list[str]:
    if not compiled.hard_core:
        return ["HARD CONSTRAINTS: none stated."]
    return [
        "HARD CONSTRAINTS (a solution that breaks one is rejected):",
        *(f"- [{c.origin.value}] {c.text}" for c in compiled.hard_core),
    ]


def wrap_prompt(compiled: CompiledConstraints, body: str) -> str:
    """The prompt input: HardCore, ActiveSoftSet, the body, then the HardCore again (against the
    model forgetting the middle of a long prompt)."""
    soft = [f"- [{c.priority.value}] {c.text}" for c in compiled.active_soft]
    lines = [*_hard_block(compiled)]
    if soft:
        lines += ["", "SOFT CONSTRAINTS active this round (violations are penalised):", *soft]
    lines += ["", body.strip(), "", "REMINDER — " + _hard_block(compiled)[0], *_hard_block(compiled)[1:]]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ConstraintConflict:
    first: ConstraintSpec
    second: ConstraintSpec
    message: str


def constraint_conflicts(library: Sequence[ConstraintSpec]) -> tuple[ConstraintConflict, ...]:
    kinds = {ConstraintType.HARD: ConstraintKind.HARD, ConstraintType.SOFT: ConstraintKind.SOFT}
    audit = audit_constraints([Constraint(c.text, kinds[c.type]) for c in library])
    return tuple(
        ConstraintConflict(library[f.indices[0]], library[f.indices[1]], f.message)
        for f in audit.of_kind(ConstraintFindingKind.CONFLICT)
    )
