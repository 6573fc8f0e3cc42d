"""Token counts offline: tiktoken's cl100k_base read from a file shipped in the package.

Invariants:
    - Nothing is downloaded: the BPE ranks come from `tokenizer_data/cl100k_base.tiktoken` (the file
      tiktoken would fetch, checked against tiktoken's published sha256 before use); TIKTOKEN_CACHE_DIR
      and the network play no part.
    - The encoding is built once per process, on the first count (no import-time IO).
    - A provider's count is cl100k_base tokens × its safety margin, rounded up: a budget computed from
      it is never smaller than the provider's own count for ordinary text. Claude's tokenizer is not
      public and differs from cl100k (it yields more tokens for most text), hence the larger margin;
      OpenAI's current models use o200k_base, which yields at most about as many tokens as cl100k for
      English text, so a small margin suffices. The offline model bills cl100k tokens as they are.
"""

from __future__ import annotations

import base64
import hashlib
import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from pathlib import Path

import tiktoken

CL100K_FILE = Path(__file__).parent / "tokenizer_data" / "cl100k_base.tiktoken"
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# The split pattern of cl100k_base, as tiktoken_ext.openai_public defines it.
CL100K_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
CL100K_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


class TokenizerFileError(RuntimeError):
    """The shipped tokenizer file is missing or is not the file tiktoken publishes."""


class CountingProvider(StrEnum):
    ANTHROPIC = "anthropic"
    OPENAI_COMPATIBLE = "openai-compatible"
    OFFLINE = "offline"


# Safety margins per provider (see the module docstring for why they differ).
SAFETY_MARGINS: dict[CountingProvider, float] = {
    CountingProvider.ANTHROPIC: 1.25,
    CountingProvider.OPENAI_COMPATIBLE: 1.1,
    CountingProvider.OFFLINE: 1.0,
}


def read_bpe_ranks(path: Path = CL100K_FILE, expected_sha256: str = CL100K_SHA256) -> dict[bytes, int]:
    """The mergeable ranks of a `.tiktoken` file (`<base64 token> <rank>` per line), hash-checked."""
    if not path.is_file():
        raise TokenizerFileError(f"tokenizer file {path} is missing: reinstall the package")
    contents = path.read_bytes()
    if hashlib.sha256(contents).hexdigest() != expected_sha256:
        raise TokenizerFileError(f"tokenizer file {path} does not match the published sha256")
    ranks: dict[bytes, int] = {}
    for line in contents.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@cache
def cl100k_encoding() -> tiktoken.Encoding:
    """cl100k_base built from the shipped file (cached for the process)."""
    return tiktoken.Encoding(
        name="cl100k_base",
        pat_str=CL100K_PATTERN,
        mergeable_ranks=read_bpe_ranks(),
        special_tokens=CL100K_SPECIAL_TOKENS,
    )


@dataclass(frozen=True)
class TiktokenCounter:
    """A TokenCounter: cl100k_base tokens × `margin`, rounded up. Special-token text counts as plain text."""

    margin: float = 1.0

    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        return math.ceil(cl100k_length(text) * self.margin)


@lru_cache(maxsize=4096)
def cl100k_length(text: str) -> int:
    """Tokens of `text` in cl100k_base. Memoised: every call of a session re-sends the system prompt,
    the tool descriptions and the earlier messages, and counting them again cost the offline model
    about half its time."""
    return len(cl100k_encoding().encode(text, disallowed_special=()))


def token_counter_for(provider: CountingProvider) -> TiktokenCounter:
    """The counter a provider's budgets and usage estimates use."""
    return TiktokenCounter(margin=SAFETY_MARGINS[provider])
