"""SYNTHESIZE, defined in one place: up to three claims by thesis -> antithesis -> synthesis.

Invariants:
    - Its brief carries the person's choices (selected reframings, starred analogies, suggested
      domains), the contradictions, the graph so far, the negative knowledge and the deep-dive
      target, so rounds 2+ can build on earlier claims (rule 9) and avoid rejected ones (rule 10).
    - A deep dive's target comes with its neighbours as the path navigator chose them (a walk from
      the target under the default navigation budget: which claims to bring into context), and a
      curiosity item the person picked at the build review comes as the round's `direction`.
    - It also offers BUILD's get_negative_knowledge: rule 10 must be satisfiable in rounds 2+.
    - The engine's products are candidate theses and antitheses: SEARCH's children of this round
      (`search_candidates`: operator, parents, lineage, hyperpath) and the starred pool hypotheses
      (a starred analogy's `hypothesis_id`), and the engine's results on the domains the person
      suggested this round (`suggested_domain_results`); state_thesis records the ids a claim came from.
    - It pauses for the claims review once rule 4 passes (`forge.core.phases.close_synthesize`).
"""

from __future__ import annotations

from typing import Any

from forge.agent.phases.compose_brief import analogies_view, compose_brief, graph_view
from forge.agent.phases.offered_in_brief import offered_entry
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING, RESEARCH
from forge.agent.phases.synthesize_tools import SYNTHESIZE_TOOLS, offered_hypotheses
from forge.core.curation.graph_gaps import deep_dive_neighbours, navigation_view
from forge.core.curation.path_navigator import NavigationBudget
from forge.core.domain_types import Phase
from forge.core.explore.pool_offer import biso_head, suggestion_candidates, this_rounds_suggestions
from forge.core.llm.messages import Message
from forge.core.phases import close_synthesize
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim
from forge.core.session.state_codec import encode_value
from forge.providers.token_counting import cl100k_length

FIRST_ROUND = """GOAL: turn what was explored into at most 3 claims that are new, grounded and testable; two \
excellent claims beat three average ones.
DO for each claim: state_thesis (a mechanism with its expected effect, citing >= 1 source; start from the \
starred analogies, the selected reframings and the contradictions) -> research counter-evidence on the \
thesis' own terms -> find_antithesis (the strongest objection, not a weak one) -> create_synthesis (the claim \
scoped to where it survives the objection, with a falsifiability condition: metric, baseline, threshold, \
time window)."""
LATER_ROUND = """GOAL: round {round} makes the knowledge cumulative: extend, sharpen or overturn what earlier \
rounds found, never repeat it; at most 3 claims.
DO: call get_negative_knowledge first (rule 10) and read what was rejected and why; then for each claim: \
state_thesis -> research counter-evidence on the thesis' own terms -> find_antithesis -> create_synthesis \
with builds_on_claim_id of the earlier claim it builds on (rule 9) and a falsifiability condition (metric, \
baseline, threshold, time window). A qualified claim keeps its qualification in everything built on it."""
DEEP_DIVE = """DEEP DIVE: every claim this round goes deeper into the target claim (its mechanism, its boundary \
conditions, or a sharper test of it) and passes its id as builds_on_claim_id."""
THINK = """THINK FIRST: before the first thesis, weigh the candidate directions against each other and keep \
the ones whose mechanisms differ; before each synthesis, ask where the claim would fail."""
CANDIDATES = """CANDIDATES: the engine searched the hypothesis pool for you. `search_candidates` are SEARCH's \
children (each with its operator, parent ids and lineage; an `oppose` or `extreme` child is a ready \
antithesis to its parent), a starred analogy with a `hypothesis_id` is a pool hypothesis the person chose, and \
`suggested_domain_results` are the engine's hypotheses on the domains the person suggested. \
Start from them: take the strongest as theses, use the ones that contradict a thesis as its antithesis, and \
pass the ids a claim builds on as hypothesis_ids in state_thesis."""
DONE = """DONE WHEN: every claim has a thesis, an antithesis and a synthesis. Then stop and summarise; the \
person comments on the claims before VALIDATE."""


def instruction(state: ForgeState) -> str:
    lead = FIRST_ROUND if state.current_round == 0 else LATER_ROUND.format(round=state.current_round + 1)
    deep = DEEP_DIVE if state.deep_dive_target_claim_id else ""
    candidates = CANDIDATES if offered_hypotheses(state) else ""
    return "\n".join(p for p in (lead, deep, candidates, THINK, DONE) if p)


def deep_dive_view(state: ForgeState, target: Claim) -> dict[str, Any]:
    """The target and the neighbours a navigator walk from it selected (with the walk's summary)."""
    neighbours, walk = deep_dive_neighbours(
        target, state.knowledge_graph_nodes, state.knowledge_graph_edges, NavigationBudget(), cl100k_length
    )
    return {
        "id": str(target.id),
        "text": target.text,
        "neighbours": [
            {"id": str(n.claim.id), "text": n.claim.text, "via": n.relation, "relevance": n.relevance}
            for n in neighbours
        ],
        "navigation": navigation_view(walk),
    }


def _direction(state: ForgeState) -> dict[str, Any] | None:
    chosen = state.chosen_direction
    return {"question": chosen.question, "node": chosen.node_text} if chosen is not None else None


def _context(state: ForgeState) -> dict[str, Any]:
    target = state.graph_node(state.deep_dive_target_claim_id) if state.deep_dive_target_claim_id else None
    direction = _direction(state)
    return (
        {
            "selected_reframings": [r.text for r in state.selected_reframings],
            "starred_analogies": analogies_view(state.starred_analogies),
            "contradictions": encode_value(state.contradictions),
            "graph_claims": graph_view(state),
            "negative_knowledge": encode_value(state.negative_knowledge),
            "suggested_domains": state.suggested_domains,
            "deep_dive": deep_dive_view(state, target) if target else None,
        }
        | ({"direction": direction} if direction else {})
        | _candidates(state)
        | _suggested_results(state)
    )


def _suggested_results(state: ForgeState) -> dict[str, Any]:
    """What the engine made of the domains the person suggested this round (none: no key)."""
    head = biso_head(state)
    results = [
        {
            "suggestion": o.suggestion,
            "explored_as": o.domain_name or "not explored",
            "note": o.note,
            "candidates": [offered_entry(c) for c in suggestion_candidates(o, head)],
        }
        for o in this_rounds_suggestions(state)
    ]
    return {"suggested_domain_results": results} if results else {}


def _candidates(state: ForgeState) -> dict[str, Any]:
    """SEARCH's children of this round, as the brief offers them (none: no key)."""
    search = state.search
    if search is None or search.round != state.current_round or not search.candidates:
        return {}
    return {
        "search_candidates": [
            offered_entry(c, {"operator": c.operator, "parents": list(c.parents), "lineage": list(c.lineage)})
            for c in search.candidates
        ]
    }


def brief(state: ForgeState) -> Message:
    return compose_brief(Phase.SYNTHESIZE, state, instruction(state), _context(state))


DEFINITION = PhaseDefinition(
    phase=Phase.SYNTHESIZE,
    tools=SYNTHESIZE_TOOLS,
    tool_names=(RESEARCH, "get_negative_knowledge", *names_of(SYNTHESIZE_TOOLS), *CROSS_CUTTING),
    work_gate=close_synthesize.check_synthesis_complete,
    brief=brief,
    review=close_synthesize.REVIEW,
    # Room to think (THINKING_BUDGET, where the provider supports it) plus a turn of several calls
    # (create_synthesis is ~3,000 characters).
    max_tokens=16_384,
)
