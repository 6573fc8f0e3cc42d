"""`forge answer` shows a streaming reply's progress, so a slow local model visibly works."""

from __future__ import annotations

import pytest

from forge.cli.autopilot import _Progress
from forge.core.session import events as ev
from forge.services.broadcast.messages import LiveEvent


def test_a_streaming_reply_shows_as_one_growing_line_that_ends_before_the_next_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    progress = _Progress(quiet=False)
    progress.on_live(LiveEvent(ev.agent_text_delta("Queues ")))
    progress.on_live(LiveEvent(ev.agent_text_delta("dominate.")))
    progress.on_live(LiveEvent(ev.agent_text_discarded("cut")))  # not text: nothing shown
    progress.say("  ✓ research: 3 results")

    out = capsys.readouterr().out
    assert out == (
        "\r  … the model is writing (7 characters)\r  … the model is writing (16 characters)\n  ✓ research: 3 results\n"
    )
