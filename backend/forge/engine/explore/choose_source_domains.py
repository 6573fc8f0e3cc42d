"""Stages 2–3: rank the shipped source domains against the framed problem, drop the ones too near
to map anything new (Stage-B filter), and pick a diverse 18–30 (seed 000 §7).

Invariants:
    - Pure composition of the core's measures (proximity, feasibility, similarity, the greedy
      selector); deterministic for the same problem, frame, library and suggestions.
    - With a model (`choose_judged_source_domains`), Stage B is its one feasibility call over the
      shortlist before the diversity pick; a failed call, or no model (offline), keeps the ranker's
      estimate and says so.
    - A domain the person suggested (`core.suggested_domains.match_suggestion`: id, name, or its
      terms) is chosen first; a suggestion that names no shipped domain is returned in
      `unknown_suggestions` so the caller can explore it another way or say why not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from forge.core.explore.library_records import SourceDomain
from forge.core.explore.select_source_domains import (
    DomainSelection,
    Feasibility,
    FeasibilityVerdict,
    SelectionPolicy,
    select_for_problem,
    shortlist_domains,
)
from forge.core.explore.suggested_domains import match_suggestion
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.llm.messages import Usage
from forge.engine.explore.judge_domain_feasibility import FeasibilityRequest, judge_feasibility
from forge.ports import StructuredModel

_POLICY = SelectionPolicy()


@dataclass(frozen=True, slots=True)
class DomainChoice:
    selection: DomainSelection
    unknown_suggestions: tuple[str, ...]
    feasibility_note: str = ""  # how Stage B judged (a model's call, or the ranker's estimate and why)
    usage: Usage = Usage()


def problem_text(problem: str, frame: ProblemFrame | None) -> str:
    if frame is None:
        return problem
    return " ".join((problem, frame.objective, frame.target_object, frame.target_outcome, *frame.domain_tags))


def _match(suggestion: str, domains: Sequence[SourceDomain]) -> str | None:
    domain = match_suggestion(suggestion, domains)
    return domain.id if domain is not None else None


def choose_source_domains(
    problem: str,
    frame: ProblemFrame | None,
    domains: Sequence[SourceDomain],
    suggested: Sequence[str] = (),
    verdicts: Mapping[str, FeasibilityVerdict] | None = None,
) -> DomainChoice:
    matched = [(s, _match(s, domains)) for s in suggested if s.strip()]
    selection = select_for_problem(
        problem_text(problem, frame),
        domains,
        verdicts=verdicts,
        suggested=[domain_id for _, domain_id in matched if domain_id is not None],
    )
    return DomainChoice(selection, tuple(s for s, domain_id in matched if domain_id is None))


async def choose_judged_source_domains(
    model: StructuredModel | None,
    problem: str,
    frame: ProblemFrame | None,
    domains: Sequence[SourceDomain],
    suggested: Sequence[str] = (),
) -> DomainChoice:
    """Stage B by `model` on the shortlist (one call), then the diversity pick over what it kept; no
    model (offline): the ranker's estimate, said so."""
    if model is None:
        choice = choose_source_domains(problem, frame, domains, suggested)
        return replace(choice, feasibility_note="the ranker's estimate (feasibility needs a model)")
    shortlist = shortlist_domains(problem_text(problem, frame), domains, _POLICY.max_count, policy=_POLICY)
    judged = await judge_feasibility(model, FeasibilityRequest(problem, frame, tuple(shortlist)))
    if judged.failure:
        choice = choose_source_domains(problem, frame, domains, suggested)
        note = f"feasibility not judged ({judged.failure}); the ranker's estimate was kept"
        return replace(choice, feasibility_note=note, usage=judged.usage)
    choice = choose_source_domains(problem, frame, domains, suggested, judged.verdicts)
    dropped = sum(v.feasibility is Feasibility.INFEASIBLE for v in judged.verdicts.values())
    kept = len(shortlist) - dropped
    note = f"{model.label} kept {kept} of {len(shortlist)} shortlisted domains, {dropped} judged infeasible"
    return replace(choice, feasibility_note=note, usage=judged.usage)
