"""Domain vocabulary: phase ordinals, status per phase and the review awaited after each phase."""

from __future__ import annotations

import pytest

from forge.core.domain_types import REVIEW_AFTER_PHASE, Phase, ReviewType, SessionStatus


def test_phases_are_numbered_one_to_six_in_pipeline_order() -> None:
    assert [p.ordinal for p in Phase] == [1, 2, 3, 4, 5, 6]
    assert Phase.DECOMPOSE.ordinal == 1
    assert Phase.CRYSTALLIZE.ordinal == 6


def test_from_ordinal_inverts_ordinal() -> None:
    for phase in Phase:
        assert Phase.from_ordinal(phase.ordinal) is phase


@pytest.mark.parametrize("ordinal", [0, -1, 7])
def test_from_ordinal_refuses_an_ordinal_outside_one_to_six(ordinal: int) -> None:
    with pytest.raises(ValueError, match=r"1\.\.6"):
        Phase.from_ordinal(ordinal)


def test_every_phase_has_a_session_status() -> None:
    assert SessionStatus.for_phase(Phase.DECOMPOSE) == SessionStatus.DECOMPOSING
    # CRYSTALLIZE without its document is still in progress (resumable); CRYSTALLIZED and CANCELLED
    # are decided by derive_session_position from the document and the cancelled flag.
    assert SessionStatus.for_phase(Phase.CRYSTALLIZE) == SessionStatus.CRYSTALLIZING
    finished = {SessionStatus.CRYSTALLIZED, SessionStatus.CANCELLED}
    assert {SessionStatus.for_phase(p) for p in Phase} == set(SessionStatus) - finished


def test_each_phase_but_crystallize_is_followed_by_its_own_review() -> None:
    assert set(REVIEW_AFTER_PHASE) == set(Phase) - {Phase.CRYSTALLIZE}
    assert sorted(REVIEW_AFTER_PHASE.values()) == sorted(ReviewType)
    assert REVIEW_AFTER_PHASE[Phase.SYNTHESIZE] == ReviewType.CLAIMS_REVIEW
    assert REVIEW_AFTER_PHASE[Phase.VALIDATE] == ReviewType.VERDICTS


def test_enum_values_are_their_wire_spelling() -> None:
    assert Phase("decompose") is Phase.DECOMPOSE
    assert ReviewType("build_decision") is ReviewType.BUILD_DECISION
