"""The offline HKG operators `hyperpath_expand` and `hyperbridge`, written from the found hyperpath.

Invariants: one chain step per hyperedge of the shortest path, citing its id; nothing claimed beyond
the path; without a path it refuses with a TypeError rather than inventing a chain.
"""

from __future__ import annotations

from typing import Any

from forge.core.hypotheses.pool import Hypothesis
from forge.core.search.hyperpath_trace import TracePath
from forge.core.search.plan import SearchOperator
from forge.engine.explore.biso import HypothesisDraft, MappingRowOut
from forge.engine.search.structural_operators import ChainLinkOut, StructuralContext, StructuralOutput
from forge.offline.offline_structured_model import offline_context
from forge.offline.search.search_offline import offline_child, row, target_of
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest

OFFLINE_NOTE = "made from the hypergraph path and the parents' text, not by a language model"


def offline_structural(request: StructuredRequest[Any]) -> StructuralOutput:
    context = offline_context(request, StructuralContext)
    if not context.trace.grounded:
        raise TypeError("offline HKG operators need a found path")
    path = context.trace.paths[0]
    chain = [
        ChainLinkOut(
            hyperedge_id=step.hyperedge_id,
            step=f"—{step.relation}— "
            + (f"carries it on to {', '.join(v.label for v in step.via)}" if step.via else f"reaches {path.end.label}"),
        )
        for step in path.steps
    ]
    draft = _bridge(context, path) if context.operator is SearchOperator.HYPERBRIDGE else _expand(context, path)
    boundary = f"Only as far as the hypergraph's links hold for {shorten(target_of(context.frame), 80)}."
    return StructuralOutput(hypothesis=draft, chain=chain, boundary_conditions=[boundary])


def _route(path: TracePath) -> str:
    joints = [v.label for step in path.steps for v in step.via[:2]]
    return " → ".join(dict.fromkeys([path.start.label, *joints, path.end.label]))


def _path_row(parent: Hypothesis, path: TracePath, group: str) -> MappingRowOut:
    relations = ", ".join(dict.fromkeys(step.relation for step in path.steps))
    linked = f"is linked through {relations} ({len(path.steps)} hyperedges)"
    responds = f"responds to {path.start.label} along the chain {shorten(_route(path), 120)}"
    return row(path.start.label, linked, path.end.label, responds, group, parent.observable, higher=True)


def _expand(context: StructuralContext, path: TracePath) -> HypothesisDraft:
    parent, target = context.parents[0], target_of(context.frame)
    statement = (
        f"{parent.structure} reaches {target} along the chain {_route(path)}: acting on {path.start.label} moves "
        f"{path.end.label}, and {shorten(parent.observable, 120)} shows each step. Grounded claim: "
        f"{shorten(parent.statement, 240)}"
    )
    failure = f"If {path.start.label} does not move {path.end.label} on this target, the chain breaks."
    row = _path_row(parent, path, "hyperpath")
    title = f"Grounded chain: {parent.title}"
    return offline_child((parent,), f"hyperpath_expand: {OFFLINE_NOTE}", title, statement, row, failure)


def _bridge(context: StructuralContext, path: TracePath) -> HypothesisDraft:
    first, second = context.parents[0], context.parents[-1]
    statement = (
        f"Bridge {first.structure} ({first.domain_name}) to {second.structure} ({second.domain_name}) through "
        f"{_route(path)}: on {target_of(context.frame)}, the first mechanism works through the second, so "
        f"{shorten(first.observable, 100)} should follow {shorten(second.observable, 80)}. Bridged claims: "
        f"{shorten(first.statement, 160)} / {shorten(second.statement, 160)}"
    )
    failure = (
        f"If {path.start.label} and {path.end.label} are linked only by words, not by mechanism, the bridge fails."
    )
    return offline_child(
        (first, second),
        f"hyperbridge: {OFFLINE_NOTE}",
        f"Bridge: {first.structure} ↔ {second.structure}",
        statement,
        _path_row(first, path, "bridge"),
        failure,
        structure=f"{first.structure} ↔ {second.structure}",
    )
