"""Gates inside a phase: research gates (rules 12-15), negative knowledge (10) and the round limit (11).

Invariants:
    - Every check is a pure function of ForgeState (and the tool's subject) returning
      `RuleViolation | None`; messages say what is missing so the model (or person) can fix it.
    - Research gates look only at research recorded in the *current phase* whose query shares a
      content term with the subject: a search about something else does not unlock a tool.

Design decisions:
    - The gates that *close* a phase live with that phase in `phases/close_<phase>.py`: its work
      gate (the agent's share, which decides when the runner pauses for review) and its transition
      rule (rules 1, 2 and 4, which also need the person's review).
"""

from __future__ import annotations

from forge.core.forge_state import ForgeState
from forge.core.rule_verdicts import ErrorCode, RuleViolation
from forge.core.text_terms import shares_terms


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
