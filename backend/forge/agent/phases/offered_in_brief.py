"""One offered pool hypothesis as a brief lists it (EXPLORE's `pool`, SYNTHESIZE's
`suggested_domain_results` and `search_candidates`).

Invariants:
    - Keys in one order: `id`, then what the brief says of where it came from (`head`: its domain, or
      a SEARCH child's operator, parents and lineage), then what it says, its mapping score, its gate.
    - A pool hypothesis's gate reads in words with the rules it failed (`gate`); a SEARCH child's is
      a flag (`gate_passed`), with the HKG chain it followed when it has one (`hyperpath`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.core.hypotheses.offered_hypothesis import OfferedHypothesis
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.search.candidates import SearchCandidate


def offered_entry(offered: OfferedHypothesis, head: Mapping[str, Any] | None = None) -> dict[str, Any]:
    gate: dict[str, Any] = (
        {"gate": offered.gate} if isinstance(offered, PoolCandidate) else {"gate_passed": offered.gate_passed}
    )
    path = {"hyperpath": offered.hyperpath} if isinstance(offered, SearchCandidate) and offered.hyperpath else {}
    return {
        "id": offered.id,
        **(head or {}),
        "title": offered.title,
        "statement": offered.statement,
        "mechanism": offered.mechanism,
        "observable": offered.observable,
        "mapping_score": offered.mapping_score,
        **gate,
        **path,
    }
