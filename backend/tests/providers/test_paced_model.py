"""PacedModel: the same answers as the inner model, each after the configured wait."""

from __future__ import annotations

from pathlib import Path

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.llm.messages import Message, ModelRequest, Role, TextPart
from forge.offline.offline_model import OfflineModel
from forge.providers.paced_model import PacedModel


def _request() -> ModelRequest:
    text = "[forge phase=decompose round=0]\nProblem: How can a hospital cut emergency wait times without more staff?"
    return ModelRequest(system="", messages=(Message(role=Role.USER, parts=(TextPart(text),)),), tools=())


async def test_waits_before_each_step_and_answers_like_the_inner_model() -> None:
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    inner = OfflineModel()
    paced = PacedModel(inner, 0.25, sleep=record)
    paced_answer = await paced.complete(_request())
    assert waits == [0.25]
    assert paced_answer == await inner.complete(_request())
    assert paced.label == inner.label and paced.context_window == inner.context_window


async def test_the_setting_wraps_the_offline_model_only_when_positive(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'f.db'}"
    paced = build_container(Settings(embedder="hashed", database_url=db, offline_step_delay_ms=40))
    plain = build_container(Settings(embedder="hashed", database_url=db))
    try:
        assert isinstance(paced.model, PacedModel)
        assert isinstance(plain.model, OfflineModel)
    finally:
        await paced.close()
        await plain.close()


def test_settings_read_the_step_delay_and_clamp_negatives() -> None:
    assert Settings.from_env({"FORGE_OFFLINE_STEP_DELAY_MS": "150"}).offline_step_delay_ms == 150
    assert Settings.from_env({"FORGE_OFFLINE_STEP_DELAY_MS": "-5"}).offline_step_delay_ms == 0
