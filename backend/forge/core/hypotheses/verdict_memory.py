"""A review's verdicts written into hypothesis memory (seed 004 §2.2, §5, §10).

Invariants:
    - A judged claim is the same hypothesis as a stored episode when their cosine is at least
      SAME_HYPOTHESIS_SIMILARITY (0.98, §10.1 "identical/variations"): the verdict lands on that
      episode. Otherwise a new episode is made at its §10.3 initial C (0.15 when the nearest related
      episode was judged the other way, 0.4 / 0.35 when the nearest is very / somewhat similar, else
      0.3) and its first usage entry, CREATED, shows that C before any update.
    - The verdict on the hypothesis itself (§2.2, §5): accept → support, reject → contradiction,
      qualify / merge → refinement. A hypothesis moves at most once per kind per session: the same
      hypothesis accepted (or rejected) again in that session is REPEATED, its usage recorded and
      its C unchanged (§10.4: near-identical hypotheses don't inflate confidence).
    - Refinement (§5.3): the judged claim's episode is the parent, slightly lowered and never raised
      (refined_parent); the child (the qualified text, or the claim it was merged into) gets
      max(its own C, 1.2 × the parent's) and the parent's id among its parents.
    - Related episodes (cosine ≥ INTERACTION_MIN_SIMILARITY, not the same hypothesis) react to an
      accept or reject by §10.2: an accept gives MUTUAL_SUPPORT to a related episode whose record is
      support (more supports than contradictions); a verdict against a related episode's record (an
      accept beside a refuted one, a reject beside a supported one) gives it a CONFLICT penalty by band.
    - A new question that retrieves an episode (it was offered to the session) raises its C by the
      §10.2 query-match band of their cosine, once per session (`matched_by_query`).
    - Every C change appends a UsageEntry with its kind, the similarity the rule used (where one
      applies) and the rule; episodes are never deleted here.
    - Pure: vectors are computed by the shell and passed in by text; ids come from `new_id`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from uuid import UUID

from forge.core.domain_types import VerdictType
from forge.core.hypotheses.confidence import MemoryOutcome, contradicted, refined_child, refined_parent, supported
from forge.core.hypotheses.memory import (
    HypothesisEpisode,
    HypothesisEpisodeId,
    JudgedClaim,
    UsageEntry,
    Vector,
    VerdictContext,
    similarity,
)
from forge.core.hypotheses.similarity_confidence import (
    INTERACTION_MIN_SIMILARITY,
    SAME_HYPOTHESIS_SIMILARITY,
    conflict_penalty,
    conflicted,
    initial_c,
    mutual_support_boost,
    mutually_supported,
    query_match_boost,
    query_matched,
)


def record_of(episode: HypothesisEpisode) -> int:
    """+1 when its supports outnumber its contradictions, -1 the other way, 0 when even."""
    balance = episode.support_count - episode.contradiction_count
    return (balance > 0) - (balance < 0)


def opposes(verdict: VerdictType, episode: HypothesisEpisode) -> bool:
    """A verdict against the episode's record: accept beside refuted, reject beside supported."""
    record = record_of(episode)
    return (verdict == VerdictType.ACCEPT and record < 0) or (verdict == VerdictType.REJECT and record > 0)


class _Ledger:
    """The episodes being updated, by id, with the order they were first changed."""

    def __init__(self, stored: Sequence[HypothesisEpisode], context: VerdictContext, new_id: Callable[[], UUID]):
        self.by_id = {e.id: e for e in stored}
        self.changed: dict[HypothesisEpisodeId, HypothesisEpisode] = {}
        self._context = context
        self._new_id = new_id

    def nearest(self, vector: Vector) -> tuple[HypothesisEpisode | None, float]:
        best = max(self.by_id.values(), key=lambda e: similarity(vector, e.vector), default=None)
        return best, (similarity(vector, best.vector) if best is not None else 0.0)

    def find_or_create(self, judged: JudgedClaim, text: str, vector: Vector) -> HypothesisEpisode:
        best, closest = self.nearest(vector)
        if best is not None and closest >= SAME_HYPOTHESIS_SIMILARITY:
            return best
        related = best is not None and closest >= INTERACTION_MIN_SIMILARITY
        conflicting = related and best is not None and opposes(judged.verdict, best)
        c = initial_c(closest, conflicting)
        ctx = self._context
        rule = "§10.3 initial C: " + (
            "the nearest related hypothesis conflicts" if conflicting else f"max sim {closest:.3f}"
        )
        entry = UsageEntry(ctx.at, ctx.session_id, ctx.question, MemoryOutcome.CREATED, c, c, round(closest, 4), rule)
        made = HypothesisEpisode(
            HypothesisEpisodeId(self._new_id()), text, vector, c, ctx.question, ctx.session_id, ctx.at,
            usage_history=(entry,), rationale=judged.rationale if text == judged.text else "",
        )  # fmt: skip
        self.put(made)
        return made

    def put(self, episode: HypothesisEpisode) -> None:
        self.by_id[episode.id] = episode
        self.changed[episode.id] = episode

    def moved(
        self, episode: HypothesisEpisode, c: float, outcome: MemoryOutcome, rule: str, sim: float | None = None
    ) -> HypothesisEpisode:
        ctx = self._context
        entry = UsageEntry(ctx.at, ctx.session_id, ctx.question, outcome, episode.c, c, sim, rule)
        updated = replace(episode, c=c, usage_history=(*episode.usage_history, entry))
        self.put(updated)
        return updated

    def moved_this_session(self, episode: HypothesisEpisode, outcome: MemoryOutcome) -> bool:
        return any(u.session_id == self._context.session_id and u.outcome == outcome for u in episode.usage_history)


def _judge_itself(ledger: _Ledger, episode: HypothesisEpisode, judged: JudgedClaim) -> HypothesisEpisode | None:
    """The verdict's own update; None when it repeats this session's (C unchanged, usage recorded)."""
    accept = judged.verdict == VerdictType.ACCEPT
    outcome = MemoryOutcome.SUPPORTED if accept else MemoryOutcome.CONTRADICTED
    if ledger.moved_this_session(episode, outcome):
        ledger.moved(episode, episode.c, MemoryOutcome.REPEATED, f"§10.4 already {outcome} in this session")
        return None
    if accept:
        linked = replace(episode, support_claim_ids=(*episode.support_claim_ids, judged.claim_id))
        return ledger.moved(linked, supported(episode.c), outcome, "§2.2 support: c + (1 - c)·0.1, ≤ 0.95")
    linked = replace(episode, contradiction_claim_ids=(*episode.contradiction_claim_ids, judged.claim_id))
    return ledger.moved(linked, contradicted(episode.c), outcome, "§2.2 contradiction: c·0.9, ≥ 0.05")


def _react_related(ledger: _Ledger, judged_episode: HypothesisEpisode, verdict: VerdictType) -> None:
    """§10.2 mutual support and conflict on the related episodes (not the judged one)."""
    for other in list(ledger.by_id.values()):
        sim = similarity(judged_episode.vector, other.vector)
        if other.id == judged_episode.id or not INTERACTION_MIN_SIMILARITY <= sim < SAME_HYPOTHESIS_SIMILARITY:
            continue
        if opposes(verdict, other):
            rule = f"§10.2 conflict: c·(1 - {conflict_penalty(sim)}), ≥ 0.05"
            ledger.moved(other, conflicted(other.c, sim), MemoryOutcome.CONFLICT, rule, round(sim, 4))
        elif verdict == VerdictType.ACCEPT and record_of(other) > 0:
            rule = f"§10.2 mutual support: c + (1 - c)·{mutual_support_boost(sim)}, ≤ 0.95"
            ledger.moved(other, mutually_supported(other.c, sim), MemoryOutcome.MUTUAL_SUPPORT, rule, round(sim, 4))


def _refine(ledger: _Ledger, episode: HypothesisEpisode, judged: JudgedClaim, vectors: Mapping[str, Vector]) -> None:
    parent = ledger.moved(
        episode, refined_parent(episode.c), MemoryOutcome.REFINED, "§5.3 parent: c·0.9, ≥ 0.3, never raised"
    )
    if judged.refined_text is None:
        return
    child = ledger.find_or_create(judged, judged.refined_text, vectors[judged.refined_text])
    if child.id == parent.id:
        return
    parents = child.parent_ids if parent.id in child.parent_ids else (*child.parent_ids, parent.id)
    inherited = max(child.c, refined_child(parent.c))
    sim = round(similarity(child.vector, parent.vector), 4)
    rule = "§5.3 child: max(own C, 1.2 × parent's C), ≤ 0.95"
    ledger.moved(replace(child, parent_ids=parents), inherited, MemoryOutcome.REFINED, rule, sim)


def _apply_one(ledger: _Ledger, judged: JudgedClaim, vectors: Mapping[str, Vector]) -> None:
    episode = ledger.find_or_create(judged, judged.text, vectors[judged.text])
    if judged.verdict in (VerdictType.ACCEPT, VerdictType.REJECT):
        judged_episode = _judge_itself(ledger, episode, judged)
        if judged_episode is not None:
            _react_related(ledger, judged_episode, judged.verdict)
        return
    _refine(ledger, episode, judged, vectors)


def remember_verdicts(
    stored: Sequence[HypothesisEpisode],
    judged: Sequence[JudgedClaim],
    vectors: Mapping[str, Vector],
    context: VerdictContext,
    new_id: Callable[[], UUID],
) -> list[HypothesisEpisode]:
    """The episodes created or changed by these verdicts (to upsert), in the order first touched."""
    ledger = _Ledger(stored, context, new_id)
    for j in judged:
        _apply_one(ledger, j, vectors)
    return list(ledger.changed.values())


def matched_by_query(
    episodes: Sequence[HypothesisEpisode], similarities: Mapping[HypothesisEpisodeId, float], context: VerdictContext
) -> list[HypothesisEpisode]:
    """§10.2 query match: each episode a new question retrieved (its id → the question's cosine)
    gains c + (1 - c)·boost by band, once per session; the others are not returned."""
    changed = []
    for episode in episodes:
        sim = similarities.get(episode.id)
        if sim is None or any(
            u.session_id == context.session_id and u.outcome == MemoryOutcome.QUERY_MATCH for u in episode.usage_history
        ):
            continue
        rule = f"§10.2 query match: c + (1 - c)·{query_match_boost(sim)}, ≤ 0.95"
        entry = UsageEntry(
            context.at, context.session_id, context.question, MemoryOutcome.QUERY_MATCH,
            episode.c, query_matched(episode.c, sim), round(sim, 4), rule,
        )  # fmt: skip
        changed.append(replace(episode, c=entry.c_after, usage_history=(*episode.usage_history, entry)))
    return changed
