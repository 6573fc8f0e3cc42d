"""The curator in the agent's call path: one model call's messages, chosen under its model's budget.

Invariants:
    - Every request the runner sends goes through `RequestCurator.curate` (seed 002): the
      pure `core.curation.curate_conversation` decides, this module only supplies the counter,
      the budget of the call's provider and the current phase's marker.
    - Tokens are the provider's counter (`providers.token_counting`: cl100k_base from the shipped
      file × the provider's safety margin); counts are memoised by text, so a conversation that
      grows by one exchange per call is counted once, not once per call.
    - The system prompt and tool list are counted once per runner (they never change in a session).
    - Budgets can be changed between calls (`RequestCurator.budget_for` reads `budgets`, a plain
      mapping the caller may replace); `DEFAULT_BUDGETS` is the table per provider.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from forge.agent.phases.compose_brief import MARKER
from forge.core.curation.curate_conversation import CuratedContext, curate_conversation
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, ToolDefinition
from forge.providers.token_counting import CountingProvider, TiktokenCounter, token_counter_for

# Per provider: the whole request at most `context_tokens` (never more than 3/4 of the model's
# window); of each finished phase, at most `carry_tokens` beyond its brief's digest (briefs carry the
# state, so the earlier exchanges are mostly what the state already holds). bench_session_tokens.py
# measured carry 1,000: 42% fewer input tokens per session, the same claims, graph and document.
DEFAULT_BUDGETS: dict[CountingProvider, CurationBudget] = {
    CountingProvider.ANTHROPIC: CurationBudget(context_tokens=60_000, carry_tokens=1_000),
    CountingProvider.OPENAI_COMPATIBLE: CurationBudget(context_tokens=48_000, carry_tokens=1_000),
    CountingProvider.OFFLINE: CurationBudget(context_tokens=60_000, carry_tokens=1_000),
}
MEMO_SIZE = 4_096


def counting_provider(label: str) -> CountingProvider:
    """`anthropic:…` → ANTHROPIC; any other `provider:model` (OpenAI, local servers) → OPENAI_COMPATIBLE;
    a label without a provider prefix (the offline model) → OFFLINE."""
    if label.startswith("anthropic:"):
        return CountingProvider.ANTHROPIC
    return CountingProvider.OPENAI_COMPATIBLE if ":" in label else CountingProvider.OFFLINE


class _MemoCounter:
    def __init__(self, counter: TiktokenCounter) -> None:
        self._counter = counter
        self._memo: OrderedDict[str, int] = OrderedDict()

    def __call__(self, text: str) -> int:
        found = self._memo.get(text)
        if found is None:
            found = self._memo[text] = self._counter.count_tokens(text)
            if len(self._memo) > MEMO_SIZE:
                self._memo.popitem(last=False)
        return found


class RequestCurator:
    def __init__(
        self, label: str, context_window: int, budgets: Mapping[CountingProvider, CurationBudget] = DEFAULT_BUDGETS
    ) -> None:
        self.provider = counting_provider(label)
        self.budgets = budgets
        self._window = context_window
        self._count = _MemoCounter(token_counter_for(self.provider))
        self._fixed: int | None = None

    def budget_for(self) -> CurationBudget:
        budget = self.budgets[self.provider]
        ceiling = self._window * 3 // 4 if self._window else budget.context_tokens
        return replace(budget, context_tokens=min(budget.context_tokens, ceiling))

    def _fixed_tokens(self, system: str, tools: Sequence[ToolDefinition]) -> int:
        if self._fixed is None:
            texts = [system, *(f"{t.name} {t.description} {json.dumps(t.input_schema, default=str)}" for t in tools)]
            self._fixed = sum(self._count(t) for t in texts)
        return self._fixed

    def curate(
        self, state: ForgeState, messages: Sequence[Message], system: str, tools: Sequence[ToolDefinition]
    ) -> CuratedContext:
        marker = MARKER.format(phase=state.current_phase.value, round=state.current_round + 1)
        return curate_conversation(
            messages,
            current_marker=marker,
            fixed_tokens=self._fixed_tokens(system, tools),
            count=self._count,
            budget=self.budget_for(),
        )
