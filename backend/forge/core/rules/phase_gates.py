"""Gates inside a phase: research gates (rules 12-15), negative knowledge (10) and the round limit (11).

Invariants:
    - Every check is a pure function of ForgeState (and the tool's subject) returning
      `RuleViolation | None`; messages say what is missing so the model (or person) can fix it.
    - Research gates look only at research recorded in the *current phase* whose query shares a
      content term with the subject: a search about something else does not unlock a tool.
    - Only research the model has read counts: research a tool call ran in the same turn as the
      recording call is refused with a message saying to wait for its results (`ForgeState.has_read`).
    - The claim gates (rules 14 and 15) also need that search to have returned a result relevant
      to the thesis or claim (`core.text_relevance.is_relevant`: at least two shared terms), so one
      shared word in the query is not research on the claim. When EXHAUSTED_QUERIES distinct queries
      naming the subject found nothing relevant, the gate opens: "nothing about it was found" is an
      honest result of a search, and a small corpus must not leave the phase stuck.
    - With a real model present, the claim gates read the verifier's judgment of this phase's read
      results (`core.research.hit_relevance`: one line of reason, then a verdict, per result) instead
      of shared words: a result it judged about the thesis or claim opens the gate, in any language.
      Only the fallback's count of searches naming the subject stays on words. Offline (no judgment),
      the word rules below are the stand-in's judgment, and the refusal says so.
    - Rules 12 and 13 ask whether research was aimed at the problem or the source domain: a query
      naming it (in its words or its rendering) opens them; when none did and a real model is present,
      a read result the model judged about it opens them too (an English search for a Chinese problem).
    - Across languages a record is compared by every query it searched (`searched_queries`: the query
      and the model's English rendering of a query in another language). A result in the corpus's
      language is relevant to a subject in another language when the query that names the subject in
      its own words was rendered by the model and the result is relevant to that rendering.

Design decisions:
    - Why the rendering, not a claim id named by the research call or vectors: the shipped embedder is
      English-only (the one multilingual model on PyPI, measured, puts a translation at 0.82-0.85 and an
      unrelated sentence at up to 0.79: too narrow a margin for a gate; providers/sentence_embedder.py),
      and a claim id named by the call would open the gate without checking that any result is about
      the claim. With a real model the gates need neither: the verifier reads the results. The chain subject ~
      query (shared words, same language) → rendering (the model's translation) ~ result (shared
      words, same language) keeps that check on both sides of the language boundary.
    - The gates that *close* a phase live with that phase in `phases/close_<phase>.py`: its work
      gate (the agent's share, which decides when the runner pauses for review) and its transition
      rule (rules 1, 2 and 4, which also need the person's review).
"""

from __future__ import annotations

from forge.core.research.hit_relevance import RelevanceJudgment
from forge.core.research.query_renderings import searched_queries
from forge.core.research.text_relevance import is_relevant
from forge.core.research.text_terms import salient_terms, shares_terms
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit, ResearchRecord


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


def _about(record: ResearchRecord, subject: str) -> bool:
    return any(shares_terms(query, subject) for query in searched_queries(record))


def _relevant(record: ResearchRecord, hit: ResearchHit, subject: str) -> bool:
    """The hit is about the subject, or about the model's rendering of a query naming the subject."""
    text = f"{hit.title} {hit.snippet}"
    if is_relevant(text, subject):
        return True
    return shares_terms(record.query, subject) and any(is_relevant(text, r) for r in record.renderings)


def _researched(state: ForgeState, subject: str) -> bool:
    return any(_about(record, subject) for record in state.read_research_this_phase)


def _unread_hint(state: ForgeState, subject: str, tool: str) -> str | None:
    """The message for research on the subject that ran in this same turn: its results are not read yet."""
    unread = [r for r in state.web_searches_this_phase if not state.has_read(r) and _about(r, subject)]
    if not unread:
        return None
    return (
        f"The research it needs (“{unread[-1].query}”) ran in this same turn, so you have not read its results yet. "
        f"Wait for them, then call {tool} in your next turn, citing what they found."
    )


EXHAUSTED_QUERIES = 3


def _researched_with_result(state: ForgeState, subject: str, judged: RelevanceJudgment | None) -> bool:
    """A search this phase that returned a result about `subject` (judged by the model when one is
    present, else by shared words), or EXHAUSTED_QUERIES distinct searches naming it that found none."""
    about = [record for record in state.read_research_this_phase if _about(record, subject)]
    if judged is not None and judged.about:
        return True
    if judged is None and any(_relevant(record, h, subject) for record in about for h in record.hits):
        return True
    return len({record.query.strip().casefold() for record in about}) >= EXHAUSTED_QUERIES


def _relevance_hint(state: ForgeState, subject: str, judged: RelevanceJudgment | None) -> str:
    if judged is not None:
        detail = judged.refusal_detail()
        return (
            f" {judged.judged_by} read the {len(judged.results)} result(s) of this phase's research and judged none "
            f"about it{f' ({detail})' if detail else ''}. Search for what would support or refute it (after "
            f"{EXHAUSTED_QUERIES} different queries naming it that find nothing, record that nothing was found)."
        )
    if not _researched(state, subject):
        return _terms_hint(state, subject)
    return (
        " Searches this phase named the subject but returned no result about it (judged by shared words, the rule "
        "when no model judges: a relevant result shares at least two of its terms: "
        f"{', '.join(salient_terms(subject, 6))}); search with the mechanism's own words (after "
        f"{EXHAUSTED_QUERIES} different queries that find nothing, record that nothing was found)."
    )


def _terms_hint(state: ForgeState, subject: str) -> str:
    """Which terms a query must share with the subject, and which queries this phase did not."""
    terms = ", ".join(salient_terms(subject, 6)) or subject[:80]
    tried = [record.query for record in state.web_searches_this_phase][-3:]
    missed = f" Queries so far this phase share none of them: {'; '.join(tried)}." if tried else ""
    return f" The query must contain at least one of these terms: {terms}.{missed}"


def _named_or_judged(state: ForgeState, subject: str, judged: RelevanceJudgment | None) -> bool:
    """Rules 12, 13: a query this phase named the subject, or the model judged a read result about it."""
    return _researched(state, subject) or (judged is not None and bool(judged.about))


def _judged_none(judged: RelevanceJudgment | None) -> str:
    if judged is None:
        return ""
    return f" ({judged.judged_by} read the {len(judged.results)} result(s) of this phase's research: none is about it.)"


def check_research_before_state_of_art(
    state: ForgeState, judged: RelevanceJudgment | None = None
) -> RuleViolation | None:
    """Rule 12: map_state_of_art requires research about the problem in this phase."""
    if not _named_or_judged(state, state.problem, judged):
        unread = _unread_hint(state, state.problem, "map_state_of_art")
        return RuleViolation(
            ErrorCode.STATE_OF_ART_NOT_RESEARCHED,
            unread
            or "Call research with a query about the problem first, then map_state_of_art."
            + _terms_hint(state, state.problem)
            + _judged_none(judged),
        )
    return None


def check_research_before_cross_domain(
    state: ForgeState, source_domain: str, judged: RelevanceJudgment | None = None
) -> RuleViolation | None:
    """Rule 13: search_cross_domain requires research mentioning that domain in this phase."""
    if not _named_or_judged(state, source_domain, judged):
        unread = _unread_hint(state, source_domain, "search_cross_domain")
        return RuleViolation(
            ErrorCode.CROSS_DOMAIN_NOT_SEARCHED,
            unread
            or f"Call research with a query naming '{source_domain}' first, then search_cross_domain."
            + _terms_hint(state, source_domain)
            + _judged_none(judged),
        )
    return None


def check_research_before_antithesis(
    state: ForgeState, thesis_text: str, judged: RelevanceJudgment | None = None
) -> RuleViolation | None:
    """Rule 14: find_antithesis requires research for counter-evidence on that thesis."""
    if not _researched_with_result(state, thesis_text, judged):
        unread = _unread_hint(state, thesis_text, "find_antithesis")
        return RuleViolation(
            ErrorCode.ANTITHESIS_NOT_SEARCHED,
            unread
            or "Call research for counter-evidence on the thesis first, then find_antithesis."
            + _relevance_hint(state, thesis_text, judged),
        )
    return None


def check_research_before_falsification(
    state: ForgeState, claim_text: str, judged: RelevanceJudgment | None = None
) -> RuleViolation | None:
    """Rule 15: attempt_falsification requires research aimed at disproving that claim."""
    if not _researched_with_result(state, claim_text, judged):
        unread = _unread_hint(state, claim_text, "attempt_falsification")
        return RuleViolation(
            ErrorCode.FALSIFICATION_NOT_SEARCHED,
            unread
            or "Call research aimed at disproving the claim first, then attempt_falsification."
            + _relevance_hint(state, claim_text, judged),
        )
    return None
