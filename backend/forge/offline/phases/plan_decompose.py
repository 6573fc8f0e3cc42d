"""DECOMPOSE for the offline model: research, fundamentals, state of the art, assumptions, reframings.

Invariants: everything comes from the ProblemFrame, this phase's research, the brief's remembered
hypotheses and the shipped library; map_state_of_art cites only the research it was built from (rules
7 and 12); one reframing of each of the four types; each remembered hypothesis (at most
REMEMBERED_ASSUMPTIONS, the brief's order: relevance × C) becomes an assumption to test, with its C.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.hypotheses.remembered import ReadHypothesis
from forge.core.research.text_relevance import coverage, is_relevant
from forge.offline.explore.source_domain_library import fill, select_domains
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import (
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
from forge.offline.text.wording import first_sentence, join_words, lower_first, the_phrase

MAX_QUERY_CHARS = 400
STATE_OF_ART_SOURCES = 4
REMEMBERED_ASSUMPTIONS = 2


def decompose_queries(frame: ProblemFrame, knowledge: OfflineKnowledge) -> tuple[str, ...]:
    """Research candidates, most specific first; each shares content terms with the problem. The last
    adds the nearest library domain's name, so a problem in words the corpus lacks (Chinese against an
    English corpus) still finds the closest material — the state of the art then says it is a gap."""
    first = " ".join(frame.key_terms[:6])
    chosen = select_domains(knowledge.domains, frame, count=1)
    nearest = f"{' '.join(frame.key_terms[:2])} {chosen[0].domain.name}" if chosen else ""
    candidates = (first, frame.target, frame.problem[:MAX_QUERY_CHARS], nearest)
    return tuple(dict.fromkeys(q for q in candidates if len(q) >= 3))


FUNDAMENTALS = (
    "The quantity to change: {target} (direction: {direction}).",
    "Its drivers: the flows that produce {target} (what arrives, what is handled, what accumulates) and how "
    "{levers} change them.",
    "The actors: {actors} — their decisions and incentives shape {target}.",
    "The measurement: the baseline, unit and time window for {target} decide what counts as success.",
    "Variation over time: the peaks and the tail of {target} matter as much as the average.",
)
ASSUMPTIONS = (
    "That the recorded figure for {target} is right — it may hide where the problem really accrues (averages "
    "hide tails; start and end points may be misdefined).",
    "That the {load} {target} is fixed — it may be shaped in timing, routing or volume.",
    "That the bottleneck is where it looks — {target} may be produced upstream, in hand-offs, rather than at {lever}.",
    "That {actor} and the people who experience {target} want the same thing — incentives may hold the current "
    "level in place.",
)
REFRAMINGS = {
    "scope_change": "Narrow the scope: {verb} {target} first for the segment or time window where the problem is "
    "worst, instead of everywhere at once.",
    "entity_question": "Question the entity: is {target} the thing to change, or a symptom of how {lever} is "
    "organised? Work on {lever} rather than on {target} directly.",
    "variable_change": "Change the variable: control the variability of {target} (its peaks and tail) rather than "
    "its average, or {lever} per unit of load.",
}


def _words(frame: ProblemFrame) -> dict[str, str]:
    """The frame's words the templates are filled with."""
    return {
        "target": frame.target,
        "direction": frame.goal_direction,
        "verb": frame.direction_verb,
        "lever": frame.lever,
        "levers": join_words([the_phrase(lever) for lever in frame.levers]),
        "actors": join_words([the_phrase(a) for a in frame.actors]),
        "actor": the_phrase(frame.actors[0]),
        "load": "load that produces" if frame.goal_direction == "decrease" else "supply that feeds",
    }


def fundamentals(frame: ProblemFrame) -> list[str]:
    limits = [
        f"A binding constraint: {c} — a solution has to work inside it, or show why it can be relaxed."
        for c in frame.constraints[:2]
    ]
    limits = limits or ["No explicit constraint is stated — cost, time and adoption still bound any solution."]
    items = [t.format(**_words(frame)) for t in FUNDAMENTALS]
    return [*items[:2], *limits, *items[2:]]


def assumptions(frame: ProblemFrame, remembered: Sequence[ReadHypothesis] = ()) -> list[str]:
    limit = [
        f"That '{c}' is absolute — it may bind only at peaks or for some cases, or be tradeable against another resource."
        for c in frame.constraints[:1]
    ]
    memory = [
        f"That an earlier session's hypothesis holds here (memory, confidence {round(100 * h.confidence)}%, supported "
        f"{h.support_count}, contradicted {h.contradiction_count}): {h.text}" for h in remembered[:REMEMBERED_ASSUMPTIONS]
    ]  # fmt: skip
    return [*memory, *[*limit, *(t.format(**_words(frame)) for t in ASSUMPTIONS)][:5]]


def reframings(frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[dict[str, str]]:
    words, chosen = _words(frame), select_domains(knowledge.domains, frame, count=1)
    domain = (
        f"Change the domain: treat {frame.target} as a problem of {lower_first(chosen[0].domain.name)} — "
        f"{chosen[0].pattern.name}: {first_sentence(fill(chosen[0].pattern.source_relation, frame), 220)}"
        if chosen
        else "Change the domain: ask how a field that manages flows, not {lever}, would {verb} {target}.".format(
            **words
        )
    )
    items = [(kind, text.format(**words)) for kind, text in REFRAMINGS.items()] + [("domain_change", domain)]
    return [{"text": text, "reframing_type": kind} for kind, text in items]


def relevant_to(frame: ProblemFrame, hits: Sequence[Hit]) -> list[Hit]:
    """Hits relevant to the problem's target and key terms, as the research gates judge relevance."""
    subject = f"{frame.target} {' '.join(frame.key_terms)}"
    return [h for h in hits if is_relevant(f"{h.title} {h.snippet}", subject)]


def state_of_art(frame: ProblemFrame, research: Researched) -> dict[str, object] | None:
    hits = research.hits
    relevant = relevant_to(frame, hits)
    cited = (relevant or list(hits[:2]))[:STATE_OF_ART_SOURCES]
    if not cited:
        return None
    parts = [
        f"Research on '{research.query}' returned {len(hits)} sources, {len(relevant)} of them on the problem's terms."
    ]
    parts += [f"{h.title}: {first_sentence(h.snippet, 220)}" for h in cited]
    best = max(cited, key=lambda h: coverage(f"{h.title} {h.snippet}", frame.target))
    if not relevant or coverage(f"{best.title} {best.snippet}", frame.target) < 1.0:
        parts.append(f"Gap: no source addresses {frame.target} directly; the closest is '{best.title}'.")
    if frame.constraints:
        parts.append(f"None is framed under the constraint '{frame.constraints[0]}', which this session keeps.")
    return {"summary": " ".join(parts)[:4000], "sources": sources(cited, STATE_OF_ART_SOURCES)}


def decompose_tasks(frame: ProblemFrame, knowledge: OfflineKnowledge, view: ConversationView) -> list[Task]:
    return [
        Task("decompose_to_fundamentals", lambda _: {"fundamentals": fundamentals(frame)}),
        Task(
            "map_state_of_art",
            lambda research: state_of_art(frame, research),
            queries=decompose_queries(frame, knowledge),
            accept=lambda hits: bool(relevant_to(frame, hits)),
        ),
        Task("extract_assumptions", lambda _: {"assumptions": assumptions(frame, view.remembered)}),
        Task("reframe_problem", lambda _: {"reframings": reframings(frame, knowledge)}),
    ]


def _summary(view: ConversationView, frame: ProblemFrame) -> str:
    sota = view.done("map_state_of_art")
    summary = str(sota.call.arguments.get("summary", "")) if sota else ""
    gap = summary[summary.find("Gap:") + 5 :] if "Gap:" in summary else ""
    limit = f"under '{frame.constraints[0]}'" if frame.constraints else "with no explicit constraint"
    return phase_summary(
        gap or ("the corpus speaks to this target directly." if sota else "research returned nothing to cite."),
        f"{frame.goal} ({frame.goal_direction}), {limit}; levers: {', '.join(frame.levers)}; "
        f"actors: {', '.join(frame.actors)}.",
        first_sentence(summary, 300) if summary else "none cited.",
        "test first whether the constraint is absolute and the load fixed; pick a reframing for the analogies."
        + (f" Test {len(view.remembered)} remembered hypothesis(es) too." if view.remembered else ""),
    )


def plan_decompose(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    calls = schedule(view, decompose_tasks(frame, knowledge, view))
    return plan_or_summary(calls, lambda: _summary(view, frame))
