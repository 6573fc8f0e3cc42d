"""Number agreement of the offline model's noun phrases."""

from __future__ import annotations

import pytest

from forge.offline.text.phrasing import is_plural


@pytest.mark.parametrize(
    ("phrase", "plural"),
    [
        ("emergency wait times", True),
        ("churn of open-source contributors", False),
        ("customers who finish checkout", True),
        ("the patient who misses follow-ups", False),
        ("status", False),
        ("logistics", False),
    ],
)
def test_the_head_noun_decides_the_number(phrase: str, plural: bool) -> None:
    assert is_plural(phrase) is plural
