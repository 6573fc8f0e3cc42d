"""DECOMPOSE for the offline model: research, fundamentals, state of the art, assumptions, reframings.

Invariants:
    - Everything is derived from the ProblemFrame of the context's problem, the research results
      returned in this phase and the shipped domain library; nothing else.
    - map_state_of_art cites only sources of the research it was built from (rule 7) and is only
      emitted after research whose query names the problem's terms (rule 12).
    - Exactly one reframing of each of the four types; 5 assumptions; 6-7 fundamentals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from forge.providers.offline.offline_knowledge import OfflineKnowledge
from forge.providers.offline.planning import (
    OFFLINE_NOTE,
    Hit,
    PhasePlan,
    Task,
    plan_or_summary,
    schedule,
    sources,
)
from forge.providers.offline.problem_frame import ProblemFrame, frame_problem
from forge.providers.offline.read_conversation import ConversationView
from forge.providers.offline.source_domain_library import fill, select_domains
from forge.providers.offline.term_match import coverage, first_sentence, stem_set, stems

MAX_QUERY_CHARS = 400
STATE_OF_ART_SOURCES = 4


def decompose_queries(frame: ProblemFrame) -> tuple[str, ...]:
    """Research candidates, most specific first; each shares content terms with the problem."""
    first = " ".join(frame.key_terms[:6])
    candidates = (first, frame.target, frame.problem[:MAX_QUERY_CHARS])
    return tuple(dict.fromkeys(q for q in candidates if len(q) >= 3))


def fundamentals(frame: ProblemFrame) -> list[str]:
    levers = ", ".join(frame.levers)
    actors = ", ".join(frame.actors)
    quantity = (f"The quantity to change: {frame.target} — the goal is to {frame.direction_verb} it."
                if frame.goal_direction != "achieve" else f"The outcome to achieve: {frame.target}.")
    items = [
        quantity,
        f"Its drivers: the flows that produce {frame.target} (what arrives, what is handled, what accumulates) "
        f"and how {levers} change them.",
    ]
    items += [f"A binding constraint: {c} — a solution has to work inside it, or show why it can be relaxed."
              for c in frame.constraints[:2]] or [
        "No explicit constraint is stated — cost, time and adoption still bound any solution."]
    items += [
        f"The actors: {actors} — their decisions and incentives shape {frame.target}.",
        f"The measurement: how {frame.target} is counted (baseline, unit, time window) decides what counts "
        "as success.",
        f"Variation over time: the peaks and the tail of {frame.target} matter as much as its average.",
    ]
    return items


def assumptions(frame: ProblemFrame) -> list[str]:
    load = "load that produces" if frame.goal_direction == "decrease" else "inputs that feed"
    actor = frame.actors[0]
    items = [
        f"That {frame.target} is measured correctly — the recorded figure may hide where it really accrues "
        "(averages hide tails; start and end points may be misdefined).",
        f"That the {load} {frame.target} is fixed — it may be shaped in timing, routing or volume.",
        f"That the bottleneck is where it looks — {frame.target} may be produced upstream, in hand-offs, "
        f"rather than where {frame.lever} is visible.",
        f"That {actor} and the people who experience {frame.target} want the same thing — incentives may "
        "hold the current level in place.",
    ]
    if frame.constraints:
        items.insert(0, f"That '{frame.constraints[0]}' is absolute — it may bind only at peaks or for some "
                        "cases, or be tradeable against another resource.")
    return items[:5]


def reframings(frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[dict[str, str]]:
    verb, target, lever = frame.direction_verb, frame.target, frame.lever
    items = [
        ("scope_change", f"Narrow the scope: {verb} {target} first for the segment or time window where it is "
                         "worst, instead of everywhere at once."),
        ("entity_question", f"Question the entity: is {target} the thing to change, or a symptom of how {lever} "
                            f"is organised? Work on {lever} rather than on {target} directly."),
        ("variable_change", f"Change the variable: control the variability of {target} (its peaks and tail) "
                            f"rather than its average, or {lever} per unit of load."),
    ]
    chosen = select_domains(knowledge.domains, frame, count=1)
    if chosen:
        c = chosen[0]
        relation = first_sentence(fill(c.pattern.source_relation, frame), 220)
        items.append(("domain_change", f"Change the domain: treat {target} as a {c.domain.name} problem — "
                                       f"{c.pattern.name}: {relation}"))
    else:
        items.append(("domain_change", f"Change the domain: ask how a field that manages flows, not {lever}, "
                                       f"would {verb} {target}."))
    return [{"text": text, "reframing_type": kind} for kind, text in items]


def _common_terms(hits: Sequence[Hit]) -> list[str]:
    counts = Counter(s for h in hits for s in stem_set(f"{h.title} {h.snippet}"))
    order = list(dict.fromkeys(s for h in hits for s in stems(f"{h.title} {h.snippet}")))
    return [s for s in order if counts[s] >= 2][:4]


def state_of_art(frame: ProblemFrame, hits: Sequence[Hit]) -> dict[str, object] | None:
    cited = list(hits[:STATE_OF_ART_SOURCES])
    if not cited:
        return None
    parts = [f"The research returned {len(hits)} source(s)."]
    parts += [f"{h.title}: {first_sentence(h.snippet, 220)}" for h in cited]
    shared = _common_terms(cited)
    if shared:
        parts.append(f"Shared thread across sources: {', '.join(shared)}.")
    best = max(cited, key=lambda h: coverage(frame.target, f"{h.title} {h.snippet}"))
    if coverage(frame.target, f"{best.title} {best.snippet}") < 1.0:
        parts.append(f"Gap: no source addresses {frame.target} directly; the closest is '{best.title}'.")
    if frame.constraints:
        parts.append(f"None is framed under the constraint '{frame.constraints[0]}', which this session keeps.")
    return {"summary": " ".join(parts)[:4000], "sources": sources(cited, STATE_OF_ART_SOURCES)}


def decompose_tasks(frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[Task]:
    return [
        Task("decompose_to_fundamentals", lambda _: {"fundamentals": fundamentals(frame)}),
        Task("map_state_of_art", lambda research: state_of_art(frame, research.hits), queries=decompose_queries(frame)),
        Task("extract_assumptions", lambda _: {"assumptions": assumptions(frame)}),
        Task("reframe_problem", lambda _: {"reframings": reframings(frame, knowledge)}),
    ]


def _summary(view: ConversationView, frame: ProblemFrame) -> str:
    sota = view.done("map_state_of_art")
    summary = str(sota.call.arguments.get("summary", "")) if sota else ""
    gap = summary[summary.find("Gap:"):] if "Gap:" in summary else ""
    lead = (f"Most surprising: {gap[5:]}" if gap else
            "Most surprising: the shipped corpus already speaks to this target directly — check whether the "
            "known remedies were tried.")
    if sota is None:
        lead = "The state of the art could not be mapped: research returned nothing the model could cite."
    return "\n\n".join([
        lead,
        f"CLAIM → the problem reduces to changing {frame.target} ({frame.goal_direction}) "
        f"{'under ' + repr(frame.constraints[0]) if frame.constraints else 'with no explicit constraint'}; "
        f"levers: {', '.join(frame.levers)}; actors: {', '.join(frame.actors)}.",
        "EVIDENCE → " + (first_sentence(summary, 300) if summary else "none cited."),
        "SO WHAT → the assumptions to test first are whether the constraint is absolute and whether the load "
        "is fixed; pick a reframing to steer the search for distant analogies.",
        OFFLINE_NOTE,
    ])


def plan_decompose(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    calls = schedule(view, decompose_tasks(frame, knowledge))
    return plan_or_summary(calls, lambda: _summary(view, frame))
