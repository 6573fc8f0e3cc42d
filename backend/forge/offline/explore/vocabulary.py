"""Fixed everyday-word expansions that bridge problem language and the shipped knowledge's vocabulary.

Invariants:
    - Two hand-written, inspectable tables; nothing is learned or downloaded. A word maps to the
      cue vocabulary it stands for ("staff" -> labour and capacity terms), so a problem that never
      says "queue" or "load" can still meet the domains and parameters that speak of them.
    - `expand` is deterministic: the expansions are appended in the order the words appear.
"""

from __future__ import annotations

from collections.abc import Mapping

from forge.core.research.text_terms import content_terms

TRIZ_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(
        ("staff", "staffing", "headcount", "worker", "employee", "nurse", "doctor", "people"), "labor resources"
    ),
    **dict.fromkeys(("budget", "money", "funding", "spend", "spending", "cost", "price"), "cost resources"),
    **dict.fromkeys(
        ("death", "mortality", "injury", "injuries", "casualty", "illness", "fatality"), "harm risk safety"
    ),
    **dict.fromkeys(("churn", "attrition", "dropout", "turnover", "leave", "leaving", "quit"), "turnover churn"),
    **dict.fromkeys(("waste", "wasting", "wasted", "spoil", "spoiled", "leftover"), "wastage spoilage scrap"),
}
"""Everyday words -> the 39 TRIZ parameters' cue vocabulary (the parameters speak engineering)."""

DOMAIN_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(
        ("churn", "attrition", "leave", "leaving", "quit", "dropout", "retention", "turnover"),
        "burnout decay population survival fatigue",
    ),
    **dict.fromkeys(
        ("contributor", "volunteer", "member", "maintainer", "community"), "community volunteers collective peers"
    ),
    **dict.fromkeys(("death", "mortality", "fatality", "casualty", "injury"), "exposure vulnerability failure"),
    **dict.fromkeys(("staff", "staffing", "nurse", "doctor", "worker", "employee"), "capacity workload load"),
    **dict.fromkeys(("budget", "money", "funding", "cost", "spend"), "resources scarce allocation"),
    **dict.fromkeys(("crop", "farm", "yield", "harvest"), "harvest growth resources"),
    **dict.fromkeys(("adoption", "uptake", "onboarding"), "adoption spread"),
}
"""Everyday words -> the source domains' cue vocabulary (weighted below a direct cue hit)."""


def expand(text: str, table: Mapping[str, str]) -> str:
    """The expansion words of `text`'s terms found in `table` (not `text` itself)."""
    return " ".join(dict.fromkeys(table[t] for t in content_terms(text) if t in table))
