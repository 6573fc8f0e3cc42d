"""The shipped concept spaces load into typed records; a malformed file names the file and the entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.core.search.concept_space import SpaceOrigin, TransformOp
from forge.knowledge.load_concept_spaces import CONCEPT_SPACES_FILE, load_concept_spaces
from forge.knowledge.load_knowledge import KnowledgeFileError


def test_every_shipped_space_has_the_parts_a_transform_needs() -> None:
    spaces = load_concept_spaces()
    assert len(spaces) >= 6
    for space in spaces:
        assert space.origin is SpaceOrigin.SHIPPED and space.cue_terms
        assert space.primitives and space.relations and space.assumptions_mutable and space.allowed_ops
        assert space.hard_constraints and space.assumptions_fixed
        assert space.assumptions_mutable[0].id == "am:1"


def write(tmp_path: Path, entry: dict[str, object]) -> Path:
    (tmp_path / CONCEPT_SPACES_FILE).write_text(json.dumps([entry]), encoding="utf-8")
    return tmp_path


GOOD = {
    "id": "bakery",
    "name": "Bakery",
    "cue_terms": ["bread"],
    "primitives": ["dough"],
    "relations": ["heat sets the crumb"],
    "assumptions_mutable": ["bread is baked daily"],
    "allowed_ops": ["negate_assumption"],
}


def test_a_minimal_space_loads_with_empty_optional_groups(tmp_path: Path) -> None:
    (space,) = load_concept_spaces(write(tmp_path, GOOD))
    assert space.hard_constraints == () and space.allowed_ops == (TransformOp.NEGATE_ASSUMPTION,)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"allowed_ops": ["teleport"]}, "bakery: 'allowed_ops' has an unknown operation 'teleport'"),
        ({"primitives": []}, "bakery: 'primitives' must not be empty"),
        ({"name": ""}, "bakery: missing 'name'"),
        ({"relations": [3]}, "bakery: 'relations' must be a list of texts"),
    ],
)
def test_a_malformed_space_names_the_file_and_the_entry(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    with pytest.raises(KnowledgeFileError, match=f"{CONCEPT_SPACES_FILE}: {message}"):
        load_concept_spaces(write(tmp_path, {**GOOD, **change}))
