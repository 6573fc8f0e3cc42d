"""The shape of the user message that opens a phase: marker, guide, hard constraints, the person's
decisions, then a JSON context.

Invariants:
    - The first line is always `[forge phase=<phase> round=<n>]` (n counts from 1), so any model —
      including the offline one, which parses it — can tell which phase a conversation is in.
    - Then the phase's guide (goal, what excellent looks like, definition of done; round-aware),
      one HARD CONSTRAINTS block (the person's, the problem frame's and the supervisor constraints
      the person adopted, each marked with whose it is) and the frame's SUCCESS CRITERIA, in every
      phase; what earlier sessions found
      (`core.remembered_hypotheses.memory_block`: offered ones in DECOMPOSE, then only those the
      person pinned), and the "YOUR REVIEWER DECIDED" block (`reviewer_decisions`) when the person
      has decided anything.
    - The context block starts with the problem and holds only what the person decided and what
      earlier phases produced; it is derived from the state, never from the model's own memory.
    - The claims and graph views carry a claim's standing in one vocabulary, the person's verdict in
      the product's words (accepted, qualified, merged, rejected), and a qualification's exact text;
      a claims view carries only the fields its phase's tools and goal use, each source once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from forge.agent.phases.reviewer_decisions import VERDICT_WORDS, reviewer_decided, verdict_word
from forge.core.domain_types import Phase
from forge.core.frame.problem_constraints import split_constraints
from forge.core.hypotheses.remembered import memory_block
from forge.core.llm.messages import Message, user_text
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Analogy, Claim

MARKER = "[forge phase={phase} round={round}]"


def _adopted(state: ForgeState) -> set[str]:
    """The supervisor's suggested constraints the person adopted at a review (lower-cased)."""
    sup = state.supervision
    if sup is None:
        return set()
    return {d.constraint.lower() for i in sup.adopted if (d := sup.directive(i)) is not None and d.constraint}


def brief_constraints(state: ForgeState) -> list[tuple[str, str]]:
    """Each hard constraint with whose it is: the frame's list when there is a frame (it starts with
    the person's own, holds the supervisor constraints they adopted and none they dropped or relaxed
    away), else the person's list from the problem."""
    person = split_constraints(state.problem).constraints
    if state.problem_frame is None:
        return [(c, "yours") for c in person]
    mine, adopted = {c.lower() for c in person}, _adopted(state)
    return [
        (c, "the person's" if c.lower() in mine else "adopted from the supervisor" if c.lower() in adopted else "frame")
        for c in state.problem_frame.frame.hard_constraints
    ]


def hard_constraints(state: ForgeState) -> str:
    """The HARD CONSTRAINTS block and the success criteria: the frame every phase's work is held to."""
    constraints = brief_constraints(state)
    criteria = state.problem_frame.frame.success_criteria if state.problem_frame is not None else ()
    parts = []
    if constraints:
        items = "\n".join(f"- {c}" + ("" if whose == "yours" else f" ({whose})") for c, whose in constraints)
        parts.append(f"HARD CONSTRAINTS (limits, not preferences: a claim that breaks one is wrong):\n{items}")
    if criteria:
        items = "\n".join(f"- {c}" for c in criteria)
        parts.append(f"SUCCESS CRITERIA (how the answer will be judged):\n{items}")
    return "\n\n".join(parts)


def compose_brief(phase: Phase, state: ForgeState, instruction: str, context: dict[str, Any]) -> Message:
    marker = MARKER.format(phase=phase.value, round=state.current_round + 1)
    block = json.dumps({"problem": state.problem, **context}, ensure_ascii=False, separators=(",", ":"))
    memory = memory_block(state.remembered_hypotheses, accepted_only=phase != Phase.DECOMPOSE)
    parts = [instruction.strip(), hard_constraints(state), memory, reviewer_decided(state), f"```json\n{block}\n```"]
    return user_text(marker + "\n" + "\n\n".join(p for p in parts if p))


def verdict_of(claim: Claim) -> str:
    return verdict_word(claim.status)


def _present(view: dict[str, Any]) -> dict[str, Any]:
    """The view without empty fields (None, "", []): they cost tokens in every later request and say nothing."""
    return {k: v for k, v in view.items() if v not in (None, "", [])}


def analogies_view(analogies: Iterable[Analogy]) -> list[dict[str, Any]]:
    """Analogies as a brief shows them: what a thesis builds on, mapping rows as one line each."""
    return [
        {
            "source_domain": a.source_domain,
            "target_application": a.target_application,
            "description": a.description,
            "mapping": [f"{m.source_concept} -> {m.target_concept}: {m.relation}" for m in a.mapping],
            "observable": a.observable,
            "failure_mode": a.failure_mode,
        }
        | ({"hypothesis_id": a.hypothesis_id} if a.hypothesis_id else {})
        for a in analogies
    ]


# What each phase's tools and goal use of a claim (issue 42): VALIDATE tests and scores it, so it reads the
# synthesis with its antithesis, test condition, sources and the person's feedback; BUILD places it in the
# graph and names gaps and convergence locks, so it reads the verdict, boundary, sources and lineage.
VALIDATE_CLAIM_FIELDS = (
    "index", "id", "text", "antithesis", "qualification", "falsifiability_condition", "evidence_sources",
    "cross_domain_source", "builds_on", "hypothesis_ids", "user_feedback", "feedback_response", "revised_from",
)  # fmt: skip
BUILD_CLAIM_FIELDS = (
    "index", "id", "text", "verdict", "qualification", "antithesis", "evidence_sources", "cross_domain_source",
    "builds_on", "rejection_reason",
)  # fmt: skip


def claims_view(state: ForgeState, fields: Sequence[str]) -> list[dict[str, Any]]:
    """The round's claims as a phase sees them, with the index a tool call refers to: only `fields`; a
    claim's standing in one vocabulary (`verdict`, the person's word, absent before the review) and each
    evidence source once."""
    views = (
        {
            "index": i,
            "id": str(c.id),
            "text": c.text,
            "thesis": c.thesis_text,
            "antithesis": c.antithesis_text,
            "verdict": VERDICT_WORDS.get(c.status),
            "qualification": c.qualification,
            "falsifiability_condition": c.falsifiability_condition,
            "evidence_sources": list(dict.fromkeys(e.source for e in c.evidence)),
            "cross_domain_source": c.cross_domain_source,
            "builds_on": [str(b) for b in c.builds_on],
            "hypothesis_ids": list(c.hypothesis_ids),
            "user_feedback": c.user_feedback,
            "feedback_response": c.feedback_response,
            "revised_from": c.revised_from,
            "rejection_reason": c.rejection_reason,
        }
        for i, c in enumerate(state.current_round_claims)
    )
    return [_present({k: view[k] for k in fields}) for view in views]


def graph_view(state: ForgeState) -> list[dict[str, Any]]:
    return [
        {"id": str(c.id), "text": c.text, "verdict": verdict_of(c)}
        | ({"qualification": c.qualification} if c.qualification else {})
        for c in state.knowledge_graph_nodes
    ]
