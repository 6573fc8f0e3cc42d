"""Fixtures: a scripted Anthropic API over httpx2.MockTransport and the adapter built over it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx2
import pytest
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi, Sleeps, build_model

from forge.providers.anthropic_model import AnthropicModel


@pytest.fixture
def api() -> FakeAnthropicApi:
    return FakeAnthropicApi()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
async def http_client(api: FakeAnthropicApi) -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(transport=httpx2.MockTransport(api)) as client:
        yield client


@pytest.fixture
def make_model(api: FakeAnthropicApi, http_client: httpx2.AsyncClient, sleeps: Sleeps) -> Callable[..., AnthropicModel]:
    def make(**options: Any) -> AnthropicModel:
        return build_model(api, http_client, sleeps, **options)

    return make
