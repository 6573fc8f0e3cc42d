"""The offline BISO generator and the analogies' mapping tables: a shipped domain's structures carried
onto the problem, its key variables paired with the problem's roles.

Invariants: deterministic; statements, mechanisms, observables and failure modes are the structure's
texts with target, lever and constraint filled in; one hypothesis per structure, best-matching first.
Variables pair with roles greedily by shared match keys (ties: variable order, then role order), each
used once; a BISO table adds one higher-order row and is judged by the gate like any model's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from forge.core.explore.library_records import DomainVariable, SourceDomain, Structure
from forge.core.explore.mapping_quality_gate import MIN_EFFECTIVE_ROWS, MappingType
from forge.core.research.text_terms import match_keys
from forge.engine.explore.biso import BisoContext, BisoOutput, HypothesisDraft, MappingRowOut
from forge.offline.explore.source_domain_library import best_lever, fill
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.offline_structured_model import offline_context
from forge.offline.text.wording import shorten, the_phrase
from forge.ports import StructuredRequest

CAUSAL_STORY = "causal story"


@dataclass(frozen=True, slots=True)
class Role:
    label: str
    phrase: str
    looks_like: str
    kind: MappingType = MappingType.ATTRIBUTE
    causal: bool = False  # the outcome, inflow and capacity rows tell one causal story


LOOKS = {  # what each role of the problem looks like, in match terms
    "inflow": "load demand arrival incoming rate inflow input number per unit time source",
    "capacity": "capacity server service rate resources parallel output handle complete work",
    "limit": "limit threshold ceiling maximum fixed cap bound",
    "actor": "agent actor choice strategy decision participant member individual",
    "measured": "measure signal observed count variation variability spread coefficient fluctuation",
}


def problem_roles(frame: ProblemFrame, lever: str) -> list[Role]:
    inflow = "load that produces" if frame.goal_direction == "decrease" else "supply that feeds"
    causal = (
        (frame.target, "the outcome to change", f"{frame.target} outcome result state level total average"),
        (f"{inflow} {frame.target}", "the inflow", LOOKS["inflow"]),
        (f"capacity of {the_phrase(lever)}", "what handles the load", f"{lever} {LOOKS['capacity']}"),
    )
    roles = [Role(label, phrase, looks, causal=True) for label, phrase, looks in causal]
    roles += [
        Role(c, "the limit that must hold", f"{c} {LOOKS['limit']}", MappingType.RELATION)
        for c in frame.constraints[:1]
    ]
    roles += [
        Role(the_phrase(a), "who acts", f"{a} {LOOKS['actor']}", MappingType.ENTITY)
        for a in frame.actors[:1]
        if a != lever
    ]
    unique = {role.label: role for role in reversed(roles)}  # one role per label: the first is kept
    measured = Role(f"measured {frame.target}", "how it is observed", LOOKS["measured"])
    return [*(r for r in roles if unique[r.label] is r), measured]


def paired_roles(variables: list[DomainVariable], roles: list[Role]) -> list[tuple[DomainVariable, Role]]:
    """(variable, role) pairs in variable order: best-scoring free pairs first, then leftovers in order."""
    scored = sorted(
        (-len(match_keys(f"{v.name} {v.meaning}") & match_keys(f"{r.label} {r.looks_like}")), i, j)
        for i, v in enumerate(variables)
        for j, r in enumerate(roles)
    )
    chosen: dict[int, int] = {}
    for negative_score, i, j in scored:
        if negative_score < 0 and i not in chosen and j not in chosen.values():
            chosen[i] = j
    free = [j for j in range(len(roles)) if j not in chosen.values()]
    for i in range(len(variables)):
        if i not in chosen and free:
            chosen[i] = free.pop(0)
    return [(variables[i], roles[chosen[i]]) for i in sorted(chosen)]


def mapping_rows(domain: SourceDomain, structure: Structure, frame: ProblemFrame) -> list[dict[str, str]]:
    """The search_cross_domain table: BISO's own table for the structure, so one gate judges both."""
    rows = _rows(domain, structure, frame, best_lever(frame, structure))
    return [r.model_dump(mode="json") | {"relation": f"{r.source_relation} — here, {r.target_relation}"} for r in rows]


def offline_biso(request: StructuredRequest[Any]) -> BisoOutput:
    """A hypothesis per structure whose table has the schema's rows; none has: the domain is declined."""
    context = offline_context(request, BisoContext)
    reading = frame_problem(context.problem)
    wanted = match_keys(f"{reading.problem} {reading.target}")
    ranked = sorted(enumerate(context.domain.structures), key=lambda s: (-len(match_keys(s[1].text) & wanted), s[0]))
    drafts = [d for _, s in ranked if (d := _draft(context.domain, s, reading)) is not None]
    reason = f"no structure of {context.domain.name} pairs with {MIN_EFFECTIVE_ROWS} roles of the problem (offline)"
    return BisoOutput(hypotheses=drafts[: context.per_domain], decline_reason="" if drafts else reason)


def _draft(domain: SourceDomain, structure: Structure, reading: ProblemFrame) -> HypothesisDraft | None:
    lever = best_lever(reading, structure)
    rows = _rows(domain, structure, reading, lever)
    if len(rows) < MIN_EFFECTIVE_ROWS:
        return None
    return HypothesisDraft(
        title=shorten(f"{structure.name} ({domain.name}) for {reading.target}", 80),
        structure=structure.name,
        statement=fill(structure.transfer.mapping, reading, lever),
        mechanism=structure.mechanism,
        mapping=rows,
        observable=fill(structure.transfer.observable, reading, lever),
        failure_modes=[fill(structure.transfer.failure, reading, lever), *structure.failure_modes[:1]],
    )


def _rows(domain: SourceDomain, structure: Structure, reading: ProblemFrame, lever: str) -> list[MappingRowOut]:
    observable = fill(structure.transfer.observable, reading, lever)
    story = MappingRowOut(
        source_concept=structure.name,
        source_relation=shorten(structure.source_relation, 200),
        target_concept=reading.target,
        target_relation=shorten(fill(structure.transfer.mapping, reading, lever), 200),
        mapping_type=MappingType.HIGHER_ORDER,
        systematicity_group=CAUSAL_STORY,
        observable_link=shorten(observable, 200),
    )
    variables = [v for v in domain.key_variables if v.name in structure.key_variables]
    variables += [v for v in domain.key_variables if v not in variables]
    rows = [
        MappingRowOut(
            source_concept=variable.name,
            source_relation=shorten(variable.meaning, 200),
            target_concept=role.label,
            target_relation=role.phrase,
            mapping_type=role.kind,
            systematicity_group=CAUSAL_STORY if role.causal else role.phrase,
            observable_link=f"{role.label}, measured before and after the change",
        )
        for variable, role in paired_roles(variables, problem_roles(reading, lever))
    ]
    return [story, *rows]
