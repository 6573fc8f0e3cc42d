"""The Transform Gate (seed 000 §4.2.4): every `transform_space` proposal is PROPOSED, then ACCEPTED
or REJECTED — a structural audit (op whitelist, what the op may target, fixed assumptions and hard
constraints untouchable, the proposal quotes what it changes), then the logic verifier's verdict.

Invariants:
    - Nothing is accepted unverified: a proposal is ACCEPTED only when the audit found no reason
      AND a logic verdict exists and passes (all three dimensions ≥ 6). No verdict (the call
      failed, or the audit already rejected it) means REJECTED when the gate closes.
    - A proposal that targets a hard constraint or a fixed assumption is always rejected, whatever
      the op and whatever the verdict.
    - Rejected proposals keep their reasons: they are audit records, never pool hypotheses.
    - `OP_TARGETS` is the explicit table of which element kinds each op may change; `add_new_primitive`
      changes nothing that exists (its target id is empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.research.text_terms import term_set
from forge.core.search.concept_space import ConceptSpace, ElementKind, SpaceOrigin, TransformOp
from forge.core.verify.verdicts import LogicVerdict

MIN_QUOTE_OVERLAP = 0.5
PROTECTED = frozenset({ElementKind.HARD_CONSTRAINT, ElementKind.FIXED_ASSUMPTION})
OP_TARGETS: dict[TransformOp, frozenset[ElementKind]] = {
    TransformOp.DROP_CONSTRAINT: frozenset({ElementKind.SOFT_PREFERENCE}),
    TransformOp.RELAX_THRESHOLD: frozenset({ElementKind.SOFT_PREFERENCE, ElementKind.MUTABLE_ASSUMPTION}),
    TransformOp.CHANGE_REPRESENTATION: frozenset({ElementKind.PRIMITIVE, ElementKind.RELATION}),
    TransformOp.SWAP_CAUSAL_DIRECTION: frozenset({ElementKind.RELATION}),
    TransformOp.ADD_NEW_PRIMITIVE: frozenset(),
    TransformOp.MERGE_PRIMITIVES: frozenset({ElementKind.PRIMITIVE}),
    TransformOp.SPLIT_PROCESS: frozenset({ElementKind.RELATION, ElementKind.PRIMITIVE}),
    TransformOp.NEGATE_ASSUMPTION: frozenset({ElementKind.MUTABLE_ASSUMPTION}),
}


class TransformStatus(str, Enum):
    PROPOSED = "proposed"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class TransformProposal:
    op: TransformOp
    target_id: str  # the element changed ("" for add_new_primitive)
    before: str  # the element as the space states it
    after: str  # what it becomes
    rationale: str


@dataclass(frozen=True, slots=True)
class TransformRecord:
    """A proposal and what the gate decided, with the reasons and the logic scores it used."""

    proposal_id: str
    parent: str  # the hypothesis id the proposal transforms
    space_id: str
    space_origin: SpaceOrigin
    proposal: TransformProposal
    status: TransformStatus
    reasons: tuple[str, ...] = ()
    logic: tuple[float, float, float] | None = None  # analogy validity, internal consistency, causal rigor


def audit_transform(proposal: TransformProposal, space: ConceptSpace) -> tuple[str, ...]:
    """Why the proposal may not change this space (empty when the structure allows it)."""
    if proposal.op not in space.allowed_ops:
        return (f"operation {proposal.op.value} is not in this space's allowed operations",)
    allowed = OP_TARGETS[proposal.op]
    if not allowed:
        return () if not proposal.target_id.strip() else (f"{proposal.op.value} adds a primitive; it targets nothing",)
    kind = space.kinds().get(proposal.target_id)
    element = space.element(proposal.target_id)
    if kind is None or element is None:
        return (f"{proposal.target_id or '(no target)'} is not an element of this space",)
    if kind in PROTECTED:
        return (f"{proposal.target_id} is a {kind.value.replace('_', ' ')}: it may never be transformed",)
    reasons = []
    if kind not in allowed:
        reasons.append(f"{proposal.op.value} cannot change a {kind.value.replace('_', ' ')} ({proposal.target_id})")
    if _overlap(proposal.before, element.text) < MIN_QUOTE_OVERLAP:
        reasons.append(f"`before` does not state {proposal.target_id} as the space does: «{element.text}»")
    if term_set(proposal.after) == term_set(element.text):
        reasons.append("`after` says the same as `before`: nothing is transformed")
    return tuple(reasons)


def close_gate(
    proposal_id: str,
    parent: str,
    space: ConceptSpace,
    proposal: TransformProposal,
    audit: Sequence[str],
    verdict: LogicVerdict | None,
) -> TransformRecord:
    """The gate's decision from the audit's reasons and the logic verdict (None: none was obtained)."""
    reasons = list(audit)
    if not reasons and verdict is None:
        reasons.append("no logic verdict could be obtained: a transform is never accepted unverified")
    if verdict is not None and not verdict.passed:
        dims = ", ".join(f"{d:.1f}" for d in verdict.dims)
        reasons.append(f"the logic check failed (validity, consistency, rigor = {dims}; each must be ≥ 6)")
    status = TransformStatus.REJECTED if reasons else TransformStatus.ACCEPTED
    logic = verdict.dims if verdict is not None else None
    return TransformRecord(proposal_id, parent, space.domain_id, space.origin, proposal, status, tuple(reasons), logic)


def _overlap(a: str, b: str) -> float:
    mine, theirs = term_set(a), term_set(b)
    return len(mine & theirs) / len(theirs) if theirs else 0.0
