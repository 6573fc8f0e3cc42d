"""Phase gates and research gates: rules 1, 2, 4, 10, 11 and 12-15 of the product spec.

Invariants:
    - Every check is a pure function of ForgeState (and the tool's subject) returning
      `RuleViolation | None`; messages say what is missing so the model (or person) can fix it.
    - Research gates look only at research recorded in the *current phase* whose query shares a
      content term with the subject: a search about something else does not unlock a tool.

Design decisions:
    - "Work complete" checks (the agent's share of a phase) are separate from the transition rules,
      which also need the person's review (a selected reframing, a starred analogy). The runner uses
      the former to decide when to pause for review; the review endpoint uses the latter.
"""

from __future__ import annotations

from forge.core.domain_types import (
    MIN_ASSUMPTIONS,
    MIN_CONTRADICTIONS,
    MIN_CROSS_DOMAIN_SEARCHES,
    MIN_REFRAMINGS,
    ClaimStatus,
)
from forge.core.forge_state import ForgeState
from forge.core.rule_verdicts import ErrorCode, RuleViolation
from forge.core.text_terms import shares_terms


def _missing(code: ErrorCode, phase: str, missing: list[str]) -> RuleViolation | None:
    if not missing:
        return None
    return RuleViolation(code, f"{phase} is incomplete: still missing {'; '.join(missing)}.")


def _decompose_work_missing(state: ForgeState) -> list[str]:
    missing = []
    if not state.fundamentals:
        missing.append("fundamentals (call decompose_to_fundamentals)")
    if state.state_of_art is None:
        missing.append("state of the art (research, then map_state_of_art)")
    if len(state.assumptions) < MIN_ASSUMPTIONS:
        missing.append(f"at least {MIN_ASSUMPTIONS} assumptions (have {len(state.assumptions)})")
    if len(state.reframings) < MIN_REFRAMINGS:
        missing.append(f"at least {MIN_REFRAMINGS} reframings (have {len(state.reframings)})")
    return missing


def check_decompose_work_complete(state: ForgeState) -> RuleViolation | None:
    return _missing(ErrorCode.DECOMPOSE_INCOMPLETE, "DECOMPOSE", _decompose_work_missing(state))


def check_decompose_complete(state: ForgeState) -> RuleViolation | None:
    """Rule 1: DECOMPOSE -> EXPLORE."""
    missing = _decompose_work_missing(state)
    if not state.selected_reframings:
        missing.append("a reframing selected by the user (select at least one)")
    return _missing(ErrorCode.DECOMPOSE_INCOMPLETE, "DECOMPOSE", missing)


def _explore_work_missing(state: ForgeState) -> list[str]:
    missing = []
    if not state.morphological_box:
        missing.append("a morphological box (call build_morphological_box)")
    if state.cross_domain_search_count < MIN_CROSS_DOMAIN_SEARCHES:
        missing.append(
            f"at least {MIN_CROSS_DOMAIN_SEARCHES} cross-domain searches (have {state.cross_domain_search_count})"
        )
    if len(state.contradictions) < MIN_CONTRADICTIONS:
        missing.append(f"at least {MIN_CONTRADICTIONS} contradiction (call identify_contradictions)")
    return missing


def check_explore_work_complete(state: ForgeState) -> RuleViolation | None:
    return _missing(ErrorCode.EXPLORE_INCOMPLETE, "EXPLORE", _explore_work_missing(state))


def check_explore_complete(state: ForgeState) -> RuleViolation | None:
    """Rule 2: EXPLORE -> SYNTHESIZE."""
    missing = _explore_work_missing(state)
    if not state.starred_analogies:
        missing.append("an analogy starred by the user (star at least one)")
    return _missing(ErrorCode.EXPLORE_INCOMPLETE, "EXPLORE", missing)


def check_synthesis_complete(state: ForgeState) -> RuleViolation | None:
    """Rule 4: every claim of the round has an antithesis (and a synthesis) before VALIDATE."""
    claims = state.current_round_claims
    if not claims:
        return RuleViolation(ErrorCode.SYNTHESIS_INCOMPLETE, "No claims this round: state a thesis first.")
    lacking = [str(i) for i in range(len(claims)) if i not in state.antitheses_searched]
    if lacking:
        return RuleViolation(
            ErrorCode.SYNTHESIS_INCOMPLETE,
            f"Claims without antithesis (by index): {', '.join(lacking)}. Call find_antithesis for each.",
        )
    unsynthesized = [str(i) for i, c in enumerate(claims) if not c.synthesized]
    if unsynthesized:
        return RuleViolation(
            ErrorCode.SYNTHESIS_INCOMPLETE,
            f"Claims without synthesis (by index): {', '.join(unsynthesized)}. Call create_synthesis.",
        )
    return None


def check_validate_work_complete(state: ForgeState) -> RuleViolation | None:
    claims = state.current_round_claims
    unscored = [str(i) for i, c in enumerate(claims) if c.scores is None]
    if unscored:
        return RuleViolation(
            ErrorCode.PHASE_WORK_INCOMPLETE,
            f"VALIDATE is incomplete: claims not yet scored (by index): {', '.join(unscored)}. "
            "Attempt falsification, check novelty, then score_claim for each.",
        )
    return None


def check_build_work_complete(state: ForgeState) -> RuleViolation | None:
    in_graph = {c.id for c in state.knowledge_graph_nodes}
    pending = [
        str(i)
        for i, c in enumerate(state.current_round_claims)
        if c.status in (ClaimStatus.VALIDATED, ClaimStatus.QUALIFIED) and c.id not in in_graph
    ]
    if pending:
        return RuleViolation(
            ErrorCode.PHASE_WORK_INCOMPLETE,
            f"BUILD is incomplete: accepted claims not in the graph (by index): {', '.join(pending)}. "
            "Call add_to_knowledge_graph for each.",
        )
    return None


def check_crystallize_work_complete(state: ForgeState) -> RuleViolation | None:
    if state.knowledge_document_markdown is None:
        return RuleViolation(
            ErrorCode.PHASE_WORK_INCOMPLETE,
            "CRYSTALLIZE is incomplete: call generate_knowledge_document to finish.",
        )
    return None


def check_can_start_new_round(state: ForgeState) -> RuleViolation | None:
    """Rule 11: at most MAX_ROUNDS rounds per session."""
    if state.max_rounds_reached:
        return RuleViolation(
            ErrorCode.MAX_ROUNDS_EXCEEDED,
            f"Round {state.current_round + 1} was the last allowed round: resolve the session instead.",
        )
    return None


def check_negative_knowledge_consulted(state: ForgeState) -> RuleViolation | None:
    """Rule 10: in rounds 2+, get_negative_knowledge must be called before synthesis."""
    if state.current_round > 0 and not state.negative_knowledge_consulted:
        return RuleViolation(
            ErrorCode.NEGATIVE_KNOWLEDGE_MISSING,
            "Round 2+ requires get_negative_knowledge before synthesis, so rejected directions are not repeated.",
        )
    return None


def _researched(state: ForgeState, subject: str) -> bool:
    return any(shares_terms(record.query, subject) for record in state.web_searches_this_phase)


def check_research_before_state_of_art(state: ForgeState) -> RuleViolation | None:
    """Rule 12: map_state_of_art requires research about the problem in this phase."""
    if not _researched(state, state.problem):
        return RuleViolation(
            ErrorCode.STATE_OF_ART_NOT_RESEARCHED,
            "Research the problem first (call research with a query about it), then map_state_of_art.",
        )
    return None


def check_research_before_cross_domain(state: ForgeState, source_domain: str) -> RuleViolation | None:
    """Rule 13: search_cross_domain requires research mentioning that domain in this phase."""
    if not _researched(state, source_domain):
        return RuleViolation(
            ErrorCode.CROSS_DOMAIN_NOT_SEARCHED,
            f"Research '{source_domain}' first (a research query naming the domain), then search_cross_domain.",
        )
    return None


def check_research_before_antithesis(state: ForgeState, thesis_text: str) -> RuleViolation | None:
    """Rule 14: find_antithesis requires research for counter-evidence on that thesis."""
    if not _researched(state, thesis_text):
        return RuleViolation(
            ErrorCode.ANTITHESIS_NOT_SEARCHED,
            "Search for counter-evidence first: a research query on the thesis' terms, then find_antithesis.",
        )
    return None


def check_research_before_falsification(state: ForgeState, claim_text: str) -> RuleViolation | None:
    """Rule 15: attempt_falsification requires research aimed at disproving that claim."""
    if not _researched(state, claim_text):
        return RuleViolation(
            ErrorCode.FALSIFICATION_NOT_SEARCHED,
            "Research to disprove the claim first (a query on the claim's terms), then attempt_falsification.",
        )
    return None
