"""Mapping tables for analogies: a source domain's key variables paired with the problem's roles.

Invariants: pure; pairs are chosen greedily by shared match keys (ties: variable order, then role
order), each variable and role used once; at most MAX_ROWS rows, in the domain's variable order.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.explore.library_records import DomainVariable, SourceDomain
from forge.core.research.text_terms import match_keys
from forge.offline.frame.problem_frame import ProblemFrame
from forge.offline.text.wording import shorten, the_phrase

MAX_ROWS = 6


@dataclass(frozen=True, slots=True)
class Role:
    label: str
    phrase: str
    looks_like: str


def problem_roles(frame: ProblemFrame, lever: str) -> list[Role]:
    inflow = "load that produces" if frame.goal_direction == "decrease" else "supply that feeds"
    roles = [
        Role(frame.target, "the outcome to change", f"{frame.target} outcome result state level total average"),
        Role(
            f"{inflow} {frame.target}",
            "the inflow",
            "load demand arrival incoming rate inflow input number per unit time source",
        ),
        Role(
            f"capacity of {the_phrase(lever)}",
            "what handles the load",
            f"{lever} capacity server service rate resources parallel output handle complete work",
        ),
    ]
    roles += [
        Role(c, "the limit that must hold", f"{c} limit threshold ceiling maximum fixed cap bound")
        for c in frame.constraints[:1]
    ]
    roles += [
        Role(the_phrase(a), "who acts", f"{a} agent actor choice strategy decision participant member individual")
        for a in frame.actors[:1]
        if a != lever
    ]
    roles += [
        Role(the_phrase(other), "an adjustable setting", f"{other} control setting adjust parameter policy")
        for other in frame.levers[:2]
        if other != lever
    ]
    unique: dict[str, Role] = {}
    for role in roles:
        unique.setdefault(role.label, role)  # one role per label: the first (most specific) is kept
    roles = list(unique.values())
    roles.append(
        Role(
            f"measured {frame.target}",
            "how it is observed",
            "measure signal observed count variation variability spread coefficient fluctuation",
        )
    )
    return roles


def _pairs(variables: list[DomainVariable], roles: list[Role]) -> dict[int, int]:
    """variable index -> role index: best-scoring free pairs first, then leftovers in order."""
    scored = sorted(
        (-len(match_keys(f"{v.name} {v.meaning}") & match_keys(f"{r.label} {r.looks_like}")), i, j)
        for i, v in enumerate(variables)
        for j, r in enumerate(roles)
    )
    chosen: dict[int, int] = {}
    for negative_score, i, j in scored:
        if negative_score < 0 and i not in chosen and j not in chosen.values():
            chosen[i] = j
    free_roles = [j for j in range(len(roles)) if j not in chosen.values()]
    for i in range(len(variables)):
        if i not in chosen and free_roles:
            chosen[i] = free_roles.pop(0)
    return chosen


def mapping_rows(domain: SourceDomain, frame: ProblemFrame, lever: str) -> list[dict[str, str]]:
    roles = problem_roles(frame, lever)
    variables = list(domain.key_variables)
    pairs = _pairs(variables, roles)
    rows = []
    for i in sorted(pairs)[:MAX_ROWS]:
        var, role = variables[i], roles[pairs[i]]
        rows.append(
            {
                "source_concept": var.name,
                "target_concept": role.label,
                "relation": f"{shorten(var.meaning, 150)} — here, {role.phrase}: {role.label}",
            }
        )
    return rows
