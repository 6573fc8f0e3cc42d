"""Knowledge directions for SYNTHESIZE: starred analogies and TRIZ principles turned into claim texts.

Invariants: built only from the phase context and the shipped library. Round 1 takes up to three
starred analogies (a contradiction's principle adds a second direction when there is one); rounds 2+
build each direction on an earlier claim and drop those covering >= REPEAT_COVERAGE of a rejected
claim. A claim reads "<action> will <verb> <target> … (<origin>). Boundary: <failure>".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from forge.core.explore.library_records import TrizPrinciple
from forge.core.research.text_relevance import coverage
from forge.offline.explore.source_domain_library import best_lever, best_pattern, fill, find_domain
from forge.offline.explore.triz_library import principles_named
from forge.offline.frame.problem_frame import ProblemFrame
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.text.wording import agree, first_sentence, lower_first, sentence, shorten

MAX_CLAIMS = 3
REPEAT_COVERAGE = 0.6
THRESHOLD_PERCENT = 10
OBSERVATION_WEEKS = 8
BOUNDARY = "Boundary:"


@dataclass(frozen=True, slots=True)
class Direction:
    """One knowledge direction: its pattern and mechanism, how it applies here, when, and where it fails."""

    label: str
    source: str | None
    pattern: str
    mechanism: str
    application: str
    failure: str
    observable: str
    condition: str = ""
    base_id: str | None = None
    base_text: str = ""
    hypothesis_id: str | None = None  # the pool hypothesis a starred analogy builds on

    @property
    def action(self) -> str:
        return f"{self.pattern} ({clause(self.application, 160)})"

    @property
    def core(self) -> str:
        return f"{self.pattern} {self.mechanism} {self.action}"


def clause(text: str, limit: int = 220) -> str:
    return lower_first(shorten(" ".join(text.split()).rstrip(".").strip(), limit))


def from_analogy(analogy: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge) -> Direction:
    """The direction of a starred analogy: its library structure, or (for a domain the library lacks) the
    analogy's own description, observable and failure mode."""
    name = str(analogy.get("source_domain", "another domain"))
    description = str(analogy.get("description", ""))
    domain = find_domain(knowledge.domains, name)
    if domain is None:
        failure = str(analogy.get("failure_mode") or "If the analogy's assumptions do not hold, it will not help.")
        observable = str(analogy.get("observable") or f"{frame.target} against its baseline")
        return Direction(name, name, name, first_sentence(description, 300), description, failure, observable)
    pattern = next(
        (p for p in domain.structures if description.startswith(p.name)), best_pattern(domain, frame.problem)
    )
    lever = best_lever(frame, pattern)
    return Direction(
        label=f"{pattern.name} ({domain.name})",
        source=domain.name,
        pattern=pattern.name,
        mechanism=pattern.mechanism,
        application=fill(pattern.transfer.mapping, frame, lever),
        failure=fill(pattern.transfer.failure, frame, lever),
        observable=fill(pattern.transfer.observable, frame, lever),
        hypothesis_id=analogy.get("hypothesis_id"),
    )


def _from_principle(principle: TrizPrinciple, goal: str, limit: str, frame: ProblemFrame) -> Direction:
    return Direction(
        label=f"TRIZ principle {principle.number} ({principle.name})",
        source=None,
        pattern=principle.name,
        mechanism=principle.description,
        application=principle.applied_to(frame.target),
        failure=f"If applying {principle.name.lower()} only moves the cost into '{limit}', it will not help.",
        observable=f"{frame.target} per period, measured together with the resource that '{limit}' protects",
        condition=f"the conflict between '{goal}' and '{limit}' holds {frame.target} in place",
    )


def from_contradictions(
    contradictions: Sequence[Mapping[str, Any]], frame: ProblemFrame, knowledge: OfflineKnowledge
) -> list[Direction]:
    found = []
    for c in contradictions:
        limit = str(c.get("property_b", frame.constraint)).split(" (TRIZ")[0]
        goal = str(c.get("property_a", frame.goal)).split(" (TRIZ")[0]
        names = [str(n) for n in c.get("principles", [])]
        found += [_from_principle(p, goal, limit, frame) for p in principles_named(knowledge.triz, names)]
    return found


def round_one(context: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[Direction]:
    starred = [a for a in context.get("starred_analogies", []) or [] if isinstance(a, Mapping)]
    # Two stars can carry the same structure (two pool hypotheses of one domain): one claim each structure.
    unique = {d.label: d for d in (from_analogy(a, frame, knowledge) for a in starred)}
    directions = list(unique.values())[:MAX_CLAIMS]
    principles = from_contradictions(context.get("contradictions", []) or [], frame, knowledge)
    wanted = 2 if len(directions) < 2 else len(directions)
    return (directions + principles)[:wanted]


def _bases(
    context: Mapping[str, Any], negatives: Sequence[Mapping[str, Any]], graph: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    deep = context.get("deep_dive")
    if isinstance(deep, Mapping) and deep.get("id"):
        return [{"id": deep["id"], "text": deep.get("text", "")}]
    bases: list[Mapping[str, Any]] = [
        {"id": g.get("id", g.get("claim_id")), "text": g.get("text", g.get("claim", ""))} for g in graph
    ]
    return bases or [{"id": n.get("claim_id"), "text": n.get("claim", n.get("claim_text", ""))} for n in negatives]


def later_round(
    context: Mapping[str, Any],
    negatives: Sequence[Mapping[str, Any]],
    graph: Sequence[Mapping[str, Any]],
    frame: ProblemFrame,
    knowledge: OfflineKnowledge,
) -> list[Direction]:
    """Directions for rounds 2+: not repeating rejected claims, each building on an earlier claim (the
    deep-dive claim, else the graph's claims in turn)."""
    starred = [a for a in context.get("starred_analogies", []) or [] if isinstance(a, Mapping)]
    pool = from_contradictions(context.get("contradictions", []) or [], frame, knowledge)
    pool += [from_analogy(a, frame, knowledge) for a in starred]
    rejected = [str(n.get("claim", n.get("claim_text", ""))) for n in negatives]
    pool = [d for d in pool if all(coverage(r, d.core) < REPEAT_COVERAGE for r in rejected)]
    bases = _bases(context, negatives, graph)
    chosen = pool[: min(MAX_CLAIMS, max(2, len(starred)))]
    if not bases:
        return chosen
    based = [(d, bases[i % len(bases)]) for i, d in enumerate(chosen)]
    return [replace(d, base_id=str(b["id"]), base_text=str(b["text"])) for d, b in based]


def _limit(frame: ProblemFrame) -> str:
    return f" {frame.constraints[0]}" if frame.constraints else ""


def thesis_text(d: Direction, frame: ProblemFrame) -> str:
    goal = f"{frame.direction_verb} {frame.target}{_limit(frame)}"
    if d.base_id:
        text = (
            f"Building on '{shorten(d.base_text, 140)}': {d.label} adds {d.action}. {sentence(d.mechanism)} "
            f"Combined with that claim, this should {goal} further."
        )
    else:
        text = f"{d.label}: {sentence(d.mechanism)} Applied here: {sentence(d.application)} This should {goal}."
    return text[:2000]


def claim_text(d: Direction, frame: ProblemFrame) -> str:
    """ "<action> will <verb> <target>[ further][ <limit>][ when <condition>] (<origin>). Boundary: <failure>"."""
    further = " further" if d.base_id else ""
    when = f" when {clause(d.condition, 300)}" if d.condition else ""
    origin = f"{d.source.lower()}: {d.pattern.lower()}" if d.source else f"TRIZ: {d.pattern.lower()}"
    core = (
        f"{d.action[:1].upper()}{d.action[1:]} will {frame.direction_verb} {frame.target}{further}{_limit(frame)}{when} "
        f"({origin}). {BOUNDARY} {sentence(clause(agree(d.failure, frame.target), 300))}"
    )
    return (f"Extending '{shorten(d.base_text, 100)}': {core}" if d.base_id else core)[:2000]


def falsifiability(d: Direction, frame: ProblemFrame) -> str:
    moves = {"decrease": "fall", "increase": "rise"}.get(frame.goal_direction, "improve")
    holds = f"while '{frame.constraints[0]}' holds" if frame.constraints else "at unchanged cost"
    return (
        f"Observable: {clause(d.observable, 300)}. Compare {frame.target} with its baseline for at least "
        f"{OBSERVATION_WEEKS} weeks (or {OBSERVATION_WEEKS} comparable cycles) after the change: the claim is "
        f"false if the measure of {frame.target} does not {moves} by at least {THRESHOLD_PERCENT}% {holds}, or if "
        "the observable contradicts the predicted relation."
    )[:1000]
