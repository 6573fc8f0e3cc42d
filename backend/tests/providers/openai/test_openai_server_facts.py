"""Reading what a local server says about itself: its window, slots and tokenizer, from each server's shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx
import pytest

from forge.providers.openai_server_facts import (
    OLLAMA_NOTE,
    OLLAMA_TRAINED,
    GetJson,
    PostJson,
    count_from_tokenize,
    margin_for,
    probe_server,
    server_root,
    window_from_models,
    window_from_ollama_ps,
    window_from_ollama_show,
    window_from_props,
)
from forge.providers.token_counting import cl100k_length


def test_vllm_and_llama_cpp_give_the_window_in_their_model_list() -> None:
    vllm = {"data": [{"id": "Qwen/Qwen3-8B", "max_model_len": 32_768}, {"id": "other", "max_model_len": 8_192}]}
    llama = {"data": [{"id": "gemma.gguf", "meta": {"n_ctx_train": 32_768, "n_vocab": 262_144}}]}
    assert window_from_models(vllm, "Qwen/Qwen3-8B") == 32_768
    assert window_from_models(llama, "gemma-3-270m") == 32_768  # the only model listed, whatever its name
    assert window_from_models({"data": [{"id": "gemma-3-270m", "object": "model"}]}, "gemma-3-270m") is None


def test_llama_cpp_props_give_the_slots_window_and_the_slots() -> None:
    props = {"default_generation_settings": {"n_ctx": 16_384}, "total_slots": 1}
    assert window_from_props(props) == (16_384, 1)
    assert window_from_props({"detail": "Not Found"}) == (None, None)


def test_ollama_show_gives_num_ctx_before_the_trained_length() -> None:
    shown = {"parameters": "num_ctx 8192\nstop <end_of_turn>", "model_info": {"gemma3.context_length": 32_768}}
    assert window_from_ollama_show(shown) == 8_192
    assert window_from_ollama_show({"model_info": {"gemma3.context_length": 32_768}}) == 32_768


def test_ollama_ps_gives_the_window_a_loaded_model_runs_with() -> None:
    running = {"models": [{"name": "qwen3:8b", "model": "qwen3:8b", "context_length": 4_096}]}
    assert window_from_ollama_ps(running, "qwen3:8b") == 4_096
    assert window_from_ollama_ps({"models": [{"name": "gemma3:latest", "context_length": 8_192}]}, "gemma3") == 8_192
    assert window_from_ollama_ps(running, "gemma3") is None and window_from_ollama_ps({"models": []}, "x") is None


def test_the_token_margin_is_the_servers_count_over_cl100k_with_room_and_never_below_1_1() -> None:
    sample = "Queues grow when arrivals outpace service."
    assert margin_for(2 * cl100k_length(sample), sample) == pytest.approx(2.2)
    assert margin_for(cl100k_length(sample) // 2, sample) == pytest.approx(1.1)
    assert count_from_tokenize({"tokens": [1, 2, 3]}) == 3 and count_from_tokenize({"count": 7}) == 7


def test_the_server_root_drops_the_v1_suffix() -> None:
    assert server_root("http://127.0.0.1:8080/v1/") == "http://127.0.0.1:8080"
    assert server_root("http://gpu-box:11434/v1") == "http://gpu-box:11434"


def _ollama(running: list[dict[str, object]]) -> tuple[GetJson, PostJson]:
    """An Ollama server: `/v1/models` without windows, `/api/show` without num_ctx, `running` in `/api/ps`."""
    answers: dict[str, object] = {
        "http://127.0.0.1:11434/v1/models": {"object": "list", "data": [{"id": "qwen3:8b", "object": "model"}]},
        "http://127.0.0.1:11434/api/show": {
            "parameters": "stop <|im_end|>",
            "model_info": {"qwen3.context_length": 40_960},
        },
        "http://127.0.0.1:11434/api/ps": {"models": running},
    }

    async def answer(url: str, body: Mapping[str, Any] | None = None) -> Any:
        if url not in answers:
            raise httpx.HTTPStatusError("404", request=httpx.Request("GET", url), response=httpx.Response(404))
        return answers[url]

    return answer, answer


async def test_ollama_s_trained_length_is_only_an_upper_bound_and_says_so_until_the_model_runs() -> None:
    idle = await probe_server(*_ollama([]), "http://127.0.0.1:11434/v1", "qwen3:8b")
    assert idle.context_window == 40_960 and idle.window_source == OLLAMA_TRAINED and OLLAMA_NOTE in idle.notes
    assert "OLLAMA_CONTEXT_LENGTH" in OLLAMA_NOTE and "OPENAI_CONTEXT_WINDOW" in OLLAMA_NOTE

    loaded = [{"name": "qwen3:8b", "model": "qwen3:8b", "context_length": 16_384}]
    running = await probe_server(*_ollama(loaded), "http://127.0.0.1:11434/v1", "qwen3:8b")
    assert (running.context_window, running.window_source, running.notes) == (16_384, "/api/ps", [])
    assert running.streams_tools  # Ollama streams tool calls
