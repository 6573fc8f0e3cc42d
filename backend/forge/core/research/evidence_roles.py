"""The role a cited source may play for a claim: "supporting" only when the source is on topic.

Invariants:
    - Pure. A source cited as SUPPORTING stays supporting only when its title and snippet are
      relevant to the topic (the problem) by `core.text_relevance.is_relevant` — at least
      RELEVANT_MIN_SHARED shared terms and a share of RELEVANT_MIN_SHARE of the topic's terms;
      otherwise it is recorded as CONTEXTUAL (a thermodynamics text behind a bakery claim explains
      the source domain, it does not support the claim about the bakery).
    - CONTRADICTING and CONTEXTUAL are kept as cited: demotion only ever weakens a claim's support.
"""

from __future__ import annotations

from forge.core.domain_types import EvidenceType
from forge.core.research.text_relevance import is_relevant


def role_on_topic(cited: EvidenceType, source_text: str, topic: str) -> EvidenceType:
    """`cited`, except SUPPORTING becomes CONTEXTUAL for a source that is off the topic."""
    if cited is EvidenceType.SUPPORTING and not is_relevant(source_text, topic):
        return EvidenceType.CONTEXTUAL
    return cited
