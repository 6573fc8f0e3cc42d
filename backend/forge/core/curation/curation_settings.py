"""The budgets and λ prices of curation and navigation, and how a change is applied to them.

Invariants:
    - `CurationSettings` is one immutable snapshot: the curator's budget per token-counting provider
      (keyed by the provider's name: "anthropic", "openai-compatible", "offline") and the path
      navigator's budget. A caller reads the current snapshot at each model call / tool call, so a
      change takes effect on the next call.
    - A `CurationChange` names only what changes (None = keep); `apply_change` returns a new snapshot,
      the context and carry budgets applying to every provider. Values are checked by
      `check_change` (positive budgets, non-negative prices) before they are applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace

from forge.core.curation.listwise_selection import CurationBudget
from forge.core.curation.path_navigator import NavigationBudget


@dataclass(frozen=True, slots=True)
class CurationSettings:
    budgets: Mapping[str, CurationBudget]
    navigation: NavigationBudget = field(default_factory=NavigationBudget)


@dataclass(frozen=True, slots=True)
class CurationChange:
    """What an operator changes (FORGE_CURATION_* / FORGE_NAVIGATION_* or the admin API); None keeps."""

    context_tokens: int | None = None
    carry_tokens: int | None = None
    lambda_tokens: float | None = None
    redundancy_weight: float | None = None
    navigation_max_steps: int | None = None
    navigation_max_edges: int | None = None
    navigation_max_tokens: int | None = None
    navigation_lambda_tokens: float | None = None
    navigation_lambda_edge: float | None = None

    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))


_POSITIVE = ("context_tokens", "carry_tokens", "navigation_max_steps", "navigation_max_edges", "navigation_max_tokens")


def check_change(change: CurationChange) -> str | None:
    """A readable refusal, or None when every value given is in range."""
    for f in fields(change):
        value = getattr(change, f.name)
        if value is None:
            continue
        if f.name in _POSITIVE and value < 1:
            return f"{f.name} must be at least 1 (got {value})."
        if value < 0:
            return f"{f.name} must not be negative (got {value})."
    return None


def _budget(budget: CurationBudget, change: CurationChange) -> CurationBudget:
    c = change
    return replace(
        budget,
        context_tokens=budget.context_tokens if c.context_tokens is None else c.context_tokens,
        carry_tokens=budget.carry_tokens if c.carry_tokens is None else c.carry_tokens,
        lambda_tokens=_kept(c.lambda_tokens, budget.lambda_tokens),
        redundancy_weight=_kept(c.redundancy_weight, budget.redundancy_weight),
    )


def _kept(new: float | None, old: float) -> float:
    return old if new is None else new


def _navigation(budget: NavigationBudget, change: CurationChange) -> NavigationBudget:
    c = change
    return NavigationBudget(
        max_steps=budget.max_steps if c.navigation_max_steps is None else c.navigation_max_steps,
        max_edges=budget.max_edges if c.navigation_max_edges is None else c.navigation_max_edges,
        max_tokens=budget.max_tokens if c.navigation_max_tokens is None else c.navigation_max_tokens,
        lambda_tokens=_kept(c.navigation_lambda_tokens, budget.lambda_tokens),
        lambda_edge=_kept(c.navigation_lambda_edge, budget.lambda_edge),
        redundancy_weight=_kept(c.redundancy_weight, budget.redundancy_weight),
    )


def apply_change(settings: CurationSettings, change: CurationChange) -> CurationSettings:
    budgets = {name: _budget(b, change) for name, b in settings.budgets.items()}
    return CurationSettings(budgets, _navigation(settings.navigation, change))


def settings_view(settings: CurationSettings) -> dict[str, object]:
    """The snapshot as plain JSON (the admin API answers with it)."""
    budgets = {
        name: {
            "context_tokens": b.context_tokens,
            "carry_tokens": b.carry_tokens,
            "lambda_tokens": b.lambda_tokens,
            "redundancy_weight": b.redundancy_weight,
        }
        for name, b in settings.budgets.items()
    }
    n = settings.navigation
    navigation = {
        "max_steps": n.max_steps,
        "max_edges": n.max_edges,
        "max_tokens": n.max_tokens,
        "lambda_tokens": n.lambda_tokens,
        "lambda_edge": n.lambda_edge,
        "redundancy_weight": n.redundancy_weight,
    }
    return {"budgets": budgets, "navigation": navigation}
