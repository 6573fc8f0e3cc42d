"""VALIDATE for the offline model: try to disprove each claim, check its novelty, score it.

Invariants:
    - attempt_falsification follows research aimed at disproving that claim (its key terms +
      "evidence against", rule 15) and its verdict is `validation_rules.falsify` on what came back.
    - check_novelty compares the claim with every research snippet of the session so far.
    - score_claim is emitted only after both checks succeeded (rules 5 and 6) and recomputes the
      scores from the same inspectable features, reading the novelty share it reported itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from forge.providers.offline.offline_knowledge import OfflineKnowledge
from forge.providers.offline.planning import (
    OFFLINE_NOTE,
    Builder,
    PhasePlan,
    Researched,
    Task,
    all_research_hits,
    plan_or_summary,
    schedule,
)
from forge.providers.offline.problem_frame import ProblemFrame, frame_problem
from forge.providers.offline.read_conversation import ConversationView
from forge.providers.offline.source_domain_library import find_domain
from forge.providers.offline.term_match import key_terms, shorten
from forge.providers.offline.validation_rules import claim_parts, falsify, novelty, scores

COVERS = re.compile(r"covers (\d+)%")


def falsify_queries(claim: Mapping[str, Any], frame: ProblemFrame) -> tuple[str, ...]:
    head, _ = claim_parts(str(claim.get("text", "")))
    terms = " ".join(key_terms(head, 4, exclude=[*frame.constraints, "extending when applied"]))
    source = str(claim.get("cross_domain_source") or "")
    return tuple(dict.fromkeys((f"{terms} evidence against", f"{frame.target} {source} evidence against".strip(),
                                " ".join(key_terms(head, 6)))))


def novelty_queries(claim: Mapping[str, Any], frame: ProblemFrame) -> tuple[str, ...]:
    head, _ = claim_parts(str(claim.get("text", "")))
    return tuple(dict.fromkeys((" ".join(key_terms(head, 6, exclude=frame.constraints)), frame.target)))


def _falsification_builder(claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    def build(research: Researched) -> Mapping[str, Any]:
        verdict = falsify(str(claim["text"]), frame, research.query, research.hits)
        return {"approach": verdict.approach, "result": verdict.result, "survived": verdict.survived,
                "evidence_sources": list(verdict.sources)}
    return build


def _novelty_builder(view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    def build(_: Researched) -> Mapping[str, Any]:
        verdict = novelty(str(claim["text"]), frame, all_research_hits(view))
        return {"assessment": verdict.assessment, "is_novel": verdict.is_novel}
    return build


def _score_builder(view: ConversationView, claim: Mapping[str, Any], index: int, frame: ProblemFrame,
                   knowledge: OfflineKnowledge) -> Builder:
    def build(_: Researched) -> Mapping[str, Any] | None:
        falsified = view.done(f"attempt_falsification:{index}")
        novel = view.done(f"check_novelty:{index}")
        if falsified is None or novel is None:
            return None
        share = COVERS.search(str(novel.call.arguments.get("assessment", "")))
        domain = find_domain(knowledge.domains, str(claim.get("cross_domain_source") or ""))
        cited = [str(s) for s in claim.get("evidence_sources", [])]
        cited += [str(s) for s in falsified.call.arguments.get("evidence_sources", [])]
        return scores(str(claim["text"]), str(claim.get("falsifiability_condition", "")), frame,
                      distance=domain.semantic_distance if domain else None,
                      closest_overlap=int(share.group(1)) / 100 if share else 0.0, cited=cited,
                      survived=bool(falsified.call.arguments.get("survived", False)))
    return build


def claim_tasks(view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame,
                knowledge: OfflineKnowledge) -> list[Task]:
    index = int(claim["index"])
    key = {"claim_index": index}
    tasks = [
        Task("attempt_falsification", _falsification_builder(claim, frame), key=key,
             queries=falsify_queries(claim, frame)),
        Task("check_novelty", _novelty_builder(view, claim, frame), key=key, queries=novelty_queries(claim, frame)),
    ]
    if all(view.done(t.identity) for t in tasks):
        tasks.append(Task("score_claim", _score_builder(view, claim, index, frame, knowledge), key=key))
    return tasks


def _claims(view: ConversationView) -> list[Mapping[str, Any]]:
    return [c for c in view.context.get("claims", []) or [] if isinstance(c, Mapping) and "index" in c]


def _summary(view: ConversationView) -> str:
    lines = []
    refuted = []
    for claim in _claims(view):
        index = int(claim["index"])
        scored = view.done(f"score_claim:{index}")
        falsified = view.done(f"attempt_falsification:{index}")
        survived = bool(falsified and falsified.call.arguments.get("survived"))
        if not survived:
            refuted.append(claim)
        values = dict(scored.call.arguments) if scored else {}
        mean = sum(float(values.get(k, 0)) for k in ("novelty", "groundedness", "falsifiability", "significance")) / 4
        lines.append(f"CLAIM {index} → {shorten(str(claim.get('text', '')), 180)} — "
                     f"{'survived' if survived else 'did not survive'} falsification; mean score {mean:.2f}.")
    lead = (f"Most surprising: {len(refuted)} claim(s) did not survive the attempt to disprove them, e.g. "
            f"'{shorten(str(refuted[0].get('text', '')), 160)}'." if refuted else
            "Most surprising: every claim survived the search for counter-evidence — read that as 'not refuted "
            "by the corpus searched', not as proof.")
    rules = ("EVIDENCE → scores: novelty = 0.5·domain distance + 0.5·(1 − closest source overlap); groundedness = "
             "distinct cited sources / 4 (halved if refuted); falsifiability = measurable quantity, direction, "
             "threshold, time frame (0.25 each); significance = target covered, constraint kept, lever named.")
    return "\n\n".join([lead, *lines, rules, "SO WHAT → accept, qualify or reject each claim.", OFFLINE_NOTE])


def plan_validate(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    tasks = [t for claim in _claims(view) for t in claim_tasks(view, claim, frame, knowledge)]
    return plan_or_summary(schedule(view, tasks), lambda: _summary(view))
