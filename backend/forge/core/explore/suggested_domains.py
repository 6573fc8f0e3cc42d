"""Source domains the person suggests (at the explore review, or in the problem's first review):
which shipped domain a suggestion names, and which suggestions still wait to be explored.

Invariants:
    - A suggestion names a shipped domain by id or name (any case), by all of its content terms
      appearing in the domain's name, or — failing that — by at least half of its content terms
      appearing in the domain's name and cue terms (the best such domain); otherwise it names none.
      Matching uses `text_terms.match_keys`, so "ant colonies" meets "colony", "optimization" meets
      "optimisation".
    - A model that cannot describe a new domain (the offline one) explores the shipped domain that shares
      the most of the suggestion's terms (`closest_domain`), saying so; with none, the note says why
      in plain words (`not_in_library`).
    - Every suggestion is explored at most once per session: once it has an outcome (explored from
      the library, described on the fly by the model, or not explorable and why), it is not pending.
      Suggestions are compared case- and space-insensitively.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.explore.library_records import SourceDomain
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.research.text_terms import match_keys

MIN_CUE_SHARE = 0.5


class SuggestionSource(str, Enum):
    LIBRARY = "library"  # a shipped domain
    GENERATED = "generated"  # described on the fly by the model, then explored
    NONE = "none"  # could not be explored (the note says why)


@dataclass(frozen=True, slots=True)
class SuggestionOutcome:
    suggestion: str  # as the person wrote it
    source: SuggestionSource
    domain_id: str = ""
    domain_name: str = ""
    hypotheses: int = 0
    round: int = 0
    note: str = ""
    candidates: tuple[PoolCandidate, ...] = ()  # its best hypotheses, offered in EXPLORE's and SYNTHESIZE's briefs


def normalized(suggestion: str) -> str:
    return " ".join(suggestion.lower().split())


def match_suggestion(suggestion: str, domains: Sequence[SourceDomain]) -> SourceDomain | None:
    """The shipped domain a suggestion names, or None."""
    wanted = normalized(suggestion)
    exact = next((d for d in domains if wanted in (d.id.lower(), d.name.lower())), None)
    if exact is not None or not wanted:
        return exact
    keys = match_keys(suggestion)
    if not keys:
        return None
    by_name = [d for d in domains if keys <= match_keys(d.name)]
    if by_name:
        return by_name[0]
    best, best_share = _best_by_cues(keys, domains)
    return best if best_share >= MIN_CUE_SHARE else None


def _best_by_cues(keys: frozenset[str], domains: Sequence[SourceDomain]) -> tuple[SourceDomain | None, float]:
    best, best_share = None, 0.0
    for domain in domains:
        share = len(keys & match_keys(f"{domain.name} {' '.join(domain.cue_terms)}")) / len(keys)
        if share > best_share:
            best, best_share = domain, share
    return best, best_share


def closest_domain(suggestion: str, domains: Sequence[SourceDomain]) -> SourceDomain | None:
    """The shipped domain sharing the most of the suggestion's terms (any), for a model that cannot
    describe a new domain: what the library holds nearest to it; None when nothing is shared."""
    keys = match_keys(suggestion)
    return _best_by_cues(keys, domains)[0] if keys else None


def not_in_library(suggestion: str, library_size: int) -> str:
    """Why a suggestion was not explored, in plain words (no tool or type names)."""
    return (
        f"it is not one of the {library_size} source domains shipped with Knowledge Forge, shares no terms with "
        "any of them, and the model could not describe it as a new domain. Suggest a shipped domain (see the "
        "Knowledge page), or run the session with a real model to explore it"
    )


def refuse_unexplorable(suggestions: Sequence[str], library: Sequence[SourceDomain]) -> str | None:
    """For a model that cannot describe a new domain (the offline one), checked at the explore review
    before anything is applied: why the review is refused — the suggestions that name no shipped
    domain and share no term with any — or None."""
    lost = [s for s in suggestions if match_suggestion(s, library) is None and closest_domain(s, library) is None]
    if not lost:
        return None
    return " ".join(f"'{s}' cannot be explored: {not_in_library(s, len(library))}." for s in lost)


def pending_suggestions(suggested: Sequence[str], outcomes: Sequence[SuggestionOutcome]) -> list[str]:
    """Suggestions without an outcome yet, in the order given, each once."""
    done = {normalized(o.suggestion) for o in outcomes}
    pending: dict[str, str] = {}
    for suggestion in suggested:
        key = normalized(suggestion)
        if key and key not in done and key not in pending:
            pending[key] = suggestion.strip()
    return list(pending.values())


def describe_outcomes(outcomes: Sequence[SuggestionOutcome]) -> str:
    """One sentence per suggestion, for the stage event the person reads in the timeline."""
    parts = []
    for o in outcomes:
        if o.source is SuggestionSource.NONE:
            parts.append(f"'{o.suggestion}' was not explored: {o.note}")
        elif o.source is SuggestionSource.GENERATED:
            parts.append(f"'{o.suggestion}' was {o.note} as {o.domain_name}: {o.hypotheses} hypotheses")
        else:
            parts.append(f"'{o.suggestion}' → {o.domain_name} ({o.note}): {o.hypotheses} hypotheses")
    return "Your suggested domains: " + "; ".join(parts) + "." if parts else "No suggested domains."
