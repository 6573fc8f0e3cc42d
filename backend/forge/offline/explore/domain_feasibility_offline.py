"""The offline Stage B: every shortlisted domain "feasible" (mapping potential needs a model), so the
offline selection is exactly the ranker's; each reason says so."""

from __future__ import annotations

from typing import Any

from forge.engine.explore.judge_domain_feasibility import (
    DomainFeasibilityOutput,
    DomainJudgement,
    DomainVerdict,
    FeasibilityRequest,
)
from forge.offline.offline_structured_model import offline_context
from forge.ports import StructuredRequest

_REASON = "Offline: mapping potential is not judged without a model; kept."


def offline_domain_feasibility(request: StructuredRequest[Any]) -> DomainFeasibilityOutput:
    asked = offline_context(request, FeasibilityRequest)
    judged = [DomainJudgement(domain_id=d.id, reason=_REASON, verdict=DomainVerdict.FEASIBLE) for d in asked.shortlist]
    return DomainFeasibilityOutput(judgements=judged)
