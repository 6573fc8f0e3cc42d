"""Choosing source domains of the shipped library for a problem, and filling their templates.

Invariants: nothing here reads a file; a domain's distance is computed from the problem's words; scores
come from cue hits (direct, via DOMAIN_SYNONYMS and the reframings), distance and suggestions, ties
by id; chosen domains differ in their best pattern, and a near domain is chosen only
when suggested. Templates are filled by plain replacement of {target}, {lever}, {constraint}.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from forge.core.domain_types import SemanticDistance
from forge.core.explore.library_records import SourceDomain, Structure
from forge.core.explore.source_domain_distance import measure_proximity
from forge.core.research.term_match import cue_hits, expand, synonym_table
from forge.core.research.text_relevance import coverage
from forge.core.research.text_terms import match_keys
from forge.offline.frame.problem_frame import ProblemFrame
from forge.offline.text.wording import agree, the_phrase

# Everyday words -> the source domains' cue vocabulary (weighted below a direct cue hit).
DOMAIN_SYNONYMS = synonym_table(
    "churn attrition leave leaving quit dropout retention turnover = burnout decay population survival fatigue; "
    "contributor volunteer member maintainer community = community volunteers collective peers; death mortality "
    "fatality casualty injury = exposure vulnerability failure; staff staffing nurse doctor worker employee = "
    "capacity workload load; budget money funding cost spend = resources scarce allocation; crop farm yield "
    "harvest = harvest growth resources; adoption uptake onboarding = adoption spread"
)
DISTANCE_BONUS = {"far": 1.0, "medium": 0.5, "near": 0.0}
CUE_WEIGHT = 3.0
CONTEXT_WEIGHT = 1.0
SUGGESTED_BONUS = 10.0


@dataclass(frozen=True, slots=True)
class DomainChoice:
    domain: SourceDomain
    pattern: Structure
    score: float
    cue_hits: tuple[str, ...]


@functools.lru_cache(maxsize=8192)  # pure on frozen records
def distance_of(domain: SourceDomain, frame: ProblemFrame) -> SemanticDistance:
    """How far the domain is from this problem, computed from the problem's words (never a fixed tag)."""
    return measure_proximity(f"{frame.problem} {frame.target}", domain).band


def fill(template: str, frame: ProblemFrame, lever: str | None = None) -> str:
    """The template with {target}, {lever}, {constraint} replaced by whole noun phrases (the lever with
    its article: "through the database"), verbs agreeing with a plural target or lever."""
    lever_phrase = the_phrase(lever) if lever else frame.lever
    text = (
        template.replace("{target}", frame.target)
        .replace("{lever}", lever_phrase)
        .replace("{constraint}", frame.constraint)
    )
    return agree(agree(text, frame.target), lever_phrase)


@functools.lru_cache(maxsize=8192)  # pure on a frozen record and a string
def best_pattern(domain: SourceDomain, text: str) -> Structure:
    """The pattern sharing the most stems with `text`; the first pattern on a tie."""
    wanted = match_keys(text)
    scored = [(len(match_keys(p.text) & wanted), -i, p) for i, p in enumerate(domain.structures)]
    return max(scored, key=lambda item: (item[0], item[1]))[2]


def best_lever(frame: ProblemFrame, pattern: Structure) -> str:
    """The lever that the pattern's text mentions most; the frame's first lever otherwise."""
    wanted = match_keys(pattern.text)
    ranked = sorted(enumerate(frame.levers), key=lambda il: (-len(match_keys(il[1]) & wanted), il[0]))
    return ranked[0][1]


def _suggested(domain: SourceDomain, suggested: Sequence[str]) -> bool:
    names = (domain.name.lower(), domain.id.lower())
    return any(s.strip().lower() in names or coverage(domain.name, s) >= 0.5 for s in suggested if s.strip())


def _distinct(cues: Sequence[str]) -> int:
    """How many different stems the hit cues stand for ("wait", "waits" count once)."""
    return len({s for cue in cues for s in match_keys(cue)})


@functools.lru_cache(maxsize=8192)  # pure on frozen records and strings
def score_domain(
    domain: SourceDomain, frame: ProblemFrame, context: str = "", suggested: tuple[str, ...] = ()
) -> tuple[float, tuple[str, ...]]:
    """Score = 3·direct cue stems + 1·cue stems via everyday synonyms or the selected reframings
    + distance bonus + 10 if the user suggested it."""
    problem = f"{frame.problem} {frame.target}"
    hits = tuple(cue_hits(domain.cue_terms, match_keys(problem)))
    indirect = cue_hits(domain.cue_terms, match_keys(f"{expand(problem, DOMAIN_SYNONYMS)} {context}"))
    indirect = [c for c in indirect if c not in hits]
    score = (
        CUE_WEIGHT * _distinct(hits)
        + CONTEXT_WEIGHT * _distinct(indirect)
        + DISTANCE_BONUS[distance_of(domain, frame).value]
        + (SUGGESTED_BONUS if _suggested(domain, suggested) else 0.0)
    )
    return score, hits + tuple(indirect)


def rank_domains(
    domains: Iterable[SourceDomain], frame: ProblemFrame, context: str = "", suggested: Sequence[str] = ()
) -> list[DomainChoice]:
    """Every domain scored for the problem, best first (`score_domain` and `best_pattern` are cached:
    every DECOMPOSE and EXPLORE call of a session ranks the same library again)."""
    ranked = []
    for domain in domains:
        score, hits = score_domain(domain, frame, context, tuple(suggested))
        pattern = best_pattern(domain, f"{frame.problem} {expand(frame.problem, DOMAIN_SYNONYMS)} {context}")
        ranked.append(DomainChoice(domain, pattern, score, hits))
    return sorted(ranked, key=lambda c: (-c.score, c.domain.id))


def select_domains(
    domains: Iterable[SourceDomain],
    frame: ProblemFrame,
    *,
    context: str = "",
    suggested: Sequence[str] = (),
    count: int = 3,
) -> list[DomainChoice]:
    """The `count` best domains whose best patterns all have different names; a domain near the
    problem's own field is not a distant source and is skipped unless the person suggested it."""
    chosen: list[DomainChoice] = []
    for choice in rank_domains(domains, frame, context, suggested):
        near = distance_of(choice.domain, frame) is SemanticDistance.NEAR
        if near and not _suggested(choice.domain, suggested):
            continue
        if all(choice.pattern.name.lower() != c.pattern.name.lower() for c in chosen):
            chosen.append(choice)
        if len(chosen) == count:
            break
    return chosen


def find_domain(domains: Iterable[SourceDomain], name: str) -> SourceDomain | None:
    wanted = name.strip().lower()
    return next((d for d in domains if d.name.lower() == wanted or d.id.lower() == wanted), None)
