"""The person's decisions, in words: the "YOUR REVIEWER DECIDED" block of every brief after the first.

Invariants:
    - A pure function of ForgeState: selected and added reframings, confirmed, rejected and added
      assumptions, starred analogies, suggested domains, feedback per claim, verdicts (accepted,
      qualified with the qualification's exact words, merged, rejected with the reason), the
      deep-dive target, the curiosity direction picked at the build review and the person's insights
      with their sources. Empty parts are left out; with
      nothing decided the block is empty (the first brief).
    - Every line says the person decided it ("The person accepted …", "The person chose …"), never
      "you". A decision about a claim — verdict, feedback, insight, deep dive — names it by id
      (`claim <uuid>`, the id the brief's claims and the tools carry) with a short reminder of its
      text, never by its text alone. A claim the person kept although VERIFY failed it says so (the
      decision stands, on record).
    - Feedback on a claim says what to do with it: in VALIDATE, while open, revise_claim by the
      claim's index before testing it; once acted on, the response given. An insight the person
      added says what the phase does with it (`INSIGHT_USE`).
    - The block states that these decisions override the model's own judgement and earlier output:
      the state already applies them, but a model reads instructions, not diffs of state.
    - Each phase shows only the decisions it acts on (`SECTIONS`): BUILD needs the verdicts, not the
      reframings. Claim texts are shortened, so the block stays a few hundred tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from forge.core.domain_types import ClaimStatus, ClaimType, Contributor, Phase
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim
from forge.core.verify.verdicts import FINAL_PASS_THRESHOLD, VerifyStatus

HEADER = (
    "YOUR REVIEWER DECIDED — these are the person's decisions; they override your own judgement and anything "
    "you produced earlier. Follow them exactly and never argue a decision back:"
)
CLAIM_CHARS = 160
NAMED_CLAIM_CHARS = 80  # the reminder beside a claim's id
VERDICT_WORDS = {
    ClaimStatus.VALIDATED: "accepted",
    ClaimStatus.QUALIFIED: "qualified",
    ClaimStatus.SUPERSEDED: "merged",
    ClaimStatus.REJECTED: "rejected",
}


def verdict_word(status: ClaimStatus) -> str:
    """A claim's standing in the one vocabulary every brief and tool result uses."""
    return VERDICT_WORDS.get(status, "not reviewed yet")


def short(text: str, limit: int = CLAIM_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def named(claim: Claim) -> str:
    """A claim as a decision names it: its id, then a short reminder of what it says."""
    return f"claim {claim.id} “{short(claim.text, NAMED_CLAIM_CHARS)}”"


def _listed(label: str, items: Iterable[str]) -> list[str]:
    shown = [f"“{short(i)}”" for i in items]
    return [f"- {label}: {'; '.join(shown)}."] if shown else []


def _reframing_lines(s: ForgeState) -> list[str]:
    return _listed(
        "The person selected these reframings — work from them", (r.text for r in s.reframings if r.selected)
    )


def _assumption_lines(s: ForgeState) -> list[str]:
    added = (a.text for a in s.assumptions if a.contributed_by == Contributor.USER)
    rejected = (a.text for a in s.assumptions if a.confirmed is False)
    return [
        *_listed("The person rejected these assumptions — do not rely on them anywhere", rejected),
        *_listed("The person added these assumptions — hold the work to them", added),
    ]


def _explore_lines(s: ForgeState) -> list[str]:
    starred = (f"{a.source_domain}: {a.target_application}" for a in s.cross_domain_analogies if a.starred)
    return [
        *_listed("The person starred these analogies — build on them first", starred),
        *_listed("The person wants these domains explored", s.suggested_domains),
    ]


def _over_verify(s: ForgeState, claim: Claim) -> str:
    """Said of a claim the person kept although VERIFY failed it: the decision stands, on record."""
    verdict = s.verifications.get(claim.id)
    if verdict is None or verdict.status is not VerifyStatus.FAILED:
        return ""
    return (
        f" The person kept it although VERIFY failed it (final {verdict.final_score:.1f} below "
        f"{FINAL_PASS_THRESHOLD:.1f}): say so wherever it is used."
    )


def _verdict_line(s: ForgeState, claim: Claim) -> str | None:
    if claim.status == ClaimStatus.QUALIFIED:
        limit = (claim.qualification or "").strip().rstrip(".")
        return (
            f"- The person qualified {named(claim)}: it holds only within this limit: {limit}. Keep it in every use."
            + _over_verify(s, claim)
        )
    if claim.status == ClaimStatus.REJECTED:
        reason = (claim.rejection_reason or "no reason given").strip().rstrip(".")
        return f"- The person rejected {named(claim)} — {reason}. Do not restate it."
    if claim.status == ClaimStatus.SUPERSEDED:
        return f"- The person merged {named(claim)} ({claim.rejection_reason or 'merged'})."
    if claim.status == ClaimStatus.VALIDATED and claim.claim_type != ClaimType.USER_CONTRIBUTED:
        return f"- The person accepted {named(claim)}.{_over_verify(s, claim)}"
    return None


def _feedback_line(phase: Phase, index: int | None, claim: Claim) -> str:
    """The person's feedback on a claim and what became of it: in VALIDATE, while open, the step that
    acts on it (revise_claim by the claim's index); once acted on, the response given."""
    said = f"- The person's feedback on {named(claim)}: “{claim.user_feedback}”"
    if claim.feedback_response is not None:
        acted = "revised" if claim.revised_from else "kept, with this answer"
        return f"{said} — {acted}: {short(claim.feedback_response)}"
    if phase == Phase.VALIDATE and index is not None:
        return f"{said} — act on it first: revise_claim with claim_index {index}, before testing the claim."
    return f"{said} — act on it."


# What to do with an insight the person added, in the phase that reads it.
INSIGHT_USE = {
    Phase.SYNTHESIZE: "build on it (its id in builds_on_claim_id) or test your theses against it",
    Phase.VALIDATE: "test every claim against it; a claim that contradicts it must answer it in its falsification",
    Phase.BUILD: "link it in the graph to the claims it supports, extends or contradicts",
    Phase.CRYSTALLIZE: "the answer and the document must account for it, citing its id",
}


def _insight_lines(s: ForgeState) -> list[str]:
    use = INSIGHT_USE.get(s.current_phase, "take it into account")
    return [
        f"- The person added an insight, claim {c.id} “{short(c.text)}”"
        + (f" (sources: {', '.join(e.source for e in c.evidence)})" if c.evidence else "")
        + f" — {use}."
        for c in s.knowledge_graph_nodes
        if c.claim_type == ClaimType.USER_CONTRIBUTED
    ]


def _claim_lines(s: ForgeState) -> list[str]:
    claims = list({c.id: c for c in (*s.past_round_claims, *s.knowledge_graph_nodes, *s.current_round_claims)}.values())
    index = {c.id: i for i, c in enumerate(s.current_round_claims)}
    feedback = [_feedback_line(s.current_phase, index.get(c.id), c) for c in claims if c.user_feedback]
    verdicts = [line for c in claims if (line := _verdict_line(s, c))]
    diving = s.deep_dive_target_claim_id and s.current_phase in (Phase.SYNTHESIZE, Phase.VALIDATE)
    target = s.graph_node(s.deep_dive_target_claim_id) if diving and s.deep_dive_target_claim_id else None
    deep_dive = (
        [f"- The person chose a deep dive: this round goes deeper into {named(target)}; build on it."] if target else []
    )
    chosen = s.chosen_direction if s.current_phase in (Phase.SYNTHESIZE, Phase.VALIDATE) else None
    direction = (
        [
            f"- The person chose this round's direction (a thin region of the graph, at the build review): {chosen.question}"
        ]
        if chosen is not None
        else []
    )
    return [*feedback, *verdicts, *_insight_lines(s), *deep_dive, *direction]


Section = Callable[[ForgeState], list[str]]
SECTIONS: Mapping[Phase, tuple[Section, ...]] = {
    Phase.DECOMPOSE: (),
    Phase.EXPLORE: (_reframing_lines, _assumption_lines),
    Phase.SYNTHESIZE: (_reframing_lines, _assumption_lines, _explore_lines, _claim_lines),
    Phase.VALIDATE: (_assumption_lines, _claim_lines),
    Phase.BUILD: (_claim_lines,),
    Phase.CRYSTALLIZE: (_claim_lines,),
}


def reviewer_decided(state: ForgeState) -> str:
    """The block for the state's phase, or "" when the person has decided nothing it acts on."""
    lines = [line for section in SECTIONS[state.current_phase] for line in section(state)]
    return "\n".join([HEADER, *lines]) if lines else ""
