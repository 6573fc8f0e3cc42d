"""EXPLORE for the offline model: morphological box, distant-domain analogies, TRIZ, adjacent possible.

Invariants: source domains come from the shipped library (`select_domains`: three, diverse, one more
per EXPLORE_INCOMPLETE nudge; the brief's gate-passed pool domains first); every search_cross_domain
follows research naming its domain (rule 13), quotes only what it returned and cites the strongest
pool hypothesis of its domain, else carries BISO's gated table; texts are templates filled with the frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from forge.core.research.term_match import key_terms
from forge.core.rules.verdicts import ErrorCode
from forge.offline.explore.biso_offline import mapping_rows
from forge.offline.explore.source_domain_library import DomainChoice, best_lever, distance_of, fill, select_domains
from forge.offline.explore.triz_library import choose_principles, detect_parameters
from forge.offline.frame.problem_frame import NO_ACTOR, ProblemFrame, frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import (
    OFFLINE_NOTE,
    Builder,
    ConversationView,
    Hit,
    PhasePlan,
    Task,
    phase_summary,
    plan_or_summary,
    schedule,
)
from forge.offline.text.wording import first_sentence, sentence, the_phrase

BASE_DOMAINS = 3
DISTANCES = ("near", "medium", "far")


def chosen_domains(view: ConversationView, frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[DomainChoice]:
    """From the problem, the selected reframings and the suggested domains; one more per EXPLORE nudge."""
    reframings = " ".join(str(r) for r in view.context.get("selected_reframings", []) or [])
    suggested = [str(s) for s in view.context.get("suggested_domains", []) or []] + [c["domain"] for c in _pool(view)]
    extra = sum(1 for n in view.nudges if n.code is ErrorCode.EXPLORE_INCOMPLETE and "cross-domain" in n.message)
    return select_domains(knowledge.domains, frame, context=reframings, suggested=suggested, count=BASE_DOMAINS + extra)


BOX_OPTIONS = {
    "deployment": "fixed allocation (as today)|pooled and shared across units|flexed to match load over time|"
    "prioritised by need",
    "timing": "after the fact (reactive)|at the moment of peak load|in advance, from a forecast|"
    "continuously, from a live signal",
    "load": "accepted as it arrives|smoothed over time|diverted to another channel|filtered or triaged at entry",
    "limit": "held absolutely|relaxed at peaks only|traded against another resource|"
    "met by substitution (technology, volunteers, partners)",
}


def morphological_box(frame: ProblemFrame) -> dict[str, Any]:
    themselves = [] if NO_ACTOR in frame.actors else ["the people affected themselves"]
    actors = [*(the_phrase(a) for a in frame.actors[:3]), "an automated rule", *themselves]
    names = {
        "deployment": f"Deployment of {frame.lever}",
        "timing": f"When action on {frame.target} happens",
        "load": "Where the load is shaped",
    }
    if frame.constraints:
        names["limit"] = f"How '{frame.constraints[0]}' is treated"
    params = [{"name": name, "options": BOX_OPTIONS[key].split("|")} for key, name in names.items()]
    params.insert(3, {"name": "Who acts", "options": list(dict.fromkeys(actors))})
    return {"parameters": params}


def domain_queries(choice: DomainChoice) -> tuple[str, ...]:
    name = choice.domain.name
    summary_terms = " ".join(key_terms(choice.domain.summary, 3, exclude=[name]))
    return tuple(dict.fromkeys((f"{name} {choice.pattern.name}", f"{name} {summary_terms}".strip(), name)))


def _pool(view: ConversationView) -> list[dict[str, str]]:
    """The brief's gate-passed pool hypotheses: an analogy from one of their domains cites it."""
    return [c for c in view.context.get("pool", []) or [] if c.get("gate") == "passed"]


def analogy(choice: DomainChoice, frame: ProblemFrame, hits: Sequence[Hit], pool: Sequence[Any] = ()) -> dict[str, Any]:
    lever = best_lever(frame, choice.pattern)
    p = choice.pattern
    text = (
        f"{p.name} ({choice.domain.name}): {sentence(fill(p.source_relation, frame, lever))} "
        f"Applied here: {fill(p.transfer.mapping, frame, lever)} Mechanism: {fill(p.mechanism, frame, lever)}"
    )
    if hits:
        text += f" Research: '{hits[0].title}' — {first_sentence(hits[0].snippet, 220)}"
    distance = distance_of(choice.domain, frame).value
    fields = {
        "target_application": frame.goal,
        "analogy_description": text[:4000],
        "semantic_distance": distance,
        "mapping": mapping_rows(choice.domain, p, frame),
        "observable": fill(p.transfer.observable, frame, lever)[:1000],
        "failure_mode": fill(p.transfer.failure, frame, lever)[:1000],
    }
    ids = [c["id"] for c in pool if c["domain"] == choice.domain.name]  # the first: the domain's strongest
    return fields | ({"hypothesis_id": ids[0]} if ids else {})


def _analogy_builder(choice: DomainChoice, frame: ProblemFrame, pool: Sequence[dict[str, str]]) -> Builder:
    return lambda research: analogy(choice, frame, research.hits, pool)


def contradiction(frame: ProblemFrame, knowledge: OfflineKnowledge) -> dict[str, Any]:
    improving, worsening = detect_parameters(knowledge.triz, frame)
    principles = choose_principles(knowledge.triz, frame, improving, worsening)
    limit = frame.constraints[0] if frame.constraints else f"keeping {worsening.name.lower()} where it is"
    resolution = " ".join(sentence(f"{p.name}: {p.applied_to(frame.target)}") for p in principles)
    cell = knowledge.triz.matrix.lookup(improving.number, worsening.number)
    matrix_says = (
        f"The classic contradiction matrix (improving #{improving.number} against worsening "
        f"#{worsening.number}) recommends principles {', '.join(str(n) for n in cell)}."
        if isinstance(cell, tuple) and cell
        else "The classic contradiction matrix has no principles for this pair; they were chosen by cue terms."
    )
    return {
        "property_a": f"{frame.direction_verb} {frame.target} (TRIZ #{improving.number} {improving.name})"[:300],
        "property_b": f"{limit} (TRIZ #{worsening.number} {worsening.name})"[:300],
        "description": (
            f"Improving '{improving.name}' — to {frame.direction_verb} {frame.target} — normally "
            f"worsens '{worsening.name}', which '{limit}' protects. Parameters detected from the cue "
            f"terms of the goal and of the constraint. {matrix_says}"
        )[:2000],
        "resolution_direction": resolution[:2000],
        "improving_parameter": f"{improving.number} {improving.name}",
        "worsening_parameter": f"{worsening.number} {worsening.name}",
        "principles": [p.label for p in principles],
    }


def adjacent_possible(frame: ProblemFrame, choices: Sequence[DomainChoice], principles: Sequence[str]) -> list[str]:
    items = [f"Pilot '{c.pattern.name}' ({c.domain.name}) on one segment of {frame.target}." for c in choices[:2]]
    items += [f"Try TRIZ principle {p} on {frame.target} as a low-cost experiment." for p in principles[:1]]
    return [*items, f"Instrument {frame.target} so the peaks and tail are visible — every option above needs it."]


def explore_tasks(view: ConversationView, frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[Task]:
    choices = chosen_domains(view, frame, knowledge)
    contra = contradiction(frame, knowledge)
    tasks = [Task("build_morphological_box", lambda _: morphological_box(frame))]
    tasks += [
        Task(
            "search_cross_domain",
            _analogy_builder(c, frame, _pool(view)),
            key={"source_domain": c.domain.name},
            queries=domain_queries(c),
        )
        for c in choices
    ]
    tasks += [
        Task("identify_contradictions", lambda _: contra),
        Task("map_adjacent_possible", lambda _: {"items": adjacent_possible(frame, choices, contra["principles"])}),
    ]
    return tasks


def _summary(view: ConversationView) -> str:
    analogies = [o.call.arguments for o in view.outcomes if o.ok and o.call.name == "search_cross_domain"]
    if not analogies:
        return "No analogy could be recorded: research returned nothing for the chosen domains. " + OFFLINE_NOTE
    far = max(analogies, key=lambda a: DISTANCES.index(str(a["semantic_distance"])))
    contra = view.done("identify_contradictions")
    principles = ", ".join(contra.call.arguments.get("principles", [])) if contra else "none recorded"
    return phase_summary(
        f"the farthest analogy, from {far['source_domain']}: {first_sentence(str(far['analogy_description']), 260)}",
        f"{len(analogies)} structural analogies: {', '.join(str(a['source_domain']) for a in analogies)}.",
        f"each domain was researched first; observable for the farthest: {far['observable']}",
        f"TRIZ principles: {principles}. Star the analogies worth turning into claims.",
    )


def plan_explore(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    calls = schedule(view, explore_tasks(view, frame, knowledge))
    return plan_or_summary(calls, lambda: _summary(view))
