"""The shipped knowledge the offline model reasons with: the same typed records every model uses.

Invariants:
    - Loading goes through `forge.knowledge.load_knowledge` (one loader for every reader); nothing is
      read at import time — `load_offline_knowledge` reads when it is called.
"""

from __future__ import annotations

from pathlib import Path

from forge.core.explore.library_records import ShippedKnowledge
from forge.knowledge.load_knowledge import KNOWLEDGE_DIR, load_shipped_knowledge

OfflineKnowledge = ShippedKnowledge
DEFAULT_KNOWLEDGE_DIR = KNOWLEDGE_DIR


def load_offline_knowledge(knowledge_dir: Path | None = None) -> ShippedKnowledge:
    return load_shipped_knowledge(knowledge_dir or DEFAULT_KNOWLEDGE_DIR)
