"""EXPLORE, defined in one place: morphological box, distant analogies, contradictions, adjacent possible.

Invariants:
    - Its brief carries what DECOMPOSE produced and the person decided (fundamentals, selected
      reframings, assumptions) and the domains the person suggested.
    - It works from the pool (issue 36 item 2): the brief's `pool` is BISO's strongest gated
      hypotheses (id, domain, statement, mechanism, observable, mapping score, gate result) and the
      results on the suggested domains, with a POOL instruction to research, challenge and promote
      them; search_cross_domain cites the id it builds on or passes the same mapping gate.
    - It pauses for the explore review once `check_explore_work_complete` passes; the review and
      rule 2 live in `forge.core.phases.close_explore`.
"""

from __future__ import annotations

from typing import Any

from forge.agent.phases.compose_brief import compose_brief
from forge.agent.phases.explore_tools import EXPLORE_TOOLS
from forge.agent.phases.offered_in_brief import offered_entry
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING, RESEARCH
from forge.core.domain_types import Phase
from forge.core.explore.pool_offer import biso_head, explore_offer, suggestion_candidates, this_rounds_suggestions
from forge.core.llm.messages import Message
from forge.core.phases import close_explore
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import encode_value

INSTRUCTION = """GOAL: widen the solution space beyond the obvious before converging on claims.
DO: build_morphological_box; pick >= 2 source domains far from the problem's own field (far beats near when \
the structure holds), including every domain your reviewer suggested; for each, research naming the domain, \
then search_cross_domain with its mapping table, an observable and a failure mode; identify_contradictions \
(what improves, what worsens as two of the 39 TRIZ parameters so the matrix gives the principles, how to \
get both); map_adjacent_possible.
EXCELLENT: analogies share a mechanism, not a surface likeness; the observable could be measured in the \
problem next month; the failure mode names the difference between the domains that would break the \
transfer; a contradiction is resolved by separation (time, space, scale, condition), not by a compromise.
DONE WHEN: the box, >= 2 analogies from different domains and >= 1 contradiction are recorded. Then stop and \
summarise; the person stars the analogies worth building on."""
POOL = """POOL: the engine already carried distant domains onto the problem (BISO). `pool` lists its strongest \
hypotheses with their mapping score and mapping-quality gate result (and the domains your reviewer suggested, \
marked `suggested`). Research, challenge and promote the strongest: research each one you build on, drop \
the ones research contradicts, and record the survivors with search_cross_domain passing their id as \
hypothesis_id, sharpened by what you found. An analogy without a hypothesis_id is new: its mapping table \
must pass the same gate (>= 6 rows that each add something, each with source_relation, target_relation and \
an observable_link, >= 2 mapping types, one systematicity_group of >= 3 rows)."""


def pool_view(state: ForgeState) -> list[dict[str, Any]]:
    """The pool the brief offers: BISO's head, then the results on the domains the person suggested."""
    head = biso_head(state)
    suggested = {c.id: o.suggestion for o in this_rounds_suggestions(state) for c in suggestion_candidates(o, head)}
    return [
        offered_entry(c, {"domain": c.domain_name}) | ({"suggested": suggested[c.id]} if c.id in suggested else {})
        for c in explore_offer(state)
    ]


def instruction(state: ForgeState) -> str:
    return f"{INSTRUCTION}\n{POOL}" if explore_offer(state) else INSTRUCTION


def brief(state: ForgeState) -> Message:
    context = {
        "fundamentals": state.fundamentals,
        "selected_reframings": [r.text for r in state.selected_reframings],
        "assumptions": encode_value(state.assumptions),
        "suggested_domains": state.suggested_domains,
    }
    pool = pool_view(state)
    return compose_brief(Phase.EXPLORE, state, instruction(state), context | ({"pool": pool} if pool else {}))


DEFINITION = PhaseDefinition(
    phase=Phase.EXPLORE,
    tools=EXPLORE_TOOLS,
    tool_names=(RESEARCH, *names_of(EXPLORE_TOOLS), *CROSS_CUTTING),
    work_gate=close_explore.check_explore_work_complete,
    brief=brief,
    review=close_explore.REVIEW,
    # One search_cross_domain call may reach ~20,000 characters (a 4,000-character description and
    # a 12-row mapping table), ~5k tokens: the largest single call of any phase.
    # 16k holds two such analogies in one turn.
    max_tokens=16_384,
)
