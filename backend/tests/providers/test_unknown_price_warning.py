"""An unknown price is said, never a silent $0: the context_usage event of a call on a model with no
price (neither genai-prices nor FORGE_PRICES_FILE) carries `price_known: False`; a priced model's
and a local server's (free per token, unless the deployment's prices file prices it) are known."""

from __future__ import annotations

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.call_model import account_usage
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Usage
from forge.core.llm.pricing import ModelPrice
from forge.core.session.forge_state import ForgeState
from forge.offline.offline_model import OfflineModel
from forge.providers.library_prices import LibraryPrices

USAGE = Usage(1000, 200)
PRICES = LibraryPrices()  # genai-prices' data, no deployment file (the process-wide table may have one)


class Labelled:
    def __init__(self, label: str) -> None:
        self.label = label
        self.context_window = 200_000


def context() -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), ForgeState(problem="p"), MemoryResearch([]), FixedClock(), ids, "m")


def test_a_call_on_an_unpriced_model_says_its_price_is_unknown() -> None:
    event = account_usage(context(), Labelled("openai:private-finetune-7"), USAGE, prices=PRICES)  # type: ignore[arg-type]
    assert event.data["price_known"] is False and event.data["cost_usd"] == 0.0
    assert event.data["session_tokens"] == USAGE.total


def test_priced_and_local_calls_carry_no_warning() -> None:
    priced = account_usage(context(), Labelled("anthropic:claude-sonnet-4-6"), USAGE, prices=PRICES)  # type: ignore[arg-type]
    local = account_usage(context(), Labelled("local:qwen3-8b"), USAGE, prices=PRICES)  # type: ignore[arg-type]
    assert priced.data["price_known"] is True and priced.data["cost_usd"] == 0.006
    assert local.data["price_known"] is True and local.data["cost_usd"] == 0.0


def test_a_local_model_in_the_prices_file_is_charged_at_its_price() -> None:
    """FORGE_PRICES_FILE prices a private or local model; a hosted model's name on a local server
    (priced only by genai-prices) stays free."""
    deployment = LibraryPrices({"qwen3-8b": ModelPrice(1.0, 2.0, 1.0, 0.1)})
    priced = account_usage(context(), Labelled("local:qwen3-8b"), USAGE, prices=deployment)  # type: ignore[arg-type]
    hosted_name = account_usage(context(), Labelled("local:gpt-4.1-mini"), USAGE, prices=deployment)  # type: ignore[arg-type]
    assert priced.data["cost_usd"] == 0.0014 and priced.data["price_known"] is True
    assert hosted_name.data["cost_usd"] == 0.0


def test_the_offline_stand_in_is_free_and_carries_no_warning() -> None:
    """The offline model's label names no provider: nobody bills it, so its $0 is a known price."""
    offline = account_usage(context(), OfflineModel(), USAGE, prices=PRICES)
    assert offline.data["price_known"] is True and offline.data["cost_usd"] == 0.0
