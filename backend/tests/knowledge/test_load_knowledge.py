"""The shipped-knowledge loader: typed records, the classic TRIZ matrix cell by cell, loud failures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from forge.core.explore.library_records import MatrixLookupError, ScienceField
from forge.knowledge.load_knowledge import (
    KNOWLEDGE_DIR,
    KnowledgeFileError,
    load_shipped_knowledge,
    load_source_domains,
    load_triz,
)

CLASSIC = json.loads((KNOWLEDGE_DIR / "triz_matrix.json").read_text(encoding="utf-8"))


def test_loads_thirty_six_typed_domains_with_five_structures_each() -> None:
    domains = load_source_domains()
    assert len(domains) >= 36
    assert {d.field for d in domains} == set(ScienceField)
    assert all(len(d.structures) >= 5 for d in domains)
    carnot = domains[0].structures[0]
    assert carnot.name == "Carnot ceiling"
    assert carnot.references and carnot.typical_observables and carnot.failure_modes
    assert "{target}" in carnot.transfer.mapping


def test_the_matrix_answers_every_off_diagonal_cell_of_the_shipped_file() -> None:
    matrix = load_triz().matrix
    checked = 0
    for i in range(1, 40):
        for j in range(1, 40):
            if i == j:
                continue
            assert matrix.lookup(i, j) == tuple(CLASSIC["matrix"][i - 1][j - 1]), (i, j)
            checked += 1
    assert checked == 1482


def test_keeps_the_one_corrected_cell() -> None:
    assert load_triz().matrix.lookup(19, 9) == (8, 15, 35)


def test_an_empty_classic_cell_is_an_empty_tuple() -> None:
    assert load_triz().matrix.lookup(1, 2) == ()


@pytest.mark.parametrize(
    ("improving", "worsening", "words"), [(0, 5, "improving"), (5, 40, "worsening"), (7, 7, "diagonal")]
)
def test_out_of_range_and_diagonal_lookups_are_explained(improving: int, worsening: int, words: str) -> None:
    answer = load_triz().matrix.lookup(improving, worsening)
    assert isinstance(answer, MatrixLookupError)
    assert words in answer.message


def test_principles_carry_classic_names_sub_principles_and_our_cues() -> None:
    triz = load_triz()
    assert len(triz.principles) == 40 and len(triz.parameters) == 39
    segmentation = triz.principles[0]
    assert segmentation.name == "Segmentation"
    assert segmentation.sub_principles[0].startswith("Divide the object")
    assert segmentation.cue_terms and "{target}" in segmentation.abstract_form
    assert triz.parameter(9) is not None and triz.parameter(9).name == "Speed"  # type: ignore[union-attr]
    assert triz.principle(41) is None


def test_shipped_knowledge_finds_a_domain_by_name_or_id() -> None:
    knowledge = load_shipped_knowledge()
    assert knowledge.domain("Thermodynamics") is knowledge.domain("thermodynamics") is not None
    assert knowledge.domain("alchemy") is None


def _copy(tmp_path: Path) -> Path:
    for name in ("source_domains.json", "triz_matrix.json", "triz_parameters.json", "triz_principles.json"):
        shutil.copy(KNOWLEDGE_DIR / name, tmp_path / name)
    return tmp_path


def test_a_structure_missing_a_field_names_the_file_and_entry(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    domains = json.loads((directory / "source_domains.json").read_text(encoding="utf-8"))
    del domains[1]["structures"][2]["dynamics"]
    (directory / "source_domains.json").write_text(json.dumps(domains), encoding="utf-8")
    with pytest.raises(KnowledgeFileError, match=r"source_domains.json: queueing_theory: .*structures/2: .*dynamics"):
        load_source_domains(directory)


def test_a_domain_with_fewer_than_five_structures_is_rejected(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    domains = json.loads((directory / "source_domains.json").read_text(encoding="utf-8"))
    domains[0]["structures"] = domains[0]["structures"][:4]
    (directory / "source_domains.json").write_text(json.dumps(domains), encoding="utf-8")
    with pytest.raises(KnowledgeFileError, match="at least 5"):
        load_source_domains(directory)


def test_a_malformed_matrix_cell_is_rejected(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    classic = json.loads((directory / "triz_matrix.json").read_text(encoding="utf-8"))
    classic["matrix"][2][5] = [41]
    (directory / "triz_matrix.json").write_text(json.dumps(classic), encoding="utf-8")
    with pytest.raises(KnowledgeFileError, match=r"cell \(3,6\)"):
        load_triz(directory)
