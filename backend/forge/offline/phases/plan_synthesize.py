"""SYNTHESIZE for the offline model: thesis -> counter-evidence -> antithesis -> synthesis per direction.

Invariants: rounds 2+ call get_negative_knowledge first (rule 10) and every synthesis builds on a
claim (rule 9); a thesis cites only research on its own terms, an antithesis follows research on the
thesis plus "limits"/"fails" (rule 14); at most three theses (rule 8); claim indices come from the
state_thesis results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forge.core.research.term_match import key_terms
from forge.core.research.text_relevance import is_relevant, relevance
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import (
    OFFLINE_NOTE,
    Builder,
    ConversationView,
    Hit,
    PhasePlan,
    Researched,
    Task,
    phase_summary,
    plan_or_summary,
    schedule,
    sources,
)
from forge.offline.phases.synthesis_directions import (
    Direction,
    claim_text,
    falsifiability,
    later_round,
    round_one,
    thesis_text,
)
from forge.offline.text.wording import first_sentence, sentence, shorten

COUNTER_WORDS = ("limits", "fails")


def directions(view: ConversationView, frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[Direction] | None:
    """The round's directions; None while rounds 2+ still wait for get_negative_knowledge."""
    if view.round <= 1:
        return round_one(view.context, frame, knowledge)
    consulted = view.done("get_negative_knowledge")
    if consulted is None:
        return None
    negatives = consulted.payload.get("negative_knowledge") or view.context.get("negative_knowledge") or []
    graph = consulted.payload.get("graph_claims") or view.context.get("graph_claims") or []
    return later_round(view.context, list(negatives), list(graph), frame, knowledge)


def thesis_queries(d: Direction, frame: ProblemFrame) -> tuple[str, ...]:
    named = f"{d.source} {d.pattern}" if d.source else d.pattern
    return tuple(dict.fromkeys((f"{d.pattern} {frame.target}", named, frame.target)))


def counter_queries(d: Direction, frame: ProblemFrame, thesis: str, index: int) -> tuple[str, ...]:
    terms, word = " ".join(key_terms(f"{d.pattern} {frame.target}", 4)), COUNTER_WORDS[index % len(COUNTER_WORDS)]
    thesis_terms, source = " ".join(key_terms(thesis, 5)), f"{d.source} {d.pattern}".strip()
    candidates = (f"{terms} {word}", f"{frame.target} {d.pattern} fails", f"{thesis_terms} limits", f"{source} limits")
    return tuple(dict.fromkeys(candidates))


def supporting(d: Direction, hits: Sequence[Hit]) -> list[Hit]:
    """Hits relevant (`is_relevant`) to the direction's mechanism and application; the top hit otherwise."""
    subject = f"{d.pattern} {d.mechanism} {d.application}"
    found = [h for h in hits if is_relevant(f"{h.title} {h.snippet}", subject)]
    return (found or list(hits[:1]))[:2]


def _thesis_builder(d: Direction) -> Builder:
    source: dict[str, Any] = {"cross_domain_source": d.source} if d.source else {}
    source |= {"hypothesis_ids": [d.hypothesis_id]} if d.hypothesis_id else {}
    return lambda research: {"evidence_sources": sources(supporting(d, research.hits), 2), **source}


def counter_evidence(d: Direction, hits: Sequence[Hit], cited: Sequence[str]) -> list[Hit]:
    """Hits not cited by the thesis that are relevant (`is_relevant`) to the direction's failure mode,
    most relevant first."""
    found = [h for h in hits if h.source not in cited and is_relevant(f"{h.title} {h.snippet}", d.failure)]
    return sorted(found, key=lambda h: -relevance(f"{h.title} {h.snippet}", d.failure))


def _antithesis_builder(d: Direction, frame: ProblemFrame, cited: Sequence[str]) -> Builder:
    def build(research: Researched) -> Mapping[str, Any]:
        found = counter_evidence(d, research.hits, cited)[:2]
        text = sentence(d.failure)
        if found:
            text += f" Counter-evidence: '{found[0].title}' — {first_sentence(found[0].snippet, 240)}"
        else:
            text += (
                f" None of the {len(research.hits)} results for '{research.query}' speaks to this boundary, "
                "so it rests on the source domain's known failure mode."
            )
        return {"antithesis": text[:2000], "evidence_sources": [h.source for h in found]}

    return build


def _synthesis_builder(d: Direction, frame: ProblemFrame) -> Builder:
    args = {"claim_text": claim_text(d, frame), "falsifiability_condition": falsifiability(d, frame)}
    return lambda _: {**args, "builds_on_claim_id": d.base_id} if d.base_id else args


def direction_tasks(view: ConversationView, d: Direction, index: int, frame: ProblemFrame) -> list[Task]:
    """The chain for one direction, each link added once the previous one succeeded."""
    thesis = thesis_text(d, frame)
    tasks = [Task("state_thesis", _thesis_builder(d), key={"thesis": thesis}, queries=thesis_queries(d, frame))]
    stated = view.done(tasks[0].identity)
    if stated is None or "claim_index" not in stated.payload:
        return tasks
    claim_index = int(stated.payload["claim_index"])
    cited = [str(s) for s in stated.call.arguments.get("evidence_sources", [])]
    antithesis = Task(
        "find_antithesis",
        _antithesis_builder(d, frame, cited),
        key={"claim_index": claim_index},
        queries=counter_queries(d, frame, thesis, index),
        accept=lambda hits: any(is_relevant(f"{h.title} {h.snippet}", thesis) for h in hits),
    )
    tasks.append(antithesis)
    if view.done(antithesis.identity):
        tasks.append(Task("create_synthesis", _synthesis_builder(d, frame), key={"claim_index": claim_index}))
    return tasks


def synthesize_tasks(view: ConversationView, frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[Task]:
    tasks = [Task("get_negative_knowledge", lambda _: {})] if view.round > 1 else []
    chosen = directions(view, frame, knowledge)
    for index, d in enumerate(chosen or []):
        tasks += direction_tasks(view, d, index, frame)
    return tasks


def _summary(view: ConversationView, frame: ProblemFrame) -> str:
    claims = [str(o.call.arguments["claim_text"]) for o in view.outcomes if o.ok and o.call.name == "create_synthesis"]
    if not claims:
        return "No claim could be synthesized this round (see the tool errors above). " + OFFLINE_NOTE
    negatives = view.done("get_negative_knowledge")
    rejected = len(negatives.payload.get("negative_knowledge", [])) if negatives else 0
    return phase_summary(
        f"{shorten(claims[-1], 400)}",
        " ".join(f"({i}) {c}" for i, c in enumerate(claims, 1)),
        f"each thesis cites research on its own terms, each antithesis the counter-evidence found for it or says "
        f"none was found; rejected claims kept out of this round: {rejected}.",
        f"every claim names when it should {frame.direction_verb} {frame.target}, where it should not, and how "
        "to measure it.",
    )


def plan_synthesize(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    calls = schedule(view, synthesize_tasks(view, frame, knowledge))
    return plan_or_summary(calls, lambda: _summary(view, frame))
