"""Stages 2–3: rank the shipped source domains against the framed problem, drop the ones too near
to map anything new (Stage-B filter), and pick a diverse 18–30 (seed 000 §7).

Invariants:
    - Pure composition of the core's measures (proximity, feasibility, similarity, the greedy
      selector); deterministic for the same problem, frame, library and suggestions.
    - A domain the person suggested (`core.suggested_domains.match_suggestion`: id, name, or its
      terms) is chosen first; a suggestion that names no shipped domain is returned in
      `unknown_suggestions` so the caller can explore it another way or say why not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.explore.library_records import SourceDomain
from forge.core.explore.select_source_domains import DomainSelection, select_for_problem
from forge.core.explore.suggested_domains import match_suggestion
from forge.core.frame.problem_frame import ProblemFrame


@dataclass(frozen=True, slots=True)
class DomainChoice:
    selection: DomainSelection
    unknown_suggestions: tuple[str, ...]


def problem_text(problem: str, frame: ProblemFrame | None) -> str:
    if frame is None:
        return problem
    return " ".join((problem, frame.objective, frame.target_object, frame.target_outcome, *frame.domain_tags))


def _match(suggestion: str, domains: Sequence[SourceDomain]) -> str | None:
    domain = match_suggestion(suggestion, domains)
    return domain.id if domain is not None else None


def choose_source_domains(
    problem: str, frame: ProblemFrame | None, domains: Sequence[SourceDomain], suggested: Sequence[str] = ()
) -> DomainChoice:
    matched = [(s, _match(s, domains)) for s in suggested if s.strip()]
    selection = select_for_problem(
        problem_text(problem, frame),
        domains,
        suggested=[domain_id for _, domain_id in matched if domain_id is not None],
    )
    return DomainChoice(selection, tuple(s for s, domain_id in matched if domain_id is None))
