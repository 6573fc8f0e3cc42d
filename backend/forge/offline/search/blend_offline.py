"""The offline `blend_expand`: a four-space blend read off two hypotheses' mapping tables.

Invariants:
    - Deterministic and built only from the parents: the generic space is what both tables map onto
      (their shared target concepts, else the frame's target); cross-space mappings pair the rows of
      the two tables in order, typed by how their target concepts relate (same → identity,
      overlapping words → compression, otherwise elaboration); the emergent structure couples a
      source concept of each parent, with the first parent's observable as its link.
    - Nothing is forced through the emergence check: a blend of two parents that share every word
      fails it like any model's blend would.
"""

from __future__ import annotations

from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow, MappingType
from forge.core.hypotheses.pool import Hypothesis
from forge.core.research.text_terms import term_set
from forge.core.search.blend_network import CrossSpaceKind
from forge.engine.explore.biso import HypothesisDraft, MappingRowOut
from forge.engine.search.blend_expand import BlendContext, BlendOutput, CrossSpaceMappingOut, EmergentStructureOut
from forge.offline.search.search_offline import parent_rows, target_of
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest

MAX_MAPPINGS = 4


def offline_blend(request: StructuredRequest[Any]) -> BlendOutput:
    context = request.offline_context
    if not isinstance(context, BlendContext):
        raise TypeError("offline blend_expand needs a BlendContext")
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
    row = MappingRowOut(
        source_concept=f"{first.structure} × {second.structure}",
        source_relation="two input spaces fused into one blend",
        target_concept=shorten(target, 120),
        target_relation=shorten(emergent.description, 200),
        mapping_type=MappingType.HIGHER_ORDER,
        systematicity_group="blend",
        observable_link=shorten(emergent.observable_link, 200),
    )
    return HypothesisDraft(
        title=shorten(f"Blend: {first.structure} × {second.structure}", 80),
        structure=f"blend of {first.structure} and {second.structure}",
        statement=f"In the blend of {first.structure} and {second.structure}, {emergent.description}: "
        f"{emergent.testable_prediction}.",
        mechanism=f"{first.mechanism} {second.mechanism} (Offline blend_expand of “{shorten(first.title, 40)}” and "
        f"“{shorten(second.title, 40)}”: made from the parents' mapping tables, not by a language model.)",
        mapping=[*parent_rows(first)[:4], *parent_rows(second)[:3], row],
        observable=first.observable,
        failure_modes=[
            "If the two mechanisms never act on the same part of the target, the blend has nothing to fuse.",
            *first.failure_modes[:1],
            *second.failure_modes[:1],
        ],
    )
