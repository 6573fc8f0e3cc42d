"""The shipped tokenizer loads from disk with the network disabled and no tiktoken cache."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forge.providers.token_counting import (
    SAFETY_MARGINS,
    CountingProvider,
    TiktokenCounter,
    TokenizerFileError,
    cl100k_encoding,
    read_bpe_ranks,
    token_counter_for,
)


def _refusing_network_on_this_thread(original: Callable[..., Any]) -> Callable[..., Any]:
    """`original`, refused on the test's own thread (where the tokenizer loads). Other threads of the
    test process (the test databases' background drops) keep their network: the patch is process-wide."""
    test_thread = threading.current_thread()

    def guarded(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is test_thread:
            raise AssertionError("the tokenizer tried to reach the network")
        return original(*args, **kwargs)

    return guarded


def test_loads_cl100k_with_the_network_disabled_and_no_cache_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    monkeypatch.setattr(socket.socket, "connect", _refusing_network_on_this_thread(socket.socket.connect))
    monkeypatch.setattr(socket, "create_connection", _refusing_network_on_this_thread(socket.create_connection))
    cl100k_encoding.cache_clear()
    encoding = cl100k_encoding()
    # Published cl100k_base ids of "hello world" (tiktoken's own documentation example).
    assert encoding.encode("hello world") == [15339, 1917]
    assert encoding.decode(encoding.encode("Vertrauen ist gut; Kontrolle ist besser.")) == (
        "Vertrauen ist gut; Kontrolle ist besser."
    )


def test_counts_tokens_not_characters() -> None:
    counter = TiktokenCounter()
    assert counter.count_tokens("hello world") == 2
    assert counter.count_tokens("") == 0
    assert counter.count_tokens("a" * 4000) < 4000 // 4


def test_margin_rounds_up_and_never_counts_fewer_than_the_encoding() -> None:
    text = "The queue at the ticket office grows when arrivals outpace service."
    plain = TiktokenCounter().count_tokens(text)
    for provider in CountingProvider:
        counted = token_counter_for(provider).count_tokens(text)
        assert counted >= plain
        assert counted == -(-plain * SAFETY_MARGINS[provider] // 1)


def test_special_token_text_counts_as_plain_text() -> None:
    assert TiktokenCounter().count_tokens("<|endoftext|>") > 1


def test_rejects_a_tokenizer_file_that_is_not_the_published_one(tmp_path: Path) -> None:
    fake = tmp_path / "cl100k_base.tiktoken"
    fake.write_bytes(b"aGVsbG8= 0\n")
    with pytest.raises(TokenizerFileError, match="sha256"):
        read_bpe_ranks(fake)
    with pytest.raises(TokenizerFileError, match="missing"):
        read_bpe_ranks(tmp_path / "absent.tiktoken")
