"""Listwise evidence selection under a token budget (seed 002 §6–§7), with a provenance trail.

Invariants:
    - Must-keep items are always selected, whatever the budget; they are counted first and the
      optional items share what is left: `min(budget.carry_tokens, budget.context_tokens - must_keep)`.
    - Optional items are chosen greedily, one at a time, by the shaped utility
          relevance − redundancy_weight · redundancy − lambda_tokens · tokens
      where redundancy is the largest similarity to an item already chosen (must-keep items and the
      texts passed as `context` count as chosen). The seed sums the similarities; the maximum lets
      the overlap with the nearest pick decide, not how many picks came before (maximal marginal
      relevance).
    - Stop rule: when the best remaining shaped utility is ≤ 0 the selection stops and every item
      not chosen is dropped with reason STOP_RULE. An item that does not fit the room left is
      dropped with reason OVER_BUDGET and the next one is tried.
    - The optional tokens selected never exceed the room; the result has one `Decision` per item
      (its tokens, relevance, redundancy, utility and reason), in the items' order.
    - Similarity is the cosine of match-key sets (`core.text_terms`): deterministic, language-aware,
      pure. Selection does not reorder: the caller keeps the conversation's order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from forge.core.research.text_terms import match_keys


class Reason(StrEnum):
    MUST_KEEP = "must_keep"
    SELECTED = "selected"
    STOP_RULE = "stop_rule"
    OVER_BUDGET = "over_budget"
    DEFERRED = "deferred"


@dataclass(frozen=True, slots=True)
class CurationBudget:
    """Tokens a call may carry, and the prices of the shaped utility.

    `context_tokens`: the whole request (system, tools, messages); `carry_tokens`: at most this
    much optional material per selection (the conversation curator runs one per finished phase);
    `lambda_tokens`: utility lost per token (the stop rule); `redundancy_weight`: the seed's
    diversity penalty (0.3); `compact_at_least`: the conversation curator compacts finished phases
    only once that frees at least this many tokens (0: at every phase change), as a compaction
    rewrites a provider's prompt cache from the first phase it shortens."""

    context_tokens: int
    carry_tokens: int
    lambda_tokens: float = 0.00005
    redundancy_weight: float = 0.3
    compact_at_least: int = 0


@dataclass(frozen=True, slots=True)
class Candidate:
    """One item the curator may put into a call's context. `text` is what is scored."""

    key: str
    text: str
    tokens: int
    must_keep: bool = False


@dataclass(frozen=True, slots=True)
class Decision:
    key: str
    kept: bool
    reason: Reason
    tokens: int
    relevance: float = 0.0
    redundancy: float = 0.0
    utility: float = 0.0


@dataclass(frozen=True, slots=True)
class Selection:
    decisions: tuple[Decision, ...]
    must_keep_tokens: int
    optional_tokens: int
    room: int
    stop_rule_triggered: bool

    @property
    def kept_keys(self) -> frozenset[str]:
        return frozenset(d.key for d in self.decisions if d.kept)


def term_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine of two sets (|a ∩ b| / sqrt(|a|·|b|)); 0 when either is empty."""
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


@dataclass
class _Pool:
    keys: list[frozenset[str]]
    chosen: list[int]
    redundancy: list[float]

    def choose(self, index: int) -> None:
        self.chosen.append(index)
        mine = self.keys[index]
        for other, keys in enumerate(self.keys):
            self.redundancy[other] = max(self.redundancy[other], term_similarity(mine, keys))


def _shaped(relevance: float, redundancy: float, tokens: int, budget: CurationBudget) -> float:
    return relevance - budget.redundancy_weight * redundancy - budget.lambda_tokens * tokens


def select_listwise(
    query: str, candidates: Sequence[Candidate], budget: CurationBudget, context: Sequence[str] = ()
) -> Selection:
    """Choose the optional candidates for `query` under `budget`; must-keep ones always stay.
    `context`: texts already in the call (they make similar candidates redundant)."""
    query_keys = match_keys(query)
    pool = _Pool([match_keys(c.text) for c in candidates], [], [0.0] * len(candidates))
    for text in context:
        keys = match_keys(text)
        pool.redundancy = [max(r, term_similarity(keys, k)) for r, k in zip(pool.redundancy, pool.keys, strict=True)]
    relevance = [term_similarity(query_keys, k) for k in pool.keys]
    must_keep = sum(c.tokens for c in candidates if c.must_keep)
    room = max(0, min(budget.carry_tokens, budget.context_tokens - must_keep))
    reasons: dict[int, Reason] = {}
    utilities: dict[int, float] = {}
    seen_redundancy: dict[int, float] = {}
    for i, c in enumerate(candidates):
        if c.must_keep:
            pool.choose(i)
            reasons[i] = Reason.MUST_KEEP
    used, stopped = 0, False
    while not stopped:
        open_ = [i for i in range(len(candidates)) if i not in reasons]
        if not open_:
            break
        for i in open_:
            seen_redundancy[i] = pool.redundancy[i]
            utilities[i] = _shaped(relevance[i], pool.redundancy[i], candidates[i].tokens, budget)
        best = max(open_, key=lambda i: (utilities[i], -i))
        if utilities[best] <= 0:
            stopped = True
        elif used + candidates[best].tokens > room:
            reasons[best] = Reason.OVER_BUDGET
        else:
            used += candidates[best].tokens
            reasons[best] = Reason.SELECTED
            pool.choose(best)
    decisions = tuple(
        Decision(
            c.key,
            reasons.get(i) in (Reason.MUST_KEEP, Reason.SELECTED),
            reasons.get(i, Reason.STOP_RULE),
            c.tokens,
            round(relevance[i], 4),
            round(seen_redundancy.get(i, 0.0), 4),
            round(utilities.get(i, 0.0), 4),
        )
        for i, c in enumerate(candidates)
    )
    return Selection(decisions, must_keep, used, room, stopped)
