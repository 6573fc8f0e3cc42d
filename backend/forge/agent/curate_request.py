"""The curator in the agent's call path: one model call's messages, chosen under its model's budget.

Invariants:
    - Every request the runner sends goes through `RequestCurator.curate` (seed 002): the
      pure `core.curation.curate_conversation` decides, this module only supplies the counter,
      the budget of the call's provider and the current phase's marker.
    - Tokens are the provider's counter (`providers.token_counting`: cl100k_base from the shipped
      file × the provider's safety margin); counts are memoised by text, so a conversation that
      grows by one exchange per call is counted once, not once per call.
    - The system prompt and a tool list are counted once per runner and tool list.
    - The input ceiling is `core.llm.context_window_split.input_ceiling` of the model's window (the
      provider caps the output at the rest); `fit_to_server` replaces the window and the token margin
      with what a local server reported before the first call.
    - Budgets and λ prices are read from `LiveCurationSettings` at every call (`budget_for`), so a
      change (FORGE_CURATION_* at start, the admin API while running) applies to the next call.
    - What the curator left out stays recallable: the curated context carries them (`recallable`)
      and the current phase's brief carries a one-line note naming their ids (`recall` tool); the
      selection runs with NOTE_RESERVE tokens less so the note fits, and `tokens_sent` counts it.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from forge.agent.brief_notes import BriefNotes
from forge.agent.phases.compose_brief import MARKER
from forge.agent.phases.registry import PHASES
from forge.core.curation.curate_conversation import CuratedContext, curate_conversation
from forge.core.curation.curation_settings import CurationChange, CurationSettings, apply_change, check_change
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.curation.path_navigator import NavigationBudget
from forge.core.curation.recall_dropped import RecallItem, recall_note, recallable_units, with_recall_note
from forge.core.curation.segment_memo import SegmentMemo
from forge.core.llm.context_window_split import input_ceiling
from forge.core.llm.messages import Message, ToolDefinition
from forge.core.session.forge_state import ForgeState
from forge.providers.token_counting import CountingProvider, TiktokenCounter, token_counter_for

# Per provider: the whole request at most `context_tokens` (never more than 3/4 of the model's
# window); of each finished phase, at most `carry_tokens` beyond its brief's digest (briefs carry the
# state, so the earlier exchanges are mostly what the state already holds). bench_session_tokens.py
# measured carry 1,000: 42% fewer input tokens per session, the same claims, graph and document.
# Finished phases are compacted once that frees COMPACT_AT_LEAST tokens (a compaction rewrites the
# prompt cache from the first phase it shortens; bench_prompt_cache.py: cache-read share 0.895 ->
# 0.905 at 4,096, cost +1%). Since BUILD sends only its own context, the rewrite a compaction costs
# (1.25x) is no longer spread over BUILD's cached reads: at 5,120 the share is 0.896 -> 0.903 and the
# simulated cost 0.3466 -> 0.3453 USD (bench_session_tokens.py; 6,144 the same, 8,192 0.3512).
# Local servers' prefix caches are rewritten the same way.
COMPACT_AT_LEAST = 5_120
DEFAULT_BUDGETS: dict[CountingProvider, CurationBudget] = {
    CountingProvider.ANTHROPIC: CurationBudget(60_000, 1_000, compact_at_least=COMPACT_AT_LEAST),
    CountingProvider.OPENAI_COMPATIBLE: CurationBudget(48_000, 1_000, compact_at_least=COMPACT_AT_LEAST),
    CountingProvider.OFFLINE: CurationBudget(60_000, 1_000, compact_at_least=COMPACT_AT_LEAST),
}
DEFAULT_SETTINGS = CurationSettings({p.value: b for p, b in DEFAULT_BUDGETS.items()}, NavigationBudget())
MEMO_SIZE = 4_096
# Phases whose calls send only their own brief and what followed (`PhaseDefinition.own_context`): their
# segments of the main conversation are compacted at once, never deferred (no call cached them there).
OWN_CONTEXT_PHASES = frozenset(phase.value for phase, definition in PHASES.items() if definition.own_context)
# Room kept for the recall note (it lists fewer ids rather than exceed it): the call with its note stays
# within the budget. The summary counts the note in `tokens_sent`.
NOTE_RESERVE = 700


class LiveCurationSettings:
    """The config provider: the current snapshot, read at each call, replaced by `update`."""

    def __init__(self, initial: CurationSettings = DEFAULT_SETTINGS) -> None:
        self._current = initial

    def current(self) -> CurationSettings:
        return self._current

    def update(self, change: CurationChange) -> CurationSettings | str:
        """The new snapshot, or why the change was refused (nothing changes then)."""
        refusal = check_change(change)
        if refusal is not None:
            return refusal
        self._current = apply_change(self._current, change)
        return self._current


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


@dataclass(frozen=True, slots=True)
class CuratedRequest:
    """A call's curated messages (with the recall note), its summary, and what it left out."""

    context: CuratedContext
    recallable: dict[str, RecallItem]


class RequestCurator:
    def __init__(self, label: str, context_window: int, settings: LiveCurationSettings | None = None) -> None:
        self.provider = counting_provider(label)
        self.settings = settings or LiveCurationSettings()
        self._window = context_window
        self._margin: float | None = None
        self.count = _MemoCounter(token_counter_for(self.provider))
        self._fixed: dict[tuple[str, ...], int] = {}  # per tool list (a small window gets the phase's tools)
        self._segments = SegmentMemo()  # finished phases' selections, across calls and sessions
        self._notes = BriefNotes()  # the note each phase's brief was sent with, across calls and sessions

    def fit_to_server(self, context_window: int, token_margin: float | None) -> None:
        """The window and token margin a model learned from its server replace those it started with."""
        self._window = context_window
        if token_margin is not None and token_margin != self._margin:
            self._margin = token_margin
            self.count = _MemoCounter(TiktokenCounter(margin=token_margin))
            self._fixed, self._segments = {}, SegmentMemo()

    def budget_for(self) -> CurationBudget:
        budget = self.settings.current().budgets[self.provider.value]
        ceiling = input_ceiling(self._window) if self._window else budget.context_tokens
        return replace(budget, context_tokens=min(budget.context_tokens, ceiling))

    def navigation_budget(self) -> NavigationBudget:
        return self.settings.current().navigation

    def _fixed_tokens(self, system: str, tools: Sequence[ToolDefinition]) -> int:
        key = tuple(t.name for t in tools)
        if key not in self._fixed:
            texts = [system, *(f"{t.name} {t.description} {json.dumps(t.input_schema, default=str)}" for t in tools)]
            self._fixed[key] = sum(self.count(t) for t in texts)
        return self._fixed[key]

    def curate(
        self, state: ForgeState, messages: Sequence[Message], system: str, tools: Sequence[ToolDefinition]
    ) -> CuratedRequest:
        marker = MARKER.format(phase=state.current_phase.value, round=state.current_round + 1)
        budget = self.budget_for()
        room = replace(budget, context_tokens=max(0, budget.context_tokens - NOTE_RESERVE))
        curated = curate_conversation(
            messages,
            current_marker=marker,
            fixed_tokens=self._fixed_tokens(system, tools),
            count=self.count,
            budget=room,
            memo=self._segments,
            own_context=OWN_CONTEXT_PHASES,
        )
        recallable = recallable_units(messages, curated.summary)
        note = recall_note(list(recallable.values()), NOTE_RESERVE, self.count)
        noted = with_recall_note(curated.messages, marker, note)
        sent = curated.summary.tokens_sent + (self.count(note) if note and noted != curated.messages else 0)
        if note is not None:
            self._notes.remember(messages, marker, note)
        noted, sent = self._notes.restore(messages, noted, marker, sent, budget.context_tokens, self.count)
        summary = replace(curated.summary, tokens_sent=sent, budget=budget)
        context = CuratedContext(noted, summary, curated.settled, curated.settled_before)
        return CuratedRequest(context, recallable)
