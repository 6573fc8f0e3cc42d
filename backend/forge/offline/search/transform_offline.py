"""The offline `transform_space` and its logic check: one rule of the concept space changed, chosen by
fixed preferences, and a rule-based verdict on the result.

Invariants:
    - Proposal: among the allowed operations, in the order negate a mutable assumption, relax a soft
      preference, split a relation, change a primitive's representation, the (op, element) whose
      text shares the most words with the parent wins (ties: that order, then the space's order).
      Hard constraints and fixed assumptions are never candidates. No candidate → `add_new_primitive`.
    - Logic check (rules, not a model, and it says so in its reasons): analogy validity = the
      mapping-quality rule layer's score of the transformed hypothesis's own table against its own
      statement, observable and failure modes (does the structure still map onto the new space); internal consistency = 8 when the
      hypothesis names the changed element, 4 when not, − 4 when `after` restates a protected
      element; causal rigor = 5 + 1 per concrete failure mode (up to 9), 3 when the mechanism drops
      the parent's structure.
"""

from __future__ import annotations

from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.hypotheses.pool import Hypothesis, gate_summary
from forge.core.research.text_terms import content_terms, term_set
from forge.core.search.concept_space import ConceptSpace, SpaceElement, TransformOp
from forge.engine.explore.biso import HypothesisDraft, MappingRowOut
from forge.engine.search.transform_space import LogicCheckContext, LogicCheckOutput, TransformContext, TransformOutput
from forge.offline.search.search_offline import parent_rows, target_of
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest

_AFTER: dict[TransformOp, str] = {
    TransformOp.NEGATE_ASSUMPTION: "no longer assumed: the opposite is allowed ({text})",
    TransformOp.RELAX_THRESHOLD: "relaxed into a range to trade against ({text})",
    TransformOp.SPLIT_PROCESS: "split into two stages acted on separately ({text})",
    TransformOp.CHANGE_REPRESENTATION: "represented as a flow over time rather than a fixed quantity ({text})",
}


def _candidates(space: ConceptSpace) -> list[tuple[TransformOp, SpaceElement]]:
    groups = (
        (TransformOp.NEGATE_ASSUMPTION, space.assumptions_mutable),
        (TransformOp.RELAX_THRESHOLD, space.soft_preferences),
        (TransformOp.SPLIT_PROCESS, space.relations),
        (TransformOp.CHANGE_REPRESENTATION, space.primitives),
    )
    return [(op, e) for op, elements in groups if op in space.allowed_ops for e in elements]


def _choice(space: ConceptSpace, parent: Hypothesis) -> tuple[TransformOp, SpaceElement | None]:
    words = term_set(f"{parent.statement} {parent.mechanism} {parent.structure}")
    ranked = sorted(enumerate(_candidates(space)), key=lambda c: (-len(term_set(c[1][1].text) & words), c[0]))
    if not ranked:
        return TransformOp.ADD_NEW_PRIMITIVE, None
    return ranked[0][1]


def offline_transform(request: StructuredRequest[Any]) -> TransformOutput:
    context = request.offline_context
    if not isinstance(context, TransformContext):
        raise TypeError("offline transform_space needs a TransformContext")
    parent, target = context.parent, target_of(context.frame)
    op, element = _choice(context.space, parent)
    before = element.text if element else ""
    after = _AFTER[op].format(text=before) if element else f"{parent.structure} as a new primitive of {target}"
    statement = (
        f"Once the space changes ({op.value.replace('_', ' ')}: «{shorten(before or after, 100)}»), {parent.structure} "
        f"can act on {target} in a way the old rules excluded, and {shorten(parent.observable, 120)} shows it. "
        f"Transformed claim: {shorten(parent.statement, 240)}"
    )
    row = MappingRowOut(
        source_concept=parent.structure,
        source_relation=shorten(parent.mechanism, 200),
        target_concept=shorten(before or target, 120),
        target_relation=shorten(after, 200),
        mapping_type=MappingType.RELATION,
        systematicity_group="transformed space",
        observable_link=shorten(parent.observable, 200),
    )
    draft = HypothesisDraft(
        title=shorten(f"Transformed ({op.value}): {parent.title}", 80),
        structure=parent.structure,
        statement=statement,
        mechanism=f"{parent.mechanism} (Offline transform_space of “{shorten(parent.title, 60)}”: one rule of the "
        "concept space changed by fixed preferences, not by a language model.)",
        mapping=[*parent_rows(parent), row],
        observable=parent.observable,
        failure_modes=[
            f"If «{shorten(before or after, 80)}» cannot change in practice, the idea is moot.",
            *parent.failure_modes,
        ],
    )
    rationale = f"{parent.structure} works best where this rule is loosened; the parent's text names it most."
    target_id = element.id if element else ""
    return TransformOutput(
        op=op, target_id=target_id, before=before, after=after, rationale=rationale, hypothesis=draft
    )


def offline_logic_check(request: StructuredRequest[Any]) -> LogicCheckOutput:
    context = request.offline_context
    if not isinstance(context, LogicCheckContext):
        raise TypeError("offline logic check needs a LogicCheckContext")
    proposal, draft, space = context.proposal, context.draft, context.space
    text = term_set(f"{draft.statement} {draft.mechanism}")
    names_change = bool(term_set(f"{proposal.before} {proposal.after}") & text)
    protected = (*space.hard_constraints, *space.assumptions_fixed)
    restates = any(
        len(term_set(e.text) & term_set(proposal.after)) >= max(2, len(term_set(e.text)) * 0.6) for e in protected
    )
    consistency = (8.0 if names_change else 4.0) - (4.0 if restates else 0.0)
    concrete = sum(1 for f in draft.failure_modes if len(content_terms(f)) >= 2)
    rigor = min(9.0, 5.0 + concrete) if context.parent.structure in draft.mechanism else 3.0
    reasons = ["Offline rule check, not a model."]
    if not names_change:
        reasons.append("The hypothesis does not name the element it changed.")
    if restates:
        reasons.append("`after` restates a hard constraint or fixed assumption.")
    table = MappingTable(tuple(MappingRow(**row.model_dump()) for row in draft.mapping))
    mapping = gate_summary(table, " ".join((draft.statement, draft.observable, *draft.failure_modes)))
    if mapping.failed_rules:
        reasons.append(
            "The transformed mapping fails the rule layer: " + ", ".join(r.value for r in mapping.failed_rules)
        )
    return LogicCheckOutput(
        analogy_validity=mapping.mapping_score,
        internal_consistency=max(0.0, consistency),
        causal_rigor=rigor,
        reasons=reasons,
    )
