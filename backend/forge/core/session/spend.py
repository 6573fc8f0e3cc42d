"""Tokens and dollars spent by a session, per phase, and the budget that stops a run.

Invariants:
    - Spend only grows; per-phase entries add up to the session total.
    - A budget is checked before each model call: once spent >= budget the run stops cleanly.
    - Server web searches count in every budget: their results' tokens in `tokens`, their fee
      ($10 per 1,000 on Anthropic) in `cost_usd`, and their number in `web_searches`.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.llm.messages import Usage
from forge.core.rules.verdicts import ErrorCode, RuleViolation


@dataclass(frozen=True, slots=True)
class PhaseSpend:
    """`tokens` include what server tools brought in (search results, fetched pages are input tokens);
    `cost_usd` includes the per-search fee; `web_searches` counts the server's searches."""

    tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    web_searches: int = 0

    def plus(self, usage: Usage, cost_usd: float) -> PhaseSpend:
        return PhaseSpend(
            self.tokens + usage.total, self.cost_usd + cost_usd, self.calls + 1, self.web_searches + usage.web_searches
        )


@dataclass(frozen=True, slots=True)
class SpendBudget:
    max_tokens: int | None = None
    max_usd: float | None = None
    max_web_searches: int | None = None  # FORGE_BUDGET_WEB_SEARCHES: binds where no price does too


def total_spend(by_phase: dict[str, PhaseSpend]) -> PhaseSpend:
    return PhaseSpend(
        sum(s.tokens for s in by_phase.values()),
        sum(s.cost_usd for s in by_phase.values()),
        sum(s.calls for s in by_phase.values()),
        sum(s.web_searches for s in by_phase.values()),
    )


def check_budget(spent: PhaseSpend, budget: SpendBudget | None) -> RuleViolation | None:
    if budget is None:
        return None
    if budget.max_tokens is not None and spent.tokens >= budget.max_tokens:
        return RuleViolation(
            ErrorCode.BUDGET_EXHAUSTED,
            f"Token budget reached: {spent.tokens} of {budget.max_tokens} tokens. Raise FORGE_BUDGET_TOKENS to continue.",
        )
    if budget.max_usd is not None and spent.cost_usd >= budget.max_usd:
        return RuleViolation(
            ErrorCode.BUDGET_EXHAUSTED,
            f"Cost budget reached: ${spent.cost_usd:.4f} of ${budget.max_usd:.2f}. Raise FORGE_BUDGET_USD to continue.",
        )
    if budget.max_web_searches is not None and spent.web_searches >= budget.max_web_searches:
        return RuleViolation(
            ErrorCode.BUDGET_EXHAUSTED,
            f"Web search budget reached: {spent.web_searches} of {budget.max_web_searches} searches. "
            "Raise FORGE_BUDGET_WEB_SEARCHES to continue.",
        )
    return None
