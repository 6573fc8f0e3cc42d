"""The engine requests whose texts a person reads carry the language rule, for a Chinese and a Japanese
session alike: VERIFY's scoring and prior-art judgement, the mapping review, the compliance audit and the
suggested-domain describer (the frame, BISO, the red team and Solve's other calls carry their own)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from forge.core.answer.pack import TalkerAnswer
from forge.core.domain_types import ClaimId, ClaimType, Phase
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.session.records import Claim
from forge.core.solve.constraints import ConstraintOrigin, ConstraintPriority, ConstraintSpec, ConstraintType
from forge.engine.explore.review_mapping_depth import review_request
from forge.engine.explore.suggested_domains import describe_request
from forge.engine.language_rule import language_rule
from forge.engine.solve.requests import compliance_request
from forge.engine.verify.requests import (
    PriorArtBatch,
    PriorArtContext,
    SampleBatch,
    claim_material,
    prior_art_request,
    sample_request,
)
from forge.ports import StructuredRequest

SESSIONS = {
    "zh": ("如何在不增加人手的情况下缩短急诊等待时间？", "按到达率调整分诊排班可将等待时间缩短15%。", "不增加人手"),
    "ja": (
        "人員を増やさずに救急外来の待ち時間を短縮するには？",
        "到着率に合わせてトリアージを調整すると待ち時間が15%短くなる。",
        "人員を増やさない",
    ),
}


def requests(problem: str, claim_text: str, constraint: str) -> list[StructuredRequest[Any]]:
    claim = Claim(ClaimId(UUID(int=1)), claim_text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)
    frame = ProblemFrame(problem, "急诊", "等待时间", hard_constraints=(constraint,))
    hard = (ConstraintSpec(constraint, ConstraintPriority.CRITICAL, ConstraintType.HARD, ConstraintOrigin.USER, 1.0),)
    return [
        sample_request(SampleBatch(problem, (claim_material(0, claim),), 0, False)),
        prior_art_request(PriorArtBatch((PriorArtContext("claim-1", claim, ()),))),
        review_request(problem, frame, ()),
        describe_request("蚁群觅食", problem, frame),
        compliance_request(hard, TalkerAnswer(claim_text, claim_text)),
    ]


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_every_request_a_person_reads_the_output_of_carries_the_language_rule(language: str) -> None:
    problem, claim_text, constraint = SESSIONS[language]
    asked = requests(problem, claim_text, constraint)
    assert [r.name for r in asked] == [
        "verify_claims", "judge_prior_art", "record_mapping_reviews", "record_source_domain", "record_compliance_audit",
    ]  # fmt: skip
    for request in asked:
        assert "\nLanguage: write every free text a person reads" in request.instructions, request.name
        assert "even when it is not English" in request.instructions
    # each names material of the request in the session's language
    assert asked[0].instructions.endswith(language_rule("the problem")) and problem in asked[0].input
    assert asked[1].instructions.endswith(language_rule("the claims")) and claim_text in asked[1].input
    assert constraint in asked[4].input and claim_text in asked[4].input
