"""How much a research result says about a subject (a claim, a thesis): the relevance measure the
claim research gates and the offline verifier share.

Invariants:
    - Pure and deterministic; terms are compared by match key (`core.text_terms.match_keys`), so
      plurals, British/American spellings, suffixes and Han/Katakana/Hangul bigrams fold alike.
    - `relevance` = shared keys / min(|subject keys|, SUBJECT_KEYS_CAP): a long claim is not
      penalised for words a short snippet cannot hold. It lies in [0, 1].
    - `is_relevant` needs at least RELEVANT_MIN_SHARED distinct shared keys (one for a one-term
      subject) and relevance ≥ RELEVANT_MIN_SHARE: one shared word ("time", "wait") is not enough.
    - `coverage` = shared keys / |subject keys| (uncapped): the share of the subject a result
      already states, used as a prior-art similarity.
"""

from __future__ import annotations

from forge.core.research.text_terms import match_keys

RELEVANT_MIN_SHARED = 2
RELEVANT_MIN_SHARE = 0.25
SUBJECT_KEYS_CAP = 8


def shared_keys(result_text: str, subject: str) -> frozenset[str]:
    return match_keys(result_text) & match_keys(subject)


def relevance(result_text: str, subject: str) -> float:
    keys = match_keys(subject)
    if not keys:
        return 0.0
    return min(1.0, len(shared_keys(result_text, subject)) / min(len(keys), SUBJECT_KEYS_CAP))


def is_relevant(result_text: str, subject: str) -> bool:
    keys = match_keys(subject)
    needed = min(RELEVANT_MIN_SHARED, len(keys))
    return (
        needed > 0
        and len(shared_keys(result_text, subject)) >= needed
        and relevance(result_text, subject) >= RELEVANT_MIN_SHARE
    )


def coverage(result_text: str, subject: str) -> float:
    keys = match_keys(subject)
    return len(keys & match_keys(result_text)) / len(keys) if keys else 0.0
