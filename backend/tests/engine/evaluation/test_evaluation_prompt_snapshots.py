"""What `forge eval` sends the models, compared with a snapshot: the direct arm's prompt per suite,
SCAN's concept mapping, and the judge's requests (MacGyver grade, MOOSE-Chem Matched Score, pairwise).
After an intended change: `make prompt-snapshots` (FORGE_UPDATE_PROMPT_SNAPSHOTS=1), then read the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from forge.core.evaluation.records import MacGyverItem, MooseChemItem, ScanItem, ScanPair
from forge.engine.evaluation.answer_requests import concept_mapping_request, direct_request
from forge.engine.evaluation.judge_requests import macgyver_grade_request, matched_score_request, pairwise_request
from forge.ports import StructuredRequest

SNAPSHOT = Path(__file__).parent / "prompt_snapshots" / "evaluation.md"
UPDATE = os.environ.get("FORGE_UPDATE_PROMPT_SNAPSHOTS") == "1"

SOLVABLE = MacGyverItem(
    "1", "Reach a key under the sofa. Tools available: a spoon, a string.", True, "Step1: tie<br>Step2: pull"
)
UNSOLVABLE = MacGyverItem("2", "Boil water. Tools available: a paper cup, ice.", False, "")
PAPER = MooseChemItem(
    "0",
    "T",
    "How can a gel be tough and conductive?",
    "Gels trade toughness for conductivity.",
    "Add salt X.",
    "insp1: salting out",
)
SCAN = ScanItem(
    "atom -> solar system", "atom", "solar system", (ScanPair("nucleus", "sun", ()), ScanPair("electron", "planet", ()))
)


def _render(request: StructuredRequest[Any]) -> str:
    schema = json.dumps(request.output.model_json_schema(), ensure_ascii=False, indent=1)
    return (
        f"# {request.name} ({request.output.__name__})\n\n{request.purpose}\n\n## instructions\n\n{request.instructions}\n\n"
        f"## input\n\n{request.input}\n\n## output schema\n\n```json\n{schema}\n```\n"
    )


def _requests() -> list[StructuredRequest[Any]]:
    return [
        direct_request(SOLVABLE),
        direct_request(PAPER),
        direct_request(SCAN),
        concept_mapping_request(SCAN),
        macgyver_grade_request(SOLVABLE, "Tie the string to the spoon."),
        macgyver_grade_request(UNSOLVABLE, "It cannot be done: nothing gives heat."),
        matched_score_request(PAPER, "Add salt Y."),
        pairwise_request(SOLVABLE, "Answer one.", "Answer two.", "macgyver"),
        pairwise_request(PAPER, "Hypothesis one.", "Hypothesis two.", "moose-chem"),
    ]


def test_the_evaluation_requests_match_the_snapshot() -> None:
    text = "\n".join(_render(r) for r in _requests())
    if UPDATE:
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert SNAPSHOT.read_text(encoding="utf-8") == text, (
        "the evaluation's prompts changed: review, then `make prompt-snapshots`"
    )
