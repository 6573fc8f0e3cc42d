"""The prompt-cache simulator behind bench/bench_prompt_cache.py follows Anthropic's documented
rules on the bodies our wire really sends: exact prefixes, breakpoints, look-back, minimum length."""

from __future__ import annotations

from typing import Any

from forge.core.llm.messages import Message, ModelRequest, Role, TextPart, ToolDefinition, user_text
from forge.providers.anthropic_wire import request_params
from forge.providers.model_catalogue import shipped_catalogue
from forge.providers.simulate_prompt_cache import CacheRules, CacheUsage, PromptCacheSimulator, prefix_blocks

SYSTEM = "You are Knowledge Forge. " * 400  # ~10,000 characters: well above the minimum
TOOLS = (
    ToolDefinition("research", "Search the corpus.", {"type": "object", "properties": {"query": {"type": "string"}}}),
    ToolDefinition("extract_assumptions", "Record assumptions.", {"type": "object"}),
)


def _body(request: ModelRequest) -> dict[str, Any]:
    capabilities = shipped_catalogue().capabilities("claude-sonnet-4-6")
    return request_params(
        request, model="claude-sonnet-4-6", max_tokens=8192, web_search_max_uses=5, capabilities=capabilities
    )


def _tokens(request: ModelRequest) -> int:
    return sum(block.tokens for block in prefix_blocks(_body(request)))


FIRST = ModelRequest(SYSTEM, (user_text("Why do emergency waits grow?"),), TOOLS)


def test_the_first_request_writes_its_prefix_and_an_identical_one_reads_it_all() -> None:
    cache = PromptCacheSimulator()
    total = _tokens(FIRST)
    assert cache.send(_body(FIRST)) == CacheUsage(cache_read=0, cache_write=total, uncached=0)
    assert cache.send(_body(FIRST)) == CacheUsage(cache_read=total, cache_write=0, uncached=0)


def test_a_changed_tool_list_misses_everything_after_it() -> None:
    cache = PromptCacheSimulator()
    cache.send(_body(FIRST))
    fewer_tools = ModelRequest(SYSTEM, FIRST.messages, TOOLS[:1])
    assert cache.send(_body(fewer_tools)).cache_read == 0


def test_the_next_turn_reads_the_conversation_the_previous_turn_wrote() -> None:
    cache = PromptCacheSimulator()
    cache.send(_body(FIRST))
    reply = Message(Role.ASSISTANT, (TextPart("Because utilisation nears one."),))
    second = ModelRequest(SYSTEM, (*FIRST.messages, reply, user_text("And then?")), TOOLS)
    usage = cache.send(_body(second))
    assert usage.cache_read == _tokens(FIRST)
    assert usage.cache_write == _tokens(second) - _tokens(FIRST) and usage.uncached == 0


def test_a_prefix_shorter_than_the_minimum_is_never_cached() -> None:
    cache = PromptCacheSimulator()
    short = ModelRequest("Be brief.", (user_text("Hi"),), ())
    assert cache.send(_body(short)) == CacheUsage(0, 0, _tokens(short))
    assert cache.send(_body(short)).cache_read == 0


def test_a_written_prefix_further_back_than_the_look_back_window_is_not_found() -> None:
    rules = CacheRules(min_cacheable_tokens=1, lookback_blocks=3)
    blocks = [{"type": "text", "text": f"block {i}"} for i in range(6)]
    written = {"messages": [{"role": "user", "content": [*blocks[:2], {**blocks[2], "cache_control": {}}]}]}
    near = {"messages": [{"role": "user", "content": [*blocks[:5], {**blocks[5], "cache_control": {}}]}]}
    far = {
        "messages": [
            {"role": "user", "content": [*blocks, *blocks, {"type": "text", "text": "x", "cache_control": {}}]}
        ]
    }
    cache = PromptCacheSimulator(rules)
    cache.send(written)
    assert PromptCacheSimulator(rules, dict(cache.written)).send(near).cache_read > 0  # 3 blocks back
    assert PromptCacheSimulator(rules, dict(cache.written)).send(far).cache_read == 0  # 10 blocks back


def test_a_call_whose_compaction_moved_the_settled_point_far_on_still_reads_where_the_calls_before_had_it() -> None:
    """More than the look-back's 20 blocks between the old settled point and the new one: marked at the
    new one only, the call reads just the tools and system prompt; marked at both, the old prefix too."""
    head = user_text("Why do emergency waits grow? " * 40)
    turns = [Message(Role.ASSISTANT if i % 2 == 0 else Role.USER, (TextPart(f"turn {i}"),)) for i in range(24)]
    before = ModelRequest(SYSTEM, (head, *turns[:-1]), TOOLS, cache_anchor=1)  # ends on a user turn
    compacted = [Message(m.role, (TextPart(f"{m.text}, shortened"),)) for m in turns]
    first = (head, *compacted, user_text("[forge phase=validate round=1]"))
    for previous, expected in (
        (0, _tokens(ModelRequest(SYSTEM, (), TOOLS))),
        (1, _tokens(ModelRequest(SYSTEM, (head,), TOOLS))),
    ):
        cache = PromptCacheSimulator()
        cache.send(_body(before))
        after = ModelRequest(SYSTEM, first, TOOLS, cache_anchor=len(first) - 1, previous_anchor=previous)
        assert cache.send(_body(after)).cache_read == expected, previous
