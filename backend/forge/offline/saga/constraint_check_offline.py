"""The offline constraint check (SAGA Layer 4): each pair judged by the labelled word rule of
`core/saga/constraint_rule.py`; every reason opens "Offline word rule:"."""

from __future__ import annotations

from typing import Any

from forge.core.saga.constraint_rule import judge_by_word_rule
from forge.engine.saga.constraint_check import (
    ConstraintCheckBatch,
    ConstraintCheckOutput,
    ConstraintJudgement,
    ConstraintVerdict,
)
from forge.offline.offline_structured_model import offline_context
from forge.ports import StructuredRequest


def offline_constraint_check(request: StructuredRequest[Any]) -> ConstraintCheckOutput:
    batch = offline_context(request, ConstraintCheckBatch)
    judgements = []
    for item in batch.items:
        for n, constraint in enumerate(batch.constraints, start=1):
            verdict = judge_by_word_rule(constraint, item.text)
            breaks = ConstraintVerdict.BREAKS if verdict.violates else ConstraintVerdict.KEEPS
            judgements.append(
                ConstraintJudgement(hypothesis_id=item.id, constraint=n, reason=verdict.reason, verdict=breaks)
            )
    return ConstraintCheckOutput(judgements=judgements)
