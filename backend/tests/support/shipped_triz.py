"""The shipped TRIZ knowledge, loaded once for tests that run the agent through EXPLORE (a run in the
product always gets it from bootstrap; a bare ToolContext does not)."""

from __future__ import annotations

from forge.knowledge.load_knowledge import load_triz

SHIPPED_TRIZ = load_triz()
