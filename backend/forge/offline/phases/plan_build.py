"""BUILD for the offline model: the kept claims into the graph with typed edges, then the gaps.

Invariants: claims go in one per step (superseded first), so every edge points at a claim already in
the graph; edges are `extends` (the claim a synthesis built on), `merged_from` and at most two
`supports` on the same target; gaps come from untested assumptions, claim boundaries and rejected
claims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forge.core.research.text_relevance import coverage
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import (
    MAX_ATTEMPTS,
    Builder,
    ConversationView,
    PhasePlan,
    Task,
    claims_in,
    phase_summary,
    plan_or_summary,
    schedule,
)
from forge.offline.text.wording import shorten

ADD = "add_to_knowledge_graph"
KEPT = ("merged", "accepted", "qualified")  # the person's verdicts a claim enters the graph with
MAX_SUPPORTS = 2
MAX_GAPS = 12


def kept_claims(view: ConversationView) -> list[Mapping[str, Any]]:
    kept = [c for c in claims_in(view) if c.get("verdict") in KEPT]
    return sorted(kept, key=lambda c: (KEPT.index(str(c["verdict"])), int(c["index"])))


def graph_ids(view: ConversationView) -> list[tuple[str, str]]:
    """(id, text) of claims in the graph: from the context, then those added in this phase."""
    found = {str(g["id"]): str(g.get("text", "")) for g in view.context.get("graph_claims", []) or []}
    texts = {str(c["id"]): str(c.get("text", "")) for c in claims_in(view)}
    for outcome in view.outcomes:
        if outcome.ok and outcome.call.name == "add_to_knowledge_graph":
            claim_id = str(outcome.payload.get("claim_id", ""))
            found.setdefault(claim_id, texts.get(claim_id, ""))
    return list(found.items())


def edges_for(view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame) -> list[dict[str, str]]:
    claim_id, text = str(claim["id"]), str(claim.get("text", ""))
    graph = [(i, t) for i, t in graph_ids(view) if i != claim_id]
    known = {i for i, _ in graph}
    edges: list[dict[str, str]] = []
    base = [str(b) for b in claim.get("builds_on", []) or []][-1:]  # the brief's claim view: latest first built on
    edges += [{"to_claim_id": b, "edge_type": "extends"} for b in base if b in known]
    for other in claims_in(view):
        merged_into = str(other.get("rejection_reason") or "")
        if other.get("verdict") == "merged" and merged_into == f"merged into: {text}" and str(other["id"]) in known:
            edges.append({"to_claim_id": str(other["id"]), "edge_type": "merged_from"})
    linked = {e["to_claim_id"] for e in edges}
    same_target = [
        (coverage(t, text), i)
        for i, t in graph
        if i not in linked and coverage(t, frame.target) == 1.0 and coverage(text, frame.target) == 1.0
    ]
    for _, other_id in sorted(same_target, key=lambda s: (-s[0], s[1]))[:MAX_SUPPORTS]:
        edges.append({"to_claim_id": other_id, "edge_type": "supports"})
    return edges


def boundary(antithesis: str) -> str:
    """The failure-mode part of an antithesis (before the quoted counter-evidence)."""
    return antithesis.split(" Counter-evidence:", 1)[0].split(" None of the ", 1)[0]


def _standing_assumptions(view: ConversationView) -> list[str]:
    """The BUILD brief lists only the assumptions the person did not reject."""
    return [str(a) for a in view.context.get("assumptions", []) or []]


def gaps(view: ConversationView, frame: ProblemFrame) -> list[str]:
    claims = claims_in(view)
    kept_text = " ".join(str(c.get("text", "")) for c in claims if c.get("verdict") in KEPT)
    assumptions = sorted(_standing_assumptions(view), key=lambda a: (coverage(kept_text, a), a))
    items = [f"Untested assumption: {a}" for a in assumptions[:2]]
    items += [
        f"Boundary not yet measured: {shorten(boundary(str(c.get('antithesis', ''))), 220)}"
        for c in claims
        if c.get("verdict") in KEPT and c.get("antithesis")
    ][:3]
    items += [
        f"Rejected direction (revisit only with new evidence): {shorten(str(c.get('text', '')), 160)} — "
        f"{c.get('rejection_reason') or 'rejected'}"
        for c in claims
        if c.get("verdict") == "rejected"
    ]
    items.append(
        f"No claim has yet been tested on real data about {frame.target}; run the falsification "
        "measurements on one site first."
    )
    return [i[:1000] for i in dict.fromkeys(items)][:MAX_GAPS]


def _locks(view: ConversationView) -> list[str]:
    sources = [str(c.get("cross_domain_source")) for c in kept_claims(view) if c.get("cross_domain_source")]
    locked = len(sources) >= 2 and len(set(sources)) == 1
    return [f"every kept claim comes from {sources[0]}; the graph may be locked into one analogy"] if locked else []


def _edges_builder(view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    return lambda _: {"edges": edges_for(view, claim, frame)}


def build_tasks(view: ConversationView, frame: ProblemFrame) -> list[Task]:
    tasks: list[Task] = []
    for claim in kept_claims(view):
        task = Task(
            "add_to_knowledge_graph", _edges_builder(view, claim, frame), key={"claim_index": int(claim["index"])}
        )
        tasks.append(task)
        if view.done(task.identity) is None and len(view.attempts(task.identity)) < MAX_ATTEMPTS:
            return tasks  # one claim per step, so its edges can point at the claims added before it
    tasks.append(Task("analyze_gaps", lambda _: {"gaps": gaps(view, frame), "convergence_locks": _locks(view)}))
    return tasks


def _curiosity_line(payload: Mapping[str, Any]) -> str:
    """What the path navigator's walk reported in analyze_gaps' result, as it reported it."""
    thin = [t for t in payload.get("thin_regions", []) if isinstance(t, Mapping)]
    if not thin:
        return "CURIOSITY → the graph walk found no thin region (every relevant node it reached is connected)."
    first = shorten(str(thin[0].get("node", "")), 160)
    return (
        f"CURIOSITY → the graph walk found {len(thin)} thin region(s), relevant but barely connected (e.g. "
        f"'{first}'); they are offered as next-round directions."
    )


def _summary(view: ConversationView, frame: ProblemFrame, added: Sequence[Mapping[str, Any]]) -> str:
    gaps_call = view.done("analyze_gaps")
    listed = [str(g) for g in gaps_call.call.arguments.get("gaps", [])] if gaps_call else []
    edges = sum(int(o.payload.get("edges_added", 0)) for o in view.outcomes if o.ok and o.call.name == ADD)
    rejected = [shorten(str(c.get("text", "")), 200) for c in claims_in(view) if c.get("verdict") == "rejected"]
    boundaries = [g for g in listed if g.startswith("Boundary")]
    return phase_summary(
        f"rejected this round, now negative knowledge: {len(rejected)}, e.g. '{rejected[0]}'."
        if rejected
        else (boundaries or listed or ["no gap was recorded."])[0],
        f"claims added to the knowledge graph: {len(added)}, with typed edges: {edges}.",
        f"gaps recorded from untested assumptions, claim boundaries and rejected directions: {len(listed)}.",
        f"continue for another round on {frame.target}, deep-dive a claim, or resolve.",
        _curiosity_line(gaps_call.payload if gaps_call else {}),
    )


def plan_build(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    calls = schedule(view, build_tasks(view, frame))
    added = [c for c in kept_claims(view) if view.done(f"add_to_knowledge_graph:{c['index']}")]
    return plan_or_summary(calls, lambda: _summary(view, frame, added))
