"""The shipped knowledge the offline model reasons with, loaded together from one directory.

Invariants:
    - `DEFAULT_KNOWLEDGE_DIR` is the package's `forge/knowledge`, found via `Path(__file__)`;
      nothing is read at import time — `load_offline_knowledge` reads when it is called.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from forge.providers.offline.source_domain_library import SourceDomain, load_source_domains
from forge.providers.offline.triz_library import TrizLibrary, load_triz

DEFAULT_KNOWLEDGE_DIR = Path(__file__).resolve().parent.parent.parent / "knowledge"


@dataclass(frozen=True, slots=True)
class OfflineKnowledge:
    domains: tuple[SourceDomain, ...]
    triz: TrizLibrary


def load_offline_knowledge(knowledge_dir: Path | None = None) -> OfflineKnowledge:
    directory = knowledge_dir or DEFAULT_KNOWLEDGE_DIR
    return OfflineKnowledge(load_source_domains(directory), load_triz(directory))
