"""A reframing the person adds is typed from its wording, not always scope_change."""

from __future__ import annotations

import pytest

from forge.core.domain_types import ReframingType
from forge.core.frame.reframing_type import infer_reframing_type


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Treat the ER as a traffic-engineering problem: lanes, merges and signals.", ReframingType.DOMAIN_CHANGE),
        ("Think of it as an ant colony foraging for work.", ReframingType.DOMAIN_CHANGE),
        ("Who actually decides when a patient leaves the ER?", ReframingType.ENTITY_QUESTION),
        ("Maybe wait times are a symptom; the real problem is bed blocking upstream.", ReframingType.ENTITY_QUESTION),
        ("Minimise the variability of waits rather than the average.", ReframingType.VARIABLE_CHANGE),
        ("Measure door-to-doctor time per arrival instead of total stay.", ReframingType.VARIABLE_CHANGE),
        ("Only fix the night shift first, then widen to the whole hospital.", ReframingType.SCOPE_CHANGE),
        ("把急诊看作一个交通系统", ReframingType.DOMAIN_CHANGE),
        ("救急外来を空港の保安検査として考える", ReframingType.DOMAIN_CHANGE),
        ("Shorter waits for everyone", ReframingType.SCOPE_CHANGE),
    ],
)
def test_the_reframing_type_is_inferred_from_its_wording(text: str, expected: ReframingType) -> None:
    assert infer_reframing_type(text) is expected
