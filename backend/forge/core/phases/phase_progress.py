"""One line of phase progress, sent with every successful tool result ("analogies 1/2, contradictions 0/1").

Invariants:
    - Pure: a function of ForgeState only; counts use the same minimums as the phases' work gates
      (domain_types), so "2/2" here means the gate counts that part as done.
    - One function per phase in an explicit registry; CRYSTALLIZE reports whether the document exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from forge.core.domain_types import (
    MAX_CLAIMS_PER_ROUND,
    MIN_ASSUMPTIONS,
    MIN_CONTRADICTIONS,
    MIN_CROSS_DOMAIN_SEARCHES,
    MIN_REFRAMINGS,
    ClaimStatus,
    Phase,
)
from forge.core.session.forge_state import ForgeState

GRAPH_STATUSES = (ClaimStatus.VALIDATED, ClaimStatus.QUALIFIED, ClaimStatus.SUPERSEDED)


def _yes(done: bool) -> str:
    return "done" if done else "missing"


def _decompose(s: ForgeState) -> str:
    return (
        f"fundamentals {_yes(bool(s.fundamentals))}, state of the art {_yes(s.state_of_art is not None)}, "
        f"assumptions {len(s.assumptions)}/{MIN_ASSUMPTIONS}, reframings {len(s.reframings)}/{MIN_REFRAMINGS}"
    )


def _explore(s: ForgeState) -> str:
    return (
        f"morphological box {_yes(bool(s.morphological_box))}, "
        f"analogies {len(s.cross_domain_analogies)}/{MIN_CROSS_DOMAIN_SEARCHES}, "
        f"contradictions {len(s.contradictions)}/{MIN_CONTRADICTIONS}, adjacent possible {len(s.adjacent_possible)}"
    )


def _synthesize(s: ForgeState) -> str:
    claims = s.current_round_claims
    with_antithesis = sum(1 for c in claims if c.antithesis_text)
    synthesized = sum(1 for c in claims if c.synthesized)
    return (
        f"claims {len(claims)}/{MAX_CLAIMS_PER_ROUND}, with antithesis {with_antithesis}/{len(claims)}, "
        f"synthesized {synthesized}/{len(claims)}"
    )


def _validate(s: ForgeState) -> str:
    n = len(s.current_round_claims)
    scored = sum(1 for c in s.current_round_claims if c.scores is not None)
    asked = [c for c in s.current_round_claims if c.user_feedback]
    acted = sum(1 for c in asked if c.feedback_response is not None)
    feedback = f"feedback acted on {acted}/{len(asked)}, " if asked else ""
    return feedback + (
        f"falsification {len(s.falsification_attempted)}/{n}, novelty {len(s.novelty_checked)}/{n}, scored {scored}/{n}"
    )


def _build(s: ForgeState) -> str:
    in_graph = {c.id for c in s.knowledge_graph_nodes}
    kept = [c for c in s.current_round_claims if c.status in GRAPH_STATUSES]
    added = sum(1 for c in kept if c.id in in_graph)
    return f"kept claims in the graph {added}/{len(kept)}, gaps {len(s.gaps)}"


def _crystallize(s: ForgeState) -> str:
    return f"knowledge document {_yes(bool(s.knowledge_document_markdown))}"


PROGRESS: Mapping[Phase, Callable[[ForgeState], str]] = {
    Phase.DECOMPOSE: _decompose,
    Phase.EXPLORE: _explore,
    Phase.SYNTHESIZE: _synthesize,
    Phase.VALIDATE: _validate,
    Phase.BUILD: _build,
    Phase.CRYSTALLIZE: _crystallize,
}


def phase_progress(state: ForgeState) -> str:
    """E.g. "EXPLORE round 1: morphological box done, analogies 1/2, contradictions 0/1, adjacent possible 0"."""
    phase = state.current_phase
    return f"{phase.value.upper()} round {state.current_round + 1}: {PROGRESS[phase](state)}"
