"""VALIDATE for the offline model: try to disprove each claim, check its novelty, score it.

Invariants: attempt_falsification follows research aimed at disproving the claim (rule 15) and its
verdict is `validation_rules.falsify`; check_novelty reads every research snippet of the session;
score_claim comes only after both (rules 5 and 6), from the same inspectable features.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from forge.core.research.text_relevance import is_relevant
from forge.core.research.text_terms import match_keys
from forge.offline.explore.source_domain_library import distance_of, find_domain, score_domain
from forge.offline.explore.triz_library import principles_named
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import (
    Builder,
    PhasePlan,
    Researched,
    Task,
    all_research_hits,
    phase_summary,
    plan_or_summary,
    schedule,
)
from forge.offline.phases.read_conversation import ConversationView
from forge.offline.phases.validation_rules import (
    CONNECTIVES,
    RELEVANT_SHARED_TERMS,
    ScoreInputs,
    claim_action,
    claim_parts,
    falsify,
    novelty,
    score_rationale,
    scores,
)
from forge.offline.text.term_match import cue_hits, key_terms, relevance
from forge.offline.text.wording import shorten

COVERS = re.compile(r"covers (\d+)%")
SCORES = ("novelty", "groundedness", "falsifiability", "significance")


def _action_terms(claim: Mapping[str, Any], frame: ProblemFrame, limit: int) -> str:
    action = claim_action(str(claim.get("text", "")))
    return " ".join(key_terms(action, limit, exclude=[frame.target, *frame.constraints, CONNECTIVES]))


def falsify_queries(claim: Mapping[str, Any], frame: ProblemFrame) -> tuple[str, ...]:
    """Queries aimed at disproving the claim: its action's terms, then its target and source."""
    head, _ = claim_parts(str(claim.get("text", "")))
    target_term = (key_terms(frame.target, 1) or [frame.target])[0]
    source = str(claim.get("cross_domain_source") or "")
    candidates = (
        f"{_action_terms(claim, frame, 4)} {target_term} evidence against",
        f"{frame.target} {source} evidence against".replace("  ", " "),
        " ".join(key_terms(head, 6)),
        f"{source} {' '.join(key_terms(head, 3))} limits".strip(),
    )
    return tuple(dict.fromkeys(c.strip() for c in candidates if c.strip()))


def novelty_queries(claim: Mapping[str, Any], frame: ProblemFrame) -> tuple[str, ...]:
    """Queries looking for the claim already stated: its action with the target."""
    return tuple(dict.fromkeys((f"{_action_terms(claim, frame, 5)} {frame.target}".strip(), frame.target)))


def _falsification_builder(claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    def build(research: Researched) -> Mapping[str, Any]:
        verdict = falsify(str(claim["text"]), frame, research.query, research.hits)
        return {
            "approach": verdict.approach,
            "result": verdict.result,
            "survived": verdict.survived,
            "evidence_sources": list(verdict.sources),
        }

    return build


def _novelty_builder(view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    def build(_: Researched) -> Mapping[str, Any]:
        verdict = novelty(str(claim["text"]), frame, all_research_hits(view))
        return {
            "closest_prior_work": verdict.closest_work,
            "prior_work_sources": list(verdict.sources),
            "assessment": verdict.assessment,
            "is_novel": verdict.is_novel,
        }

    return build


def relevant_sources(view: ConversationView, claim_text: str, cited: Sequence[str]) -> int:
    """How many cited sources say something about the claim (>= RELEVANT_SHARED_TERMS shared terms)."""
    head, _ = claim_parts(claim_text)
    texts = {h.source: f"{h.title} {h.snippet}" for h in all_research_hits(view)}
    return sum(1 for s in dict.fromkeys(cited) if relevance(texts.get(s, ""), head) >= RELEVANT_SHARED_TERMS)


def cue_strength(claim: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge) -> tuple[int, str | None]:
    """(problem terms that call for the claim's source, that source's semantic distance)."""
    domain = find_domain(knowledge.domains, str(claim.get("cross_domain_source") or ""))
    if domain is not None:
        return len({s for cue in score_domain(domain, frame)[1] for s in match_keys(cue)}), distance_of(
            domain, frame
        ).value
    principles = principles_named(knowledge.triz, [str(claim.get("text", ""))])
    problem = match_keys(frame.problem)
    hits = {s for p in principles[:1] for cue in cue_hits(p.cue_terms, problem) for s in match_keys(cue)}
    return len(hits), None


def _score_builder(
    view: ConversationView, claim: Mapping[str, Any], index: int, frame: ProblemFrame, knowledge: OfflineKnowledge
) -> Builder:
    def build(_: Researched) -> Mapping[str, Any] | None:
        falsified = view.done(f"attempt_falsification:{index}")
        novel = view.done(f"check_novelty:{index}")
        if falsified is None or novel is None:
            return None
        share = COVERS.search(str(novel.call.arguments.get("assessment", "")))
        cited = [str(s) for s in claim.get("evidence_sources", [])]
        cited += [str(s) for s in falsified.call.arguments.get("evidence_sources", [])]
        strength, distance = cue_strength(claim, frame, knowledge)
        inputs = ScoreInputs(
            claim=str(claim["text"]),
            condition=str(claim.get("falsifiability_condition", "")),
            distance=distance,
            closest_overlap=int(share.group(1)) / 100 if share else 0.0,
            relevant_sources=relevant_sources(view, str(claim["text"]), cited),
            survived=bool(falsified.call.arguments.get("survived", False)),
            cue_strength=strength,
        )
        return {**scores(inputs, frame), "rationale": score_rationale(inputs)}

    return build


def claim_tasks(
    view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge
) -> list[Task]:
    index = int(claim["index"])
    key = {"claim_index": index}
    tasks = [
        Task(
            "attempt_falsification",
            _falsification_builder(claim, frame),
            key=key,
            queries=falsify_queries(claim, frame),
            accept=lambda hits: any(is_relevant(f"{h.title} {h.snippet}", str(claim.get("text", ""))) for h in hits),
        ),
        Task(
            "check_novelty",
            _novelty_builder(view, claim, frame),
            key=key,
            queries=novelty_queries(claim, frame),
            needs_hits=False,
        ),
    ]
    if all(view.done(t.identity) for t in tasks):
        tasks.append(Task("score_claim", _score_builder(view, claim, index, frame, knowledge), key=key))
    return tasks


def _claims(view: ConversationView) -> list[Mapping[str, Any]]:
    return [c for c in view.context.get("claims", []) or [] if isinstance(c, Mapping) and "index" in c]


def _summary(view: ConversationView) -> str:
    lines, refuted = [], []
    for claim in _claims(view):
        index, text = int(claim["index"]), shorten(str(claim.get("text", "")), 180)
        falsified = view.done(f"attempt_falsification:{index}")
        survived = bool(falsified and falsified.call.arguments.get("survived"))
        refuted += [] if survived else [text]
        scored = view.done(f"score_claim:{index}")
        values = [float(scored.call.arguments.get(k, 0)) for k in SCORES] if scored else [0.0]
        lines.append(f"({index}) {text} — survived falsification: {survived}; mean score {sum(values) / 4:.2f}.")
    return phase_summary(
        f"claims that did not survive the attempt to disprove them: {len(refuted)}, e.g. '{refuted[0]}'."
        if refuted
        else "every claim survived the search for counter-evidence: not refuted by the corpus searched, not proof.",
        " ".join(lines),
        "novelty = 0.5·domain distance + 0.5·(1 − closest source overlap); groundedness = relevant cited sources "
        "/ 3 (halved if refuted); falsifiability = quantity, relation, threshold, time frame (0.25 each); "
        "significance = target covered, constraint kept, cue strength.",
        "accept, qualify or reject each claim.",
    )


def plan_validate(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    tasks = [t for claim in _claims(view) for t in claim_tasks(view, claim, frame, knowledge)]
    return plan_or_summary(schedule(view, tasks), lambda: _summary(view))
