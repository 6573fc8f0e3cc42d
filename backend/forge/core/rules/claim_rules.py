"""Claim rules: 3, 5, 6, 7, 8 and 9 of the product spec.

Invariants:
    - Pure functions of ForgeState and the tool's input; `None` means the rule is satisfied.
    - Claim indices are positions in `current_round_claims` (0..2), as in the spec.
    - A claim is grounded only by evidence whose source some research call actually returned, in an
      earlier model turn than the call that cites it (its results were read).
"""

from __future__ import annotations

from collections.abc import Iterable

from forge.core.domain_types import MAX_CLAIMS_PER_ROUND, ClaimId
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim


def check_claim_index(state: ForgeState, index: int) -> RuleViolation | None:
    count = len(state.current_round_claims)
    if not 0 <= index < count:
        valid = f"0..{count - 1}" if count else "none yet (state a thesis first)"
        return RuleViolation(ErrorCode.CLAIM_NOT_FOUND, f"claim_index {index} does not exist; valid: {valid}.")
    return None


def check_claim_limit(state: ForgeState) -> RuleViolation | None:
    """Rule 8: at most three claims per synthesis round."""
    if len(state.current_round_claims) >= MAX_CLAIMS_PER_ROUND:
        return RuleViolation(
            ErrorCode.CLAIM_LIMIT_EXCEEDED,
            f"This round already has {MAX_CLAIMS_PER_ROUND} claims; work on those instead of stating more.",
        )
    return None


def check_antithesis_exists(state: ForgeState, index: int) -> RuleViolation | None:
    """Rule 3: create_synthesis requires find_antithesis for the same claim index."""
    if index not in state.antitheses_searched:
        return RuleViolation(
            ErrorCode.ANTITHESIS_MISSING,
            f"Claim {index} has no antithesis: call find_antithesis for it before create_synthesis.",
        )
    return None


def check_falsification_attempted(state: ForgeState, index: int) -> RuleViolation | None:
    """Rule 5: score_claim requires attempt_falsification for the claim."""
    if index not in state.falsification_attempted:
        return RuleViolation(
            ErrorCode.FALSIFICATION_MISSING,
            f"Claim {index} has not been through attempt_falsification; do that before score_claim.",
        )
    return None


def check_novelty_checked(state: ForgeState, index: int) -> RuleViolation | None:
    """Rule 6: score_claim requires check_novelty for the claim."""
    if index not in state.novelty_checked:
        return RuleViolation(
            ErrorCode.NOVELTY_UNCHECKED,
            f"Claim {index} has not been through check_novelty; do that before score_claim.",
        )
    return None


def researched_sources(state: ForgeState) -> frozenset[str]:
    """Sources research returned whose results the model has read (not those of this same turn)."""
    return frozenset(hit.source for record in state.research_log if state.has_read(record) for hit in record.hits)


def _unread_sources(state: ForgeState, sources: Iterable[str]) -> list[str]:
    pending = {hit.source for record in state.research_log if not state.has_read(record) for hit in record.hits}
    return sorted(set(sources) & pending)


KNOWN_SOURCES_SHOWN = 12


def _recent_sources(state: ForgeState) -> list[str]:
    """Researched sources, most recent research first, without repeats."""
    found = (hit.source for record in reversed(state.research_log) for hit in record.hits)
    return list(dict.fromkeys(found))


def check_sources_researched(state: ForgeState, sources: Iterable[str]) -> RuleViolation | None:
    """Rule 7 (provenance half): cited sources must have been returned by research."""
    unknown = sorted(set(sources) - researched_sources(state))
    if not unknown:
        return None
    unread = _unread_sources(state, unknown)
    if unread:
        return RuleViolation(
            ErrorCode.UNGROUNDED_CLAIM,
            f"These sources come from research run in this same turn, so you have not read them yet: "
            f"{', '.join(unread)}. Wait for the results, read them, then record in your next turn.",
        )
    recent = _recent_sources(state)
    shown = ", ".join(recent[:KNOWN_SOURCES_SHOWN]) or "none yet: call research first"
    more = f" (and {len(recent) - KNOWN_SOURCES_SHOWN} more)" if len(recent) > KNOWN_SOURCES_SHOWN else ""
    return RuleViolation(
        ErrorCode.UNGROUNDED_CLAIM,
        f"These sources were not returned by any research call: {', '.join(unknown)}. Copy `source` strings "
        f"exactly from research results. Sources research returned, most recent first: {shown}{more}.",
    )


def check_claim_grounded(claim: Claim) -> RuleViolation | None:
    """Rule 7: a claim needs at least one piece of external evidence.

    The message names what VALIDATE offers (research, then attempt_falsification with
    evidence_sources), since score_claim is the tool that asks and thesis tools are not offered there.
    """
    if not claim.evidence:
        return RuleViolation(
            ErrorCode.UNGROUNDED_CLAIM,
            "The claim has no external evidence. Call research on the claim, then attempt_falsification again "
            "for it with the results' `source` strings in evidence_sources, then score_claim.",
        )
    return None


def check_cumulative(state: ForgeState, builds_on: Iterable[ClaimId]) -> RuleViolation | None:
    """Rule 9: in rounds 2+, the round must build on at least one claim of an earlier round.

    Earlier claims include rejected ones: building on (by overturning) a rejected direction is
    cumulative too, and it keeps a round reachable when every earlier claim was rejected.
    """
    if state.current_round == 0 or state.previous_claims_referenced:
        return None
    earlier = {c.id for c in state.past_round_claims} | {c.id for c in state.knowledge_graph_nodes}
    if not any(claim_id in earlier for claim_id in builds_on):
        return RuleViolation(
            ErrorCode.NOT_CUMULATIVE,
            "Round 2+ must build on earlier knowledge: pass builds_on_claim_id of a claim from an earlier round.",
        )
    return None


def feedback_unaddressed(state: ForgeState) -> list[int]:
    """Indices of the round's claims with the person's feedback that no revise_claim has acted on yet."""
    return [i for i, c in enumerate(state.current_round_claims) if c.user_feedback and c.feedback_response is None]


def check_feedback_addressed(state: ForgeState, index: int) -> RuleViolation | None:
    """The person's feedback on a claim is acted on (revised or answered) before the claim is tested."""
    claim = state.current_round_claims[index]
    if claim.user_feedback and claim.feedback_response is None:
        return RuleViolation(
            ErrorCode.FEEDBACK_UNADDRESSED,
            f"The person gave feedback on claim {index} ({claim.id}): “{claim.user_feedback}”. Act on it first: "
            "revise_claim with the revised text, or with the text kept and a response saying why it stands.",
        )
    return None
