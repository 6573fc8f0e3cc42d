"""Reads the shipped concept spaces (`concept_spaces.json`) into `core.concept_space.ConceptSpace`.

Invariants:
    - Nothing is read at import time. A malformed file fails loudly with `KnowledgeFileError` naming
      the file and the entry ("concept_spaces.json: energy_systems: 'allowed_ops' has an unknown
      operation 'teleport'").
    - Element ids are given by position (`p:1`, `r:1`, `hc:1`, `sp:1`, `af:1`, `am:1`), so the JSON
      holds only texts; space ids are unique; every space has primitives, relations, at least one
      mutable assumption and at least one allowed operation.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from forge.core.search.concept_space import ConceptSpace, SpaceOrigin, TransformOp, elements
from forge.knowledge.load_knowledge import KNOWLEDGE_DIR, KnowledgeFileError, _read

CONCEPT_SPACES_FILE = "concept_spaces.json"
_GROUPS = (
    ("primitives", "p", True),
    ("relations", "r", True),
    ("hard_constraints", "hc", False),
    ("soft_preferences", "sp", False),
    ("assumptions_fixed", "af", False),
    ("assumptions_mutable", "am", True),
)


def _texts(raw: Mapping[str, Any], key: str, required: bool) -> tuple[str, ...]:
    values = raw.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
        raise KeyError(f"'{key}' must be a list of texts")
    if required and not values:
        raise KeyError(f"'{key}' must not be empty")
    return tuple(values)


def _ops(raw: Mapping[str, Any]) -> tuple[TransformOp, ...]:
    names = _texts(raw, "allowed_ops", True)
    known = {op.value for op in TransformOp}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise KeyError(f"'allowed_ops' has an unknown operation {unknown[0]!r}")
    return tuple(TransformOp(n) for n in names)


def _space(raw: Mapping[str, Any]) -> ConceptSpace:
    groups = {key: elements(prefix, _texts(raw, key, required)) for key, prefix, required in _GROUPS}
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise KeyError("missing 'name'")
    return ConceptSpace(
        domain_id=str(raw["id"]),
        name=name,
        origin=SpaceOrigin.SHIPPED,
        cue_terms=_texts(raw, "cue_terms", True),
        allowed_ops=_ops(raw),
        **groups,
    )


def load_concept_spaces(directory: Path = KNOWLEDGE_DIR) -> tuple[ConceptSpace, ...]:
    items = _read(directory, CONCEPT_SPACES_FILE)
    if not isinstance(items, list):
        raise KnowledgeFileError(f"{CONCEPT_SPACES_FILE}: expected a list of concept spaces")
    spaces = []
    for number, item in enumerate(items):
        locator = str(item.get("id", f"#{number}")) if isinstance(item, Mapping) else f"#{number}"
        try:
            if not isinstance(item, Mapping) or not isinstance(item.get("id"), str) or not item["id"].strip():
                raise KeyError("missing 'id'")
            spaces.append(_space(item))
        except (KeyError, TypeError, ValueError) as error:
            reason = error.args[0] if isinstance(error, KeyError) and error.args else error
            raise KnowledgeFileError(f"{CONCEPT_SPACES_FILE}: {locator}: {reason}") from error
    ids = [s.domain_id for s in spaces]
    if len(set(ids)) != len(ids):
        raise KnowledgeFileError(f"{CONCEPT_SPACES_FILE}: concept space ids repeat")
    return tuple(spaces)
