"""The offline `transform_space` and its logic check: one rule of the concept space changed by fixed
preferences, and a rule-based verdict.

Invariants: among allowed ops (negate a mutable assumption, relax a soft preference, split a
relation, re-represent a primitive) the element sharing most words with the parent wins; hard
constraints and fixed assumptions are never candidates. The check scores the mapping with the
rule layer, consistency 8/4 (names the change or not, -4 if it restates a protected element) and
rigor 5 + concrete failure modes (max 9).
"""

from __future__ import annotations

from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable
from forge.core.hypotheses.pool import Hypothesis, gate_summary
from forge.core.research.text_terms import content_terms, term_set
from forge.core.search.concept_space import ConceptSpace, SpaceElement, TransformOp
from forge.engine.search.transform_space import LogicCheckContext, LogicCheckOutput, TransformContext, TransformOutput
from forge.offline.offline_structured_model import offline_context
from forge.offline.search.search_offline import offline_child, row, target_of
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
    context = offline_context(request, TransformContext)
    parent, target = context.parent, target_of(context.frame)
    op, element = _choice(context.space, parent)
    before = element.text if element else ""
    after = _AFTER[op].format(text=before) if element else f"{parent.structure} as a new primitive of {target}"
    statement = (
        f"Once the space changes ({op.value.replace('_', ' ')}: «{shorten(before or after, 100)}»), {parent.structure} "
        f"can act on {target} in a way the old rules excluded, and {shorten(parent.observable, 120)} shows it. "
        f"Transformed claim: {shorten(parent.statement, 240)}"
    )
    changed = row(parent.structure, parent.mechanism, before or target, after, "transformed space", parent.observable)
    made_by = "transform_space: one rule of the concept space changed by fixed preferences"
    failure = f"If «{shorten(before or after, 80)}» cannot change in practice, the idea is moot."
    title = f"Transformed ({op.value}): {parent.title}"
    draft = offline_child((parent,), made_by, title, statement, changed, failure)
    rationale = f"{parent.structure} works best where this rule is loosened; the parent's text names it most."
    target_id = element.id if element else ""
    return TransformOutput(
        op=op, target_id=target_id, before=before, after=after, rationale=rationale, hypothesis=draft
    )


def offline_logic_check(request: StructuredRequest[Any]) -> LogicCheckOutput:
    context = offline_context(request, LogicCheckContext)
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
