"""Knowledge directions for SYNTHESIZE: starred analogies and TRIZ principles turned into claim texts.

Invariants:
    - A Direction is built only from the phase context (starred analogies, contradictions, graph
      claims, negative knowledge) and the shipped library; texts are pure functions of it.
    - Round 1 uses the starred analogies (at most 3); with a single starred analogy a contradiction's
      principle gives a second direction.
    - Rounds 2+ extend earlier knowledge: each direction names the claim it builds on (the deep-dive
      claim when set), and a direction covering >= REPEAT_COVERAGE of a rejected claim's terms is
      dropped; directions already present in the graph go last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from forge.providers.offline.offline_knowledge import OfflineKnowledge
from forge.providers.offline.problem_frame import ProblemFrame
from forge.providers.offline.source_domain_library import best_lever, best_pattern, fill, find_domain
from forge.providers.offline.term_match import coverage, first_sentence, jaccard, shorten
from forge.providers.offline.triz_library import principles_named

MAX_CLAIMS = 3
REPEAT_COVERAGE = 0.6
THRESHOLD_PERCENT = 10
OBSERVATION_WEEKS = 8


@dataclass(frozen=True, slots=True)
class Direction:
    label: str
    source: str | None
    pattern: str
    lever: str
    mechanism: str
    condition: str
    failure: str
    observable: str
    base_id: str | None = None
    base_text: str = ""

    @property
    def core(self) -> str:
        return f"{self.pattern} {self.mechanism}"


def sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def clause(text: str, limit: int = 200) -> str:
    text = shorten(" ".join(text.split()).rstrip(".").strip(), limit)
    return text[0].lower() + text[1:] if text and not text[:2].isupper() else text


def from_analogy(analogy: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge) -> Direction:
    name = str(analogy.get("source_domain", "another domain"))
    description = str(analogy.get("description", ""))
    rows = list(analogy.get("mapping", []) or [])
    condition = (f"{rows[0]['target_concept']} works the way {rows[0]['source_concept']} does in {name}"
                 if rows else f"the structure found in {name} also holds for {frame.target}")
    domain = find_domain(knowledge.domains, name)
    if domain is None:
        return Direction(name, name, name, frame.lever, first_sentence(description, 300), condition,
                         str(analogy.get("failure_mode") or "the analogy's assumptions do not hold"),
                         str(analogy.get("observable") or f"{frame.target} against its baseline"))
    pattern = next((p for p in domain.structural_patterns if description.startswith(p.name)),
                   best_pattern(domain, frame.problem))
    lever = best_lever(frame, pattern)
    return Direction(f"{pattern.name} ({domain.name})", domain.name, pattern.name, lever,
                     fill(pattern.mechanism, frame, lever), condition, fill(pattern.failure_mode, frame, lever),
                     fill(pattern.observable_template, frame, lever))


def from_contradictions(contradictions: Sequence[Mapping[str, Any]], frame: ProblemFrame,
                        knowledge: OfflineKnowledge) -> list[Direction]:
    found = []
    for c in contradictions:
        limit = str(c.get("property_b", frame.constraint)).split(" (TRIZ")[0]
        goal = str(c.get("property_a", frame.goal)).split(" (TRIZ")[0]
        for p in principles_named(knowledge.triz, [str(n) for n in c.get("principles", [])]):
            found.append(Direction(
                f"TRIZ principle {p.label}", None, p.name, frame.lever, p.applied_to(frame.target),
                f"the conflict between '{goal}' and '{limit}' is what holds {frame.target} in place",
                f"applying {p.name.lower()} only moves the cost into '{limit}'",
                f"{frame.target} and '{limit}' measured together, per period"))
    return found


def round_one(context: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge) -> list[Direction]:
    starred = [a for a in context.get("starred_analogies", []) or [] if isinstance(a, Mapping)]
    directions = [from_analogy(a, frame, knowledge) for a in starred[:MAX_CLAIMS]]
    principles = from_contradictions(context.get("contradictions", []) or [], frame, knowledge)
    wanted = 2 if len(directions) < 2 else len(directions)
    return (directions + principles)[:wanted]


def _base_for(direction: Direction, bases: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    if not bases:
        return None
    return max(enumerate(bases), key=lambda ib: (jaccard(direction.core, str(ib[1]["text"])), ib[0]))[1]


def later_round(context: Mapping[str, Any], negatives: Sequence[Mapping[str, Any]],
                graph: Sequence[Mapping[str, Any]], frame: ProblemFrame,
                knowledge: OfflineKnowledge) -> list[Direction]:
    """Directions for rounds 2+: not repeating rejected claims, each building on an earlier claim."""
    starred = [a for a in context.get("starred_analogies", []) or [] if isinstance(a, Mapping)]
    pool = from_contradictions(context.get("contradictions", []) or [], frame, knowledge)
    pool += [from_analogy(a, frame, knowledge) for a in starred]
    rejected = [str(n.get("claim", n.get("claim_text", ""))) for n in negatives]
    pool = [d for d in pool if all(coverage(d.core, r) < REPEAT_COVERAGE for r in rejected)]
    used = [str(g.get("text", "")) for g in graph]
    pool.sort(key=lambda d: sum(1 for u in used if coverage(d.core, u) >= REPEAT_COVERAGE))
    deep = context.get("deep_dive")
    if isinstance(deep, Mapping) and deep.get("id"):
        pool.sort(key=lambda d: -jaccard(d.core, str(deep.get("text", ""))))
        bases: list[Mapping[str, Any]] = [{"id": deep["id"], "text": deep.get("text", "")}]
    else:
        bases = [{"id": g.get("id", g.get("claim_id")), "text": g.get("text", g.get("claim", ""))} for g in graph]
        bases = bases or [{"id": n.get("claim_id"), "text": n.get("claim", n.get("claim_text", ""))}
                          for n in negatives]
    count = min(MAX_CLAIMS, max(2, len(starred)))
    chosen = []
    for d in pool[:count]:
        base = _base_for(d, bases)
        chosen.append(replace(d, base_id=str(base["id"]), base_text=str(base["text"])) if base else d)
    return chosen


def thesis_text(d: Direction, frame: ProblemFrame) -> str:
    limit = f" {frame.constraints[0]}" if frame.constraints else ""
    if d.base_id:
        return (f"Building on '{shorten(d.base_text, 140)}': {d.label} — {sentence(d.mechanism)} Combined with "
                f"that claim, this should {frame.direction_verb} {frame.target} further{limit}.")[:2000]
    return (f"{d.label}: {sentence(d.mechanism)} Applied to {frame.target}, this should "
            f"{frame.direction_verb} it{limit}.")[:2000]


def claim_text(d: Direction, frame: ProblemFrame) -> str:
    limit = f" {frame.constraints[0]}" if frame.constraints else ""
    source = f" ({d.source})" if d.source else ""
    core = (f"when {clause(d.condition)}, {d.pattern.lower()}{source} applied to {d.lever} will "
            f"{frame.direction_verb} {frame.target}{limit}; where {clause(d.failure)}, it will not.")
    if d.base_id:
        return f"Extending '{shorten(d.base_text, 100)}': {core}"[:2000]
    return sentence(core)[:2000]


def falsifiability(d: Direction, frame: ProblemFrame) -> str:
    moves = {"decrease": "fall", "increase": "rise"}.get(frame.goal_direction, "improve")
    holds = f"while '{frame.constraints[0]}' holds" if frame.constraints else "at unchanged cost"
    return (f"Measure {clause(d.observable, 240)} and {frame.target} against a baseline for at least "
            f"{OBSERVATION_WEEKS} weeks (or {OBSERVATION_WEEKS} comparable cycles) after the change: the claim "
            f"is false if {frame.target} does not {moves} by at least {THRESHOLD_PERCENT}% relative to the "
            f"baseline {holds}, or if the observable moves against the prediction.")[:1000]
