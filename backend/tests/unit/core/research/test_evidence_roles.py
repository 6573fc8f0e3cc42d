"""A cited source is 'supporting' only when it is on the problem's topic; otherwise contextual."""

from __future__ import annotations

from forge.core.domain_types import EvidenceType
from forge.core.research.evidence_roles import role_on_topic

BAKERY = "How can a small bakery reduce end-of-day bread waste?"
THERMODYNAMICS = (
    "The laws of thermodynamics and entropy: Processes carried out slowly, close to equilibrium, waste less, "
    "which is one reason efficiency and speed often pull against each other."
)
BAKERY_STUDY = "Day-old bread: bakeries that bake to a forecast of end-of-day demand cut bread waste by a third."


def test_an_off_topic_source_cited_as_supporting_is_recorded_as_contextual() -> None:
    assert role_on_topic(EvidenceType.SUPPORTING, THERMODYNAMICS, BAKERY) is EvidenceType.CONTEXTUAL


def test_an_on_topic_source_stays_supporting() -> None:
    assert role_on_topic(EvidenceType.SUPPORTING, BAKERY_STUDY, BAKERY) is EvidenceType.SUPPORTING


def test_contradicting_and_contextual_roles_are_kept_as_cited() -> None:
    assert role_on_topic(EvidenceType.CONTRADICTING, THERMODYNAMICS, BAKERY) is EvidenceType.CONTRADICTING
    assert role_on_topic(EvidenceType.CONTEXTUAL, BAKERY_STUDY, BAKERY) is EvidenceType.CONTEXTUAL
