"""Reads the shipped knowledge files into the typed records of `forge.core.explore.library_records`.

Invariants:
    - Nothing is read at import time; each loader reads when called (callers cache).
    - A malformed file fails loudly with `KnowledgeFileError` naming the file and the entry
      (e.g. "source_domains.json: thermodynamics/structures/2: missing 'dynamics'").
    - TRIZ names, sub-principles and the matrix come from `triz_matrix.json` (the classic 39x39 matrix,
      Apache-2.0, see NOTICE); our own cue terms, descriptions and abstract forms come from
      `triz_parameters.json` / `triz_principles.json` and are joined by number.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from forge.core.explore.library_records import (
    MIN_STRUCTURES,
    PARAMETER_COUNT,
    PRINCIPLE_COUNT,
    ContradictionMatrix,
    DomainVariable,
    ScienceField,
    ShippedKnowledge,
    SourceDomain,
    Structure,
    StructureTransfer,
    TrizKnowledge,
    TrizParameter,
    TrizPrinciple,
)

KNOWLEDGE_DIR = Path(__file__).resolve().parent
DOMAINS_FILE = "source_domains.json"
MATRIX_FILE = "triz_matrix.json"
PARAMETER_CUES_FILE = "triz_parameters.json"
PRINCIPLE_CUES_FILE = "triz_principles.json"


class KnowledgeFileError(ValueError):
    """A shipped knowledge file does not have the documented shape."""


def _read(directory: Path, name: str) -> Any:
    try:
        return json.loads((directory / name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise KnowledgeFileError(f"{name}: cannot read ({error})") from error


def _text(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise KeyError(f"missing '{key}'")
    return value


def _texts(raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    values = raw.get(key)
    if not isinstance(values, list) or not values or not all(isinstance(v, str) and v.strip() for v in values):
        raise KeyError(f"'{key}' must be a non-empty list of texts")
    return tuple(values)


def _structure(raw: Mapping[str, Any]) -> Structure:
    transfer = raw.get("transfer")
    if not isinstance(transfer, Mapping):
        raise KeyError("missing 'transfer'")
    return Structure(
        name=_text(raw, "name"),
        source_relation=_text(raw, "source_relation"),
        mechanism=_text(raw, "mechanism"),
        key_variables=_texts(raw, "key_variables"),
        dynamics=_text(raw, "dynamics"),
        typical_observables=_texts(raw, "typical_observables"),
        failure_modes=_texts(raw, "failure_modes"),
        references=_texts(raw, "references"),
        transfer=StructureTransfer(
            _text(transfer, "mapping"), _text(transfer, "observable"), _text(transfer, "failure")
        ),
    )


def _domain(raw: Mapping[str, Any]) -> SourceDomain:
    structures = []
    for number, item in enumerate(raw.get("structures") or ()):
        try:
            structures.append(_structure(item))
        except (KeyError, TypeError, AttributeError) as error:
            raise KeyError(f"structures/{number}: {error}") from error
    if len(structures) < MIN_STRUCTURES:
        raise KeyError(f"has {len(structures)} structures; at least {MIN_STRUCTURES} are required")
    return SourceDomain(
        id=_text(raw, "id"),
        name=_text(raw, "name"),
        field=ScienceField(_text(raw, "field")),
        summary=_text(raw, "summary"),
        cue_terms=_texts(raw, "cue_terms"),
        key_variables=tuple(DomainVariable(_text(v, "name"), _text(v, "meaning")) for v in raw["key_variables"]),
        structures=tuple(structures),
    )


def load_source_domains(directory: Path = KNOWLEDGE_DIR) -> tuple[SourceDomain, ...]:
    items = _read(directory, DOMAINS_FILE)
    if not isinstance(items, list):
        raise KnowledgeFileError(f"{DOMAINS_FILE}: expected a list of domains")
    domains = []
    for number, item in enumerate(items):
        locator = str(item.get("id", f"#{number}")) if isinstance(item, Mapping) else f"#{number}"
        try:
            domains.append(_domain(item))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise KnowledgeFileError(f"{DOMAINS_FILE}: {locator}: {error}") from error
    ids = [d.id for d in domains]
    if len(set(ids)) != len(ids):
        raise KnowledgeFileError(f"{DOMAINS_FILE}: domain ids repeat")
    return tuple(domains)


def _by_number(items: Sequence[Mapping[str, Any]], key: str, count: int, name: str) -> list[Mapping[str, Any]]:
    numbers = [int(item[key]) for item in items]
    if numbers != list(range(1, count + 1)):
        raise KnowledgeFileError(f"{name}: expected entries numbered 1..{count} in order")
    return list(items)


def _matrix(raw: Any) -> ContradictionMatrix:
    if not isinstance(raw, list) or len(raw) != PARAMETER_COUNT:
        raise KnowledgeFileError(f"{MATRIX_FILE}: 'matrix' must have {PARAMETER_COUNT} rows")
    rows = []
    for i, row in enumerate(raw, start=1):
        if not isinstance(row, list) or len(row) != PARAMETER_COUNT:
            raise KnowledgeFileError(f"{MATRIX_FILE}: row {i} must have {PARAMETER_COUNT} cells")
        cells = []
        for j, cell in enumerate(row, start=1):
            numbers = tuple(int(n) for n in cell or ())
            if (i == j) != (cell is None) or not all(1 <= n <= PRINCIPLE_COUNT for n in numbers):
                raise KnowledgeFileError(f"{MATRIX_FILE}: cell ({i},{j}) is malformed: {cell!r}")
            cells.append(numbers)
        rows.append(tuple(cells))
    return ContradictionMatrix(tuple(rows))


def load_triz(directory: Path = KNOWLEDGE_DIR) -> TrizKnowledge:
    classic = _read(directory, MATRIX_FILE)
    try:
        parameters = _by_number(classic["parameters"], "id", PARAMETER_COUNT, MATRIX_FILE)
        principles = _by_number(classic["principles"], "id", PRINCIPLE_COUNT, MATRIX_FILE)
        parameter_cues = _by_number(
            _read(directory, PARAMETER_CUES_FILE), "number", PARAMETER_COUNT, PARAMETER_CUES_FILE
        )
        principle_cues = _by_number(
            _read(directory, PRINCIPLE_CUES_FILE), "number", PRINCIPLE_COUNT, PRINCIPLE_CUES_FILE
        )
        return TrizKnowledge(
            parameters=tuple(
                TrizParameter(int(p["id"]), str(p["name"]), tuple(c["cue_terms"]))
                for p, c in zip(parameters, parameter_cues, strict=True)
            ),
            principles=tuple(
                TrizPrinciple(
                    number=int(p["id"]),
                    name=str(p["name"]),
                    description=str(c["description"]),
                    abstract_form=str(c["abstract_form"]),
                    sub_principles=tuple(str(s) for s in p["sub_principles_en"]),
                    cue_terms=tuple(c["cue_terms"]),
                )
                for p, c in zip(principles, principle_cues, strict=True)
            ),
            matrix=_matrix(classic["matrix"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, KnowledgeFileError):
            raise
        raise KnowledgeFileError(f"TRIZ files in {directory}: malformed ({error})") from error


def load_shipped_knowledge(directory: Path = KNOWLEDGE_DIR) -> ShippedKnowledge:
    return ShippedKnowledge(load_source_domains(directory), load_triz(directory))
