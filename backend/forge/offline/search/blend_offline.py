"""The offline `blend_expand`: a four-space blend read off two hypotheses' mapping tables.

Invariants: built only from the parents (generic space = shared target concepts, else the target;
cross-space mappings pair the tables' rows in order, typed identity / compression / elaboration);
nothing is forced through the emergence check.
"""

from __future__ import annotations

from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow
from forge.core.hypotheses.pool import Hypothesis
from forge.core.research.text_terms import term_set
from forge.core.search.blend_network import CrossSpaceKind
from forge.engine.explore.biso import HypothesisDraft
from forge.engine.search.blend_expand import BlendContext, BlendOutput, CrossSpaceMappingOut, EmergentStructureOut
from forge.offline.offline_structured_model import offline_context
from forge.offline.search.search_offline import offline_child, row, target_of
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest

MAX_MAPPINGS = 4


def offline_blend(request: StructuredRequest[Any]) -> BlendOutput:
    context = offline_context(request, BlendContext)
    first, second = context.parents[0], context.parents[-1]
    target = target_of(context.frame)
    mappings = [_pair(a, b) for a, b in zip(first.mapping.rows, second.mapping.rows, strict=False)][:MAX_MAPPINGS]
    shared = [m.blended for m in mappings if m.kind is CrossSpaceKind.IDENTITY]
    generic = shared or [f"a mechanism acting on {target}"]
    a_row, b_row = _own_concept(first), _own_concept(second)
    emergent = EmergentStructureOut(
        description=f"{a_row.source_concept} ({first.structure}) coupled with {b_row.source_concept} "
        f"({second.structure}), acting together on {target}",
        observable_link=a_row.observable_link or first.observable,
        testable_prediction=f"{shorten(first.observable, 100)} moves more when both are present than under either alone",
    )
    return BlendOutput(
        generic_space=generic,
        cross_space_mappings=mappings,
        emergent_structures=[emergent],
        hypothesis=_draft(first, second, emergent, target),
    )


def _own_concept(h: Hypothesis) -> MappingRow:
    """The first row whose source concept is not just the structure's name (else the first row)."""
    rows = h.mapping.rows
    return next((r for r in rows if r.source_concept.strip().casefold() != h.structure.strip().casefold()), rows[0])


def _pair(a: MappingRow, b: MappingRow) -> CrossSpaceMappingOut:
    same = a.target_concept.strip().casefold() == b.target_concept.strip().casefold()
    overlap = bool(term_set(a.target_concept) & term_set(b.target_concept))
    kind = CrossSpaceKind.IDENTITY if same else CrossSpaceKind.COMPRESSION if overlap else CrossSpaceKind.ELABORATION
    blended = a.target_concept if same else f"{a.target_concept} / {b.target_concept}"
    return CrossSpaceMappingOut(input_1=a.source_concept, input_2=b.source_concept, kind=kind, blended=blended)


def _draft(first: Hypothesis, second: Hypothesis, emergent: EmergentStructureOut, target: str) -> HypothesisDraft:
    names = f"{first.structure} × {second.structure}"
    fused = row(
        names,
        "two input spaces fused into one blend",
        target,
        emergent.description,
        "blend",
        emergent.observable_link,
        higher=True,
    )
    statement = (
        f"In the blend of {first.structure} and {second.structure}, {emergent.description}: "
        f"{emergent.testable_prediction}."
    )
    failure = "If the two mechanisms never act on the same part of the target, the blend has nothing to fuse."
    return offline_child(
        (first, second),
        "blend_expand: made from the parents' mapping tables",
        f"Blend: {names}",
        statement,
        fused,
        failure,
        structure=f"blend of {first.structure} and {second.structure}",
    )
