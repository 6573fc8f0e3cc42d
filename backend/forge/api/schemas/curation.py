"""Request model of PUT /admin/curation: the curation and navigation budgets and λ prices to change."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CurationChangeIn(BaseModel):
    """What to change; a field left out keeps its value. Context and carry budgets apply to every provider."""

    model_config = ConfigDict(extra="forbid", strict=True)  # a number, never a boolean or a numeric string

    context_tokens: int | None = Field(default=None, ge=1, le=2_000_000)
    carry_tokens: int | None = Field(default=None, ge=1, le=2_000_000)
    lambda_tokens: float | None = Field(default=None, ge=0, le=1)
    redundancy_weight: float | None = Field(default=None, ge=0, le=10)
    navigation_max_steps: int | None = Field(default=None, ge=1, le=1_000)
    navigation_max_edges: int | None = Field(default=None, ge=1, le=100_000)
    navigation_max_tokens: int | None = Field(default=None, ge=1, le=1_000_000)
    navigation_lambda_tokens: float | None = Field(default=None, ge=0, le=1)
    navigation_lambda_edge: float | None = Field(default=None, ge=0, le=10)
