"""The offline BISO generator: a shipped domain's structures carried onto the problem.

Invariants: deterministic; statements, mechanisms, observables and failure modes are the structure's
texts with target, lever and constraint filled in; one hypothesis per structure, best-matching first;
rows pair key variables with the problem's roles plus one higher-order row, judged like any model's.
"""

from __future__ import annotations

from typing import Any

from forge.core.explore.library_records import SourceDomain, Structure
from forge.core.explore.mapping_quality_gate import MappingType
from forge.core.research.text_terms import match_keys
from forge.engine.explore.biso import BisoContext, BisoOutput, HypothesisDraft, MappingRowOut
from forge.offline.explore.analogy_mapping import problem_roles
from forge.offline.explore.source_domain_library import best_lever, fill
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest

_CAUSAL_ROLES = ("the outcome to change", "the inflow", "what handles the load")
_ROLE_TYPES = {
    "the outcome to change": MappingType.ATTRIBUTE,
    "the inflow": MappingType.ATTRIBUTE,
    "what handles the load": MappingType.ATTRIBUTE,
    "the limit that must hold": MappingType.RELATION,
    "who acts": MappingType.ENTITY,
    "an adjustable setting": MappingType.ATTRIBUTE,
    "how it is observed": MappingType.ATTRIBUTE,
}


def offline_biso(request: StructuredRequest[Any]) -> BisoOutput:
    context = request.offline_context
    if not isinstance(context, BisoContext):
        raise TypeError("offline BISO needs a BisoContext")
    reading = frame_problem(context.problem)
    structures = _ranked(context.domain, reading)[: context.per_domain]
    return BisoOutput(hypotheses=[_draft(context.domain, s, reading) for s in structures])


def _ranked(domain: SourceDomain, reading: ProblemFrame) -> list[Structure]:
    wanted = match_keys(f"{reading.problem} {reading.target}")
    order = sorted(enumerate(domain.structures), key=lambda item: (-len(match_keys(item[1].text) & wanted), item[0]))
    return [structure for _, structure in order]


def _draft(domain: SourceDomain, structure: Structure, reading: ProblemFrame) -> HypothesisDraft:
    lever = best_lever(reading, structure)
    observable = fill(structure.transfer.observable, reading, lever)
    return HypothesisDraft(
        title=shorten(f"{structure.name} ({domain.name}) for {reading.target}", 80),
        structure=structure.name,
        statement=fill(structure.transfer.mapping, reading, lever),
        mechanism=structure.mechanism,
        mapping=_rows(domain, structure, reading, lever, observable),
        observable=observable,
        failure_modes=[fill(structure.transfer.failure, reading, lever), *structure.failure_modes[:1]],
    )


def _rows(
    domain: SourceDomain, structure: Structure, reading: ProblemFrame, lever: str, observable: str
) -> list[MappingRowOut]:
    roles = problem_roles(reading, lever)
    variables = [v for v in domain.key_variables if v.name in structure.key_variables]
    variables += [v for v in domain.key_variables if v not in variables]
    rows = [
        MappingRowOut(
            source_concept=structure.name,
            source_relation=shorten(structure.source_relation, 200),
            target_concept=reading.target,
            target_relation=shorten(fill(structure.transfer.mapping, reading, lever), 200),
            mapping_type=MappingType.HIGHER_ORDER,
            systematicity_group="causal story",
            observable_link=shorten(observable, 200),
        )
    ]
    for variable, role in zip(variables, roles, strict=False):
        rows.append(
            MappingRowOut(
                source_concept=variable.name,
                source_relation=shorten(variable.meaning, 200),
                target_concept=role.label,
                target_relation=role.phrase,
                mapping_type=_ROLE_TYPES.get(role.phrase, MappingType.ATTRIBUTE),
                systematicity_group="causal story" if role.phrase in _CAUSAL_ROLES else role.phrase,
                observable_link=f"{role.label}, measured before and after the change",
            )
        )
    return rows
