"""SAGA Layer 4 (seed 000 §5.3): the target domain's profile — its hard constraints, anti-patterns
and stale ideas — and the checks of a batch of hypotheses against it.

Invariants:
    - The profile is derived, never invented: hard constraints are the frame's; stale ideas are the
      state of the art's sentences and the structures of shipped library domains that sit in the
      target's own field (their cue terms name one of the frame's domain tags); anti-patterns are
      the fixed, shipped list `ANTI_PATTERNS` (generic ways an idea avoids the problem).
    - A hypothesis breaks a hard constraint when a judge says it proposes what the constraint
      forbids: the flags of a model's batched check (`engine/saga/constraint_check.py`), or, when
      none are given, the offline word rule (`constraint_rule.py`: a forbidden change of a resource,
      negation and scope understood; numeric bounds on money and time). Every flag carries its
      one-line reason, and the finding's message names each hypothesis with its reason.
    - Stale: the hypothesis shares ≥ 50% of its match keys (Jaccard) with a stale idea, i.e. its
      distance from what the field already does is < 0.5.
    - One finding per kind per batch, naming every hypothesis involved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.explore.library_records import SourceDomain
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.research.text_terms import content_terms, match_keys
from forge.core.saga.constraint_rule import judge_by_word_rule
from forge.core.saga.records import Finding, FindingKind, Severity

STALE_DISTANCE = 0.5
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True, slots=True)
class AntiPattern:
    name: str
    cue: re.Pattern[str]
    why: str
    constraint: str  # what the person may adopt to rule it out


ANTI_PATTERNS: tuple[AntiPattern, ...] = (
    AntiPattern(
        "more resources",
        re.compile(
            r"\b(?:hire|hiring|add|adding|more)\s+(?:more\s+)?(?:staff|people|headcount|nurses|engineers|budget)\b",
            re.I,
        ),
        "adds resources instead of changing how the system works",
        "A recommendation must change how the work flows, not only add headcount or budget.",
    ),
    AntiPattern(
        "buzzword technology",
        re.compile(
            r"\b(?:use|using|apply|applying|deploy|deploying)\s+(?:ai|a\.i\.|machine learning|blockchain|big data)\b",
            re.I,
        ),
        "names a technology instead of a mechanism",
        "A recommendation must name the mechanism, not only a technology to apply.",
    ),
    AntiPattern(
        "awareness only",
        re.compile(r"\b(?:raise|raising|increase|increasing)\s+awareness\b|\btraining (?:alone|only)\b", re.I),
        "relies on people trying harder",
        "A recommendation must not rely on awareness or training alone.",
    ),
)


@dataclass(frozen=True, slots=True)
class StaleIdea:
    text: str
    origin: str  # "state of the art" or the library domain's name


@dataclass(frozen=True, slots=True)
class TargetDomainProfile:
    name: str  # the frame's domain tags, or "general" when it names none
    hard_constraints: tuple[str, ...]  # the frame's, each judged against every text
    stale_ideas: tuple[StaleIdea, ...]


@dataclass(frozen=True, slots=True)
class ProfiledText:
    id: str
    text: str


def build_profile(frame: ProblemFrame, state_of_art: str, library: Sequence[SourceDomain]) -> TargetDomainProfile:
    tags = {t.casefold() for t in frame.domain_tags}
    own_field = [d for d in library if tags & {d.id.casefold(), d.name.casefold()}]
    stale = [
        StaleIdea(s.strip(), "state of the art") for s in _SENTENCE.split(state_of_art) if len(content_terms(s)) >= 3
    ]
    stale += [StaleIdea(f"{s.name}: {s.mechanism}", d.name) for d in own_field for s in d.structures]
    return TargetDomainProfile(
        ", ".join(frame.domain_tags) or "general",
        tuple(frame.hard_constraints),
        tuple(stale),
    )


@dataclass(frozen=True, slots=True)
class ConstraintFlag:
    """A text judged to break a hard constraint, with the judge's one-line reason."""

    id: str
    constraint: str
    reason: str


def flags_by_word_rule(constraints: Sequence[str], batch: Sequence[ProfiledText]) -> tuple[ConstraintFlag, ...]:
    """The offline word rule's flags (each reason says it is the word rule's)."""
    return tuple(
        ConstraintFlag(item.id, c, verdict.reason)
        for item in batch
        for c in constraints
        if (verdict := judge_by_word_rule(c, item.text)).violates
    )


def check_hard_constraints(
    profile: TargetDomainProfile, batch: Sequence[ProfiledText], flags: Sequence[ConstraintFlag] | None = None
) -> Finding | None:
    """One finding naming every text of `batch` flagged (by `flags`, else by the word rule), with reasons."""
    judged = flags_by_word_rule(profile.hard_constraints, batch) if flags is None else flags
    ids = {item.id for item in batch}
    first: dict[str, ConstraintFlag] = {}
    for flag in judged:
        if flag.id in ids:
            first.setdefault(flag.id, flag)
    if not first:
        return None
    named = "; ".join(f"{f.id} breaks “{f.constraint}”: {f.reason.rstrip('.')}" for f in first.values())
    return Finding(
        FindingKind.HARD_CONSTRAINT_VIOLATION,
        float(len(first)),
        0.0,
        tuple(first),
        f"Hypotheses propose what a hard constraint forbids: {named}. They cannot be recommended as they stand.",
        severity=Severity.CRITICAL,
    )


def check_anti_patterns(batch: Sequence[ProfiledText]) -> Finding | None:
    hits = [(item.id, p) for item in batch for p in ANTI_PATTERNS if p.cue.search(item.text)]
    if not hits:
        return None
    first = hits[0][1]
    named = "; ".join(f"{i}: {p.name} ({p.why})" for i, p in hits)
    return Finding(
        FindingKind.ANTI_PATTERN,
        float(len(hits)),
        0.0,
        tuple(dict.fromkeys(i for i, _ in hits)),
        f"Anti-patterns: {named}.",
        suggested_constraint=first.constraint,
        dimensions=tuple(dict.fromkeys(p.name for _, p in hits)),
    )


def check_stale_ideas(
    profile: TargetDomainProfile, batch: Sequence[ProfiledText], threshold: float = STALE_DISTANCE
) -> Finding | None:
    keyed = [(idea, match_keys(idea.text)) for idea in profile.stale_ideas]
    hits: list[tuple[str, float, StaleIdea]] = []
    for item in batch:
        mine = match_keys(item.text)
        scored = [(1.0 - _jaccard(mine, keys), idea) for idea, keys in keyed]
        if scored:
            distance, idea = min(scored, key=lambda s: s[0])
            if distance < threshold:
                hits.append((item.id, distance, idea))
    if not hits:
        return None
    closest = min(d for _, d, _ in hits)
    named = "; ".join(f"{i} is {1 - d:.0%} the same as “{idea.text[:80]}” ({idea.origin})" for i, d, idea in hits)
    return Finding(
        FindingKind.STALE_IDEA,
        round(closest, 4),
        threshold,
        tuple(i for i, _, _ in hits),
        f"Stale ideas (distance < {threshold} from what {profile.name} already does): {named}.",
        severity=Severity.INFO,
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0
