"""An offline model of Anthropic's prompt cache, to measure how much of a session's input a cache
would serve (`bench/bench_prompt_cache.py`). Not used to serve requests.

It reads the Messages API bodies we send (`anthropic_wire.request_params`) and applies the
documented rules of prompt caching:
    - The prompt is one prefix in the order tools -> system -> messages, cut into blocks (each
      tool, each system block, each message content block; a block's role and message position
      are part of it). `cache_control` marks a breakpoint; it is not part of the cached content.
    - A request reads the longest prefix that an earlier request wrote, looking at each of its
      breakpoints and at most `lookback_blocks` block boundaries before it; only an exact prefix
      match counts, so any change (a different tool list) misses everything after it.
    - A request writes the prefix at each of its breakpoints past the point it read, if that prefix
      is at least `min_cacheable_tokens` long (shorter prefixes are never cached).
    - Changing the thinking settings (on/off, budget, and here also the effort level, to be safe)
      invalidates the cached messages; tools and system stay cached.
    - Input tokens are then: cache read (up to the read point), cache write (from there to the
      last prefix written) and uncached (the rest). The TTL is ignored: nothing expires.

Invariants:
    - Pure and deterministic: the same bodies in the same order give the same numbers.
    - Tokens are estimated, not counted: ceil(characters / `chars_per_token`) of each block's
      compact JSON (4 characters per token is the usual rule of thumb for English text; the real
      tokenizer is only reachable through the API). Shares are robust to this; absolute counts less so.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

LOOKBACK_BLOCKS = 20
MIN_CACHEABLE_TOKENS = 1024  # Claude Sonnet 4.x, Opus 4 / 4.1 (Opus 4.5+ and Haiku 4.5: 4096)


@dataclass(frozen=True, slots=True)
class CacheRules:
    min_cacheable_tokens: int = MIN_CACHEABLE_TOKENS
    lookback_blocks: int = LOOKBACK_BLOCKS
    chars_per_token: float = 4.0


@dataclass(frozen=True, slots=True)
class PrefixBlock:
    """One block of the prompt prefix: what identifies it, its estimated tokens, and whether a
    cache breakpoint follows it."""

    identity: str
    tokens: int
    breakpoint: bool


@dataclass(frozen=True, slots=True)
class CacheUsage:
    """How one request's input tokens would be billed."""

    cache_read: int = 0
    cache_write: int = 0
    uncached: int = 0

    @property
    def total(self) -> int:
        return self.cache_read + self.cache_write + self.uncached

    def __add__(self, other: CacheUsage) -> CacheUsage:
        return CacheUsage(
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
            self.uncached + other.uncached,
        )


def _blocks_in_order(params: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    # A change of the thinking settings invalidates cached messages (tools and system stay cached);
    # the effort level is counted with them (conservative: the docs tie it to thinking).
    effort = (params.get("output_config") or {}).get("effort")
    thinking = json.dumps([params.get("thinking"), effort], sort_keys=True)
    for tool in params.get("tools") or ():
        yield "tool", tool
    system = params.get("system") or ()
    for block in [{"type": "text", "text": system}] if isinstance(system, str) else system:
        yield "system", block
    for position, message in enumerate(params.get("messages") or ()):
        content = message["content"]
        for block in [{"type": "text", "text": content}] if isinstance(content, str) else content:
            yield f"message {position} {message['role']} thinking={thinking}", block


def prefix_blocks(params: Mapping[str, Any], rules: CacheRules = CacheRules()) -> list[PrefixBlock]:
    """The request body's prompt as prefix blocks, in cache order (tools, system, messages)."""
    blocks: list[PrefixBlock] = []
    for place, block in _blocks_in_order(params):
        content = {k: v for k, v in block.items() if k != "cache_control"}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        tokens = math.ceil(len(text) / rules.chars_per_token)
        blocks.append(PrefixBlock(f"{place}:{text}", tokens, "cache_control" in block))
    return blocks


def _prefix_keys(blocks: Sequence[PrefixBlock]) -> list[str]:
    keys, digest = [], hashlib.sha256()
    for block in blocks:
        digest.update(block.identity.encode())
        digest.update(b"\x00")
        keys.append(digest.copy().hexdigest())
    return keys


@dataclass
class PromptCacheSimulator:
    """The cache as seen by one API key and model: prefixes written so far, by key."""

    rules: CacheRules = field(default_factory=CacheRules)
    written: dict[str, int] = field(default_factory=dict)

    def send(self, params: Mapping[str, Any]) -> CacheUsage:
        """Bill one request against the cache, then write what it caches."""
        blocks = prefix_blocks(params, self.rules)
        if not blocks:
            return CacheUsage()
        keys = _prefix_keys(blocks)
        ends = list(_running_totals(b.tokens for b in blocks))
        breakpoints = [i for i, block in enumerate(blocks) if block.breakpoint]
        read_at = max((self._hit_before(keys, b) for b in breakpoints), default=-1)
        read = ends[read_at] if read_at >= 0 else 0
        writes = [b for b in breakpoints if b > read_at and ends[b] >= self.rules.min_cacheable_tokens]
        for b in writes:
            self.written[keys[b]] = ends[b]
        write = ends[writes[-1]] - read if writes else 0
        return CacheUsage(read, write, ends[-1] - read - write)

    def _hit_before(self, keys: Sequence[str], breakpoint: int) -> int:
        """The latest written prefix at `breakpoint` or within the look-back window before it (-1: none)."""
        for index in range(breakpoint, max(-1, breakpoint - self.rules.lookback_blocks - 1), -1):
            if keys[index] in self.written:
                return index
        return -1


def _running_totals(values: Iterator[int]) -> Iterator[int]:
    total = 0
    for value in values:
        total += value
        yield total
