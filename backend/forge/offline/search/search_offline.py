"""The offline SEARCH operators (refine, variant, combine, oppose, extreme) from the parents' own text and
the problem frame, in the explicit table OFFLINE_OPERATORS keyed by `SearchOperator`.

Invariants: deterministic; a child recombines phrases its parents and the frame contain, keeps their
mapping rows plus one row carrying the operator's change, and its mechanism says it was made offline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from forge.core.explore.mapping_quality_gate import MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.research.text_terms import term_set
from forge.core.search.plan import SearchOperator
from forge.engine.explore.biso import HypothesisDraft, MappingRowOut
from forge.engine.search.operators import OperatorOutput, SearchContext
from forge.offline.offline_structured_model import offline_context
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest


def offline_search(request: StructuredRequest[Any]) -> OperatorOutput:
    context = offline_context(request, SearchContext)
    return OperatorOutput(hypothesis=OFFLINE_OPERATORS[context.operator](context.parents, context.frame))


def target_of(frame: ProblemFrame) -> str:
    return frame.target_object or frame.target_outcome or frame.objective


def _levers(parent: Hypothesis, frame: ProblemFrame) -> list[str]:
    """The parent's target-side concepts sharing no term with the frame's objective and outcome, in
    table order; the parent's structure when there are none."""
    outcome = term_set(f"{frame.objective} {frame.target_outcome}")
    found = [r.target_concept.strip() for r in parent.mapping.rows if not term_set(r.target_concept) & outcome]
    return list(dict.fromkeys(c for c in found if c)) or [parent.structure]


def parent_rows(parent: Hypothesis) -> list[MappingRowOut]:
    return [MappingRowOut(**asdict(r)) for r in parent.mapping.rows]


def row(
    source: str, relation: str, target: str, target_relation: str, group: str, observable: str, higher: bool = False
) -> MappingRowOut:
    """A mapping row the operator adds (a relation, or a higher-order row tying the parents together)."""
    return MappingRowOut(
        source_concept=source,
        source_relation=shorten(relation, 200),
        target_concept=shorten(target, 120),
        target_relation=shorten(target_relation, 200),
        mapping_type=MappingType.HIGHER_ORDER if higher else MappingType.RELATION,
        systematicity_group=group,
        observable_link=shorten(observable, 200),
    )


def _extra_row(parent: Hypothesis, target: str, relation: str, group: str) -> MappingRowOut:
    return row(parent.structure, parent.mechanism, target, relation, group, parent.observable)


def offline_child(
    parents: tuple[Hypothesis, ...],
    made_by: str,
    title: str,
    statement: str,
    row: MappingRowOut,
    failure: str,
    structure: str = "",
) -> HypothesisDraft:
    """A child of one parent (its rows, failure modes) or of two (the first rows of each), with the row
    that carries the operator's change and a mechanism that says how it was made offline."""
    first, second = parents[0], parents[-1]
    if second is first:
        named, rows, failures = f"“{shorten(first.title, 60)}”", parent_rows(first), list(first.failure_modes)
    else:
        named = f"“{shorten(first.title, 40)}” and “{shorten(second.title, 40)}”"
        rows = [*parent_rows(first)[:4], *parent_rows(second)[:3]]
        failures = [*first.failure_modes[:1], *second.failure_modes[:1]]
    mechanisms = " ".join(dict.fromkeys((first.mechanism, second.mechanism)))
    return HypothesisDraft(
        title=shorten(title, 80),
        structure=structure or (first.structure if second is first else f"{first.structure} + {second.structure}"),
        statement=statement,
        mechanism=f"{mechanisms} (Offline {made_by} of {named}, not by a language model.)",
        mapping=[*rows, row],
        observable=first.observable,
        failure_modes=[failure, *failures],
    )


def _child(
    parent: Hypothesis, operator: SearchOperator, title: str, statement: str, extra: MappingRowOut, failure: str
) -> HypothesisDraft:
    made_by = f"{operator.value}: made from the parent's text and the problem frame"
    return offline_child((parent,), made_by, title, statement, extra, failure)


def refine(parents: tuple[Hypothesis, ...], frame: ProblemFrame) -> HypothesisDraft:
    parent, target = parents[0], target_of(frame)
    scope = next(iter((*frame.success_criteria, *frame.hard_constraints)), "the first measured period")
    statement = (
        f"{parent.structure} holds for {target} only within this scope: {scope}. Inside it, "
        f"{shorten(parent.observable, 160)} must pass a threshold fixed before the test."
    )
    extra = _extra_row(parent, scope, "bounds where the refined claim is expected to hold", "scope")
    failure = f"Outside the scope ({shorten(scope, 80)}) the refined claim says nothing."
    return _child(parent, SearchOperator.REFINE, f"Refined: {parent.title}", statement, extra, failure)


def variant(parents: tuple[Hypothesis, ...], frame: ProblemFrame) -> HypothesisDraft:
    parent, target = parents[0], target_of(frame)
    levers = _levers(parent, frame)
    first, other = levers[0], levers[-1] if len(levers) > 1 else (frame.stakeholders or ("another lever",))[0]
    statement = (
        f"Same {parent.structure} mechanism on {target}, different lever: act on {other} instead of {first}, "
        f"and expect {shorten(parent.observable, 140)} to move the same way."
    )
    extra = _extra_row(parent, other, f"takes the place of {first} as the lever acted on", "variant lever")
    failure = f"If only {shorten(first, 60)} moves the outcome, acting on {shorten(other, 60)} changes nothing."
    return _child(
        parent, SearchOperator.VARIANT, f"Variant ({shorten(other, 30)}): {parent.title}", statement, extra, failure
    )


def oppose(parents: tuple[Hypothesis, ...], frame: ProblemFrame) -> HypothesisDraft:
    parent, target = parents[0], target_of(frame)
    condition = shorten(parent.failure_modes[0].rstrip("."), 160) if parent.failure_modes else "its premises fail"
    statement = (
        f"Counter-hypothesis: {parent.structure} does not improve {target} where this holds: {condition}. "
        f"There {shorten(parent.observable, 120)} stays flat or worsens."
    )
    extra = _extra_row(parent, condition, "reverses or cancels the parent's effect", "counter-condition")
    failure = f"Refuted if {shorten(parent.observable, 100)} improves even where the counter-condition holds."
    return _child(parent, SearchOperator.OPPOSE, f"Against: {parent.title}", statement, extra, failure)


def extreme(parents: tuple[Hypothesis, ...], frame: ProblemFrame) -> HypothesisDraft:
    parent, target = parents[0], target_of(frame)
    lever = _levers(parent, frame)[0]
    limit = frame.hard_constraints[0] if frame.hard_constraints else "its zero and its maximum"
    statement = (
        f"Push {lever} to its boundary ({limit}) under {parent.structure}: at the limit, {target} saturates or "
        f"breaks, and {shorten(parent.observable, 120)} shows where."
    )
    extra = _extra_row(parent, lever, f"is driven to its boundary: {limit}", "boundary")
    failure = f"At the boundary the hard constraint ({shorten(limit, 80)}) may be violated before any gain shows."
    return _child(parent, SearchOperator.EXTREME, f"Extreme: {parent.title}", statement, extra, failure)


def combine(parents: tuple[Hypothesis, ...], frame: ProblemFrame) -> HypothesisDraft:
    first, second = parents[0], parents[-1]
    target = target_of(frame)
    statement = (
        f"Combine {first.structure} ({first.domain_name}) with {second.structure} ({second.domain_name}) on "
        f"{target}: both mechanisms are needed, so {shorten(first.observable, 100)} should move more than under "
        "either alone."
    )
    names = f"{first.structure} + {second.structure}"
    link = row(
        names,
        "two mechanisms acting on one system at once",
        target,
        "responds to both levers together",
        "combination",
        first.observable,
        higher=True,
    )
    failure = "If either mechanism alone explains the change, the combination adds nothing."
    made_by = "combine: made from the parents' text and the problem frame"
    return offline_child((first, second), made_by, names, statement, link, failure)


OFFLINE_OPERATORS: dict[SearchOperator, Callable[[tuple[Hypothesis, ...], ProblemFrame], HypothesisDraft]] = {
    SearchOperator.REFINE: refine,
    SearchOperator.VARIANT: variant,
    SearchOperator.COMBINE: combine,
    SearchOperator.OPPOSE: oppose,
    SearchOperator.EXTREME: extreme,
}
