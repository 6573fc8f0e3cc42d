"""Response models of the hypothesis memory (GET /memory/hypotheses) and their mapping from the core's
`RankedEpisode`.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from forge.core.hypotheses.confidence import EpisodeType, MemoryOutcome
from forge.core.hypotheses.memory import RankedEpisode


class UsageOut(BaseModel):
    at: datetime
    session_id: str
    context: str = Field(description="The question of the session that used the hypothesis.")
    outcome: MemoryOutcome = Field(description="The kind of change (seed 004 §2.2, §5, §10).")
    c_before: float
    c_after: float
    similarity: float | None = Field(default=None, description="The cosine the rule used, where one applies.")
    rule: str = Field(default="", description="The formula applied.")


class RememberedHypothesisOut(BaseModel):
    id: str
    text: str
    confidence: float = Field(description="The C-value, 0.05..0.95.")
    score: float = Field(
        description="relevance × C for the query (BM25 over the episodes fused with the cosine); C alone without one."
    )
    similarity: float
    support_count: int
    contradiction_count: int
    origin_question: str
    origin_session_id: str
    parent_ids: list[str]
    created_at: datetime
    usage_history: list[UsageOut]
    episode_type: EpisodeType
    rationale: str = Field(description="A reasoning excerpt from the claim it came from.")


class RememberedHypothesisPageOut(BaseModel):
    items: list[RememberedHypothesisOut]
    total: int
    limit: int
    offset: int


def remembered_out(r: RankedEpisode) -> RememberedHypothesisOut:
    e = r.episode
    return RememberedHypothesisOut(
        id=str(e.id),
        text=e.text,
        confidence=e.c,
        score=r.score,
        similarity=r.similarity,
        support_count=e.support_count,
        contradiction_count=e.contradiction_count,
        origin_question=e.origin_question,
        origin_session_id=str(e.origin_session_id),
        parent_ids=[str(p) for p in e.parent_ids],
        created_at=e.created_at,
        usage_history=[
            UsageOut(
                at=u.at,
                session_id=str(u.session_id),
                context=u.context,
                outcome=u.outcome,
                c_before=u.c_before,
                c_after=u.c_after,
                similarity=u.similarity,
                rule=u.rule,
            )
            for u in e.usage_history
        ],
        episode_type=e.episode_type,
        rationale=e.rationale,
    )
