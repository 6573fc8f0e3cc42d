"""Fixtures: a scripted OpenAI-compatible API over httpx.MockTransport and the adapter built over it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from providers.openai.fake_openai_api import FakeOpenAIApi, Sleeps, build_model

from forge.providers.openai_compatible_model import OpenAICompatibleModel


@pytest.fixture
def api() -> FakeOpenAIApi:
    return FakeOpenAIApi()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
async def http_client(api: FakeOpenAIApi) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.MockTransport(api)) as client:
        yield client


@pytest.fixture
def make_model(http_client: httpx.AsyncClient, sleeps: Sleeps) -> Callable[..., OpenAICompatibleModel]:
    def make(**options: Any) -> OpenAICompatibleModel:
        return build_model(http_client, sleeps, **options)

    return make
