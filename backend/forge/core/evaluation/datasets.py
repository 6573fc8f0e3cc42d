"""The suites' data files, read from their text exactly in the published formats (the copies in
`shared/data/`): MacGyver JSONL, the MOOSE-Chem benchmark JSON (a list of papers), SCAN JSONL.

Invariants:
    - Pure: text in, items or a `DataProblem` (what to fix, with the line) out; nothing raises for bad data.
    - SCAN rows are grouped by their (target domain, source domain) pair, in the file's order.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from forge.core.evaluation.records import EvalItem, MacGyverItem, MooseChemItem, ScanItem, ScanPair, Suite


@dataclass(frozen=True, slots=True)
class DataProblem:
    message: str


def _jsonl(text: str) -> list[dict[str, Any]] | DataProblem:
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            return DataProblem(f"line {n} is not JSON ({error.msg}): each line must be one JSON object")
        if not isinstance(row, dict):
            return DataProblem(f"line {n} is not a JSON object")
        rows.append(row)
    return rows


def _macgyver(rows: list[dict[str, Any]]) -> list[EvalItem]:
    return [MacGyverItem(str(r["id"]), str(r["problem"]), bool(r["solvable"]), str(r["solution"] or "")) for r in rows]


def _moose_chem(rows: list[dict[str, Any]]) -> list[EvalItem]:
    return [
        MooseChemItem(
            str(r["id"]),
            str(r.get("title") or ""),
            str(r.get("background_question_strict") or r["background_question"]),
            str(r.get("background_survey_strict") or r.get("background_survey") or ""),
            str(r["ground_truth_hypothesis"]),
            str(r.get("note") or ""),
        )
        for r in rows
    ]


def _scan(rows: list[dict[str, Any]]) -> list[EvalItem]:
    groups: dict[tuple[str, str], list[ScanPair]] = {}
    for r in rows:
        pair = ScanPair(
            str(r["target_word"]), str(r["source_word"]), tuple(str(a) for a in r.get("alternatives") or ())
        )
        groups.setdefault((str(r["target_domain"]), str(r["source_domain"])), []).append(pair)
    return [ScanItem(f"{t} -> {s}", t, s, tuple(pairs)) for (t, s), pairs in groups.items()]


_READERS: dict[Suite, Callable[[list[dict[str, Any]]], list[EvalItem]]] = {
    Suite.MACGYVER: _macgyver,
    Suite.MOOSE_CHEM: _moose_chem,
    Suite.SCAN: _scan,
}
_EXPECTED = {
    Suite.MACGYVER: "MacGyver JSONL (id, problem, solvable, solution per line)",
    Suite.MOOSE_CHEM: "the MOOSE-Chem benchmark JSON (a list of papers with background_question, ground_truth_hypothesis)",
    Suite.SCAN: "SCAN JSONL (target_domain, source_domain, target_word, source_word, alternatives per line)",
}


def read_items(suite: Suite, text: str) -> list[EvalItem] | DataProblem:
    """The items of `suite`'s data file, or what is wrong with it."""
    if suite == Suite.MOOSE_CHEM:
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as error:
            return DataProblem(f"not JSON ({error.msg}): --data must be {_EXPECTED[suite]}")
        rows: list[dict[str, Any]] | DataProblem = (
            loaded if isinstance(loaded, list) else DataProblem(f"--data must be {_EXPECTED[suite]}")
        )
    else:
        rows = _jsonl(text)
    if isinstance(rows, DataProblem):
        return rows
    try:
        items = _READERS[suite](rows)
    except (KeyError, TypeError) as error:
        return DataProblem(f"a row lacks {error}: --data must be {_EXPECTED[suite]}")
    return items or DataProblem(f"no items: --data must be {_EXPECTED[suite]}")
