"""Boden's conceptual space of a target domain (seed 000 §2.2, §4.2.4): the primitives, relations,
constraints and assumptions that define what counts as a solution there, and the transformation
operations allowed on it.

Invariants:
    - Every element has an id unique within its space (`p:`, `r:`, `hc:`, `sp:`, `af:`, `am:`
      prefixes), so a transform names exactly what it changes.
    - Hard constraints and fixed assumptions are constitutive: no transform may target them (the
      Transform Gate enforces it). A shipped space keeps the frame's own hard constraints as hard
      constraints too: the person's limits are never relaxed by a transform.
    - A derived space never offers as mutable an assumption that carries a hard constraint's words
      (a scope quoting the problem would otherwise let a transform relax the person's limit).
    - `resolve_concept_space`: a shipped space whose cue terms match the problem (at least
      `MIN_CUE_MATCHES` of them, best match first, ties by id) is used; otherwise one is derived
      from the frame, and says so (`origin`). Pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.research.text_terms import term_set

MIN_CUE_MATCHES = 2


class TransformOp(str, Enum):
    DROP_CONSTRAINT = "drop_constraint"
    RELAX_THRESHOLD = "relax_threshold"
    CHANGE_REPRESENTATION = "change_representation"
    SWAP_CAUSAL_DIRECTION = "swap_causal_direction"
    ADD_NEW_PRIMITIVE = "add_new_primitive"
    MERGE_PRIMITIVES = "merge_primitives"
    SPLIT_PROCESS = "split_process"
    NEGATE_ASSUMPTION = "negate_assumption"


class ElementKind(str, Enum):
    PRIMITIVE = "primitive"
    RELATION = "relation"
    HARD_CONSTRAINT = "hard_constraint"
    SOFT_PREFERENCE = "soft_preference"
    FIXED_ASSUMPTION = "fixed_assumption"
    MUTABLE_ASSUMPTION = "mutable_assumption"


class SpaceOrigin(str, Enum):
    SHIPPED = "shipped"
    DERIVED = "derived"  # from the problem frame, when no shipped space fits


@dataclass(frozen=True, slots=True)
class SpaceElement:
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class ConceptSpace:
    domain_id: str
    name: str
    origin: SpaceOrigin
    cue_terms: tuple[str, ...]
    primitives: tuple[SpaceElement, ...]
    relations: tuple[SpaceElement, ...]
    hard_constraints: tuple[SpaceElement, ...]
    soft_preferences: tuple[SpaceElement, ...]
    assumptions_fixed: tuple[SpaceElement, ...]
    assumptions_mutable: tuple[SpaceElement, ...]
    allowed_ops: tuple[TransformOp, ...]

    def kinds(self) -> dict[str, ElementKind]:
        """Every element id with its kind."""
        groups = (
            (self.primitives, ElementKind.PRIMITIVE),
            (self.relations, ElementKind.RELATION),
            (self.hard_constraints, ElementKind.HARD_CONSTRAINT),
            (self.soft_preferences, ElementKind.SOFT_PREFERENCE),
            (self.assumptions_fixed, ElementKind.FIXED_ASSUMPTION),
            (self.assumptions_mutable, ElementKind.MUTABLE_ASSUMPTION),
        )
        return {e.id: kind for elements, kind in groups for e in elements}

    def element(self, element_id: str) -> SpaceElement | None:
        everything = (
            *self.primitives,
            *self.relations,
            *self.hard_constraints,
            *self.soft_preferences,
            *self.assumptions_fixed,
            *self.assumptions_mutable,
        )
        return next((e for e in everything if e.id == element_id), None)


def elements(prefix: str, texts: Sequence[str]) -> tuple[SpaceElement, ...]:
    return tuple(SpaceElement(f"{prefix}:{n}", text) for n, text in enumerate(texts, start=1) if text.strip())


def with_frame_constraints(space: ConceptSpace, frame: ProblemFrame) -> ConceptSpace:
    """The space with the frame's hard constraints added as hard constraints (`hc:frame-<n>`)."""
    own = {e.text.casefold() for e in space.hard_constraints}
    extra = tuple(
        SpaceElement(f"hc:frame-{n}", text)
        for n, text in enumerate(frame.hard_constraints, start=1)
        if text.casefold() not in own
    )
    return replace(space, hard_constraints=(*space.hard_constraints, *extra))


def derive_concept_space(frame: ProblemFrame) -> ConceptSpace:
    """A space read off the frame: its target and stakeholders are the primitives, its constraints
    and success criteria what may not change, the usual framing choices what may."""
    target = frame.target_object or frame.objective
    outcome = frame.target_outcome or frame.objective
    mutable = [
        f"the scope stays as framed: {frame.scope}" if frame.scope else f"{target} is handled as one whole",
        f"{target} changes only through the levers it has today",
        f"the present order of steps around {target} is kept",
        *(f"{s} keep acting as they do today" for s in frame.stakeholders[:1]),
    ]
    mutable = [m for m in mutable if not _restates_any(m, frame.hard_constraints)]
    return ConceptSpace(
        domain_id="derived",
        name=f"Derived from the problem frame: {target}",
        origin=SpaceOrigin.DERIVED,
        cue_terms=(),
        primitives=elements("p", [target, outcome, *frame.stakeholders[:3]]),
        relations=elements("r", [f"levers on {target} move {outcome}"]),
        hard_constraints=elements("hc", frame.hard_constraints),
        soft_preferences=elements("sp", frame.soft_constraints),
        assumptions_fixed=elements("af", [f"the objective stands: {frame.objective}", *frame.success_criteria]),
        assumptions_mutable=elements("am", mutable),
        allowed_ops=tuple(op for op in TransformOp if op is not TransformOp.DROP_CONSTRAINT or frame.soft_constraints),
    )


def _restates_any(text: str, protected: Sequence[str]) -> bool:
    """True when `text` carries most of the words of a protected element (it may not be mutable)."""
    words = term_set(text)
    return any(term_set(p) and len(term_set(p) & words) >= 0.5 * len(term_set(p)) for p in protected)


def cue_matches(space: ConceptSpace, problem_terms: frozenset[str]) -> int:
    return sum(1 for cue in space.cue_terms if term_set(cue) and term_set(cue) <= problem_terms)


def resolve_concept_space(frame: ProblemFrame, problem: str, shipped: Sequence[ConceptSpace]) -> ConceptSpace:
    """The shipped space that fits the problem best (with the frame's hard constraints), else a derived one."""
    text = " ".join((problem, frame.objective, frame.target_object, frame.target_outcome, *frame.domain_tags))
    terms = term_set(text)
    scored = sorted(((cue_matches(s, terms), s.domain_id, s) for s in shipped), key=lambda t: (-t[0], t[1]))
    if scored and scored[0][0] >= MIN_CUE_MATCHES:
        return with_frame_constraints(scored[0][2], frame)
    return derive_concept_space(frame)


def space_prompt_text(space: ConceptSpace) -> str:
    """The space for a prompt: every element with its id and what may (not) be changed."""

    def block(title: str, elements: Sequence[SpaceElement]) -> str:
        return f"{title}:\n" + ("\n".join(f"  {e.id}: {e.text}" for e in elements) or "  (none)")

    return "\n".join(
        (
            f"Concept space «{space.name}» ({space.origin.value}).",
            block("Primitives", space.primitives),
            block("Relations", space.relations),
            block("Hard constraints (NEVER change)", space.hard_constraints),
            block("Soft preferences", space.soft_preferences),
            block("Fixed assumptions (NEVER change)", space.assumptions_fixed),
            block("Mutable assumptions (transformation targets)", space.assumptions_mutable),
            "Allowed operations: " + ", ".join(op.value for op in space.allowed_ops),
        )
    )
