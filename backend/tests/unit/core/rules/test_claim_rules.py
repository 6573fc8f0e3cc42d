"""Claim rules: 3, 5, 6, 7 (both halves), 8 and 9, plus claim-index validation."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID

from forge.core.domain_types import (
    ClaimId,
    ClaimStatus,
    ClaimType,
    Contributor,
    EvidenceId,
    EvidenceType,
    Phase,
)
from forge.core.rules.claim_rules import (
    check_antithesis_exists,
    check_claim_grounded,
    check_claim_index,
    check_claim_limit,
    check_cumulative,
    check_falsification_attempted,
    check_novelty_checked,
    check_sources_researched,
    researched_sources,
)
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, Evidence, ResearchHit, ResearchRecord

_NOW = datetime(2025, 1, 1, tzinfo=UTC)


def cid(n: int) -> ClaimId:
    return ClaimId(UUID(int=n))


def claim(n: int, **kw: object) -> Claim:
    return Claim(
        id=cid(n),
        text=f"claim {n}",
        claim_type=ClaimType.THESIS,
        round_created=0,
        phase_created=Phase.SYNTHESIZE,
        **kw,  # type: ignore[arg-type]
    )


def evidence(source: str) -> Evidence:
    return Evidence(EvidenceId(UUID(int=77)), source, "t", "s", EvidenceType.SUPPORTING, Contributor.AGENT, "q")


def research(*sources: str) -> ResearchRecord:
    hits = tuple(ResearchHit(s, "title", "snippet") for s in sources)
    return ResearchRecord("queue theory", hits, Phase.SYNTHESIZE, 0, _NOW, "fake")


def with_claims(count: int, **kw: object) -> ForgeState:
    s = ForgeState(current_round_claims=[claim(i + 1) for i in range(count)])
    for name, value in kw.items():
        setattr(s, name, value)
    return s


# ---- claim index -----------------------------------------------------------------------------


def test_claim_index_in_range_passes() -> None:
    s = with_claims(3)
    for index in range(3):
        assert check_claim_index(s, index) is None


def test_claim_index_out_of_range_is_claim_not_found_with_valid_range() -> None:
    violation = check_claim_index(with_claims(2), 2)
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_NOT_FOUND
    assert violation.rule_number is None
    assert "0..1" in violation.message


def test_negative_claim_index_is_refused() -> None:
    violation = check_claim_index(with_claims(2), -1)
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_NOT_FOUND


def test_claim_index_on_an_empty_round_says_to_state_a_thesis() -> None:
    violation = check_claim_index(ForgeState(), 0)
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_NOT_FOUND
    assert "state a thesis first" in violation.message


# ---- rule 8: claim limit ---------------------------------------------------------------------


def test_claim_limit_passes_below_three() -> None:
    assert check_claim_limit(with_claims(0)) is None
    assert check_claim_limit(with_claims(2)) is None


def test_claim_limit_fails_at_three() -> None:
    violation = check_claim_limit(with_claims(3))
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_LIMIT_EXCEEDED
    assert violation.rule_number == 8
    assert "3 claims" in violation.message


def test_claim_limit_resets_with_a_new_round() -> None:
    s = with_claims(3)
    s.reset_for_new_round()
    assert check_claim_limit(s) is None


# ---- rule 3: antithesis before synthesis -----------------------------------------------------


def test_rejects_synthesis_without_antithesis() -> None:
    violation = check_antithesis_exists(with_claims(1), 0)
    assert violation is not None
    assert violation.code == ErrorCode.ANTITHESIS_MISSING
    assert violation.rule_number == 3
    assert "Claim 0" in violation.message
    assert "find_antithesis" in violation.message


def test_synthesis_allowed_after_antithesis_for_that_index() -> None:
    assert check_antithesis_exists(with_claims(2, antitheses_searched={1}), 1) is None


def test_antithesis_for_another_index_does_not_count() -> None:
    violation = check_antithesis_exists(with_claims(2, antitheses_searched={0}), 1)
    assert violation is not None
    assert violation.code == ErrorCode.ANTITHESIS_MISSING
    assert "Claim 1" in violation.message


# ---- rule 5: falsification before scoring ----------------------------------------------------


def test_rejects_scoring_without_falsification() -> None:
    violation = check_falsification_attempted(with_claims(1), 0)
    assert violation is not None
    assert violation.code == ErrorCode.FALSIFICATION_MISSING
    assert violation.rule_number == 5
    assert "Claim 0" in violation.message
    assert "attempt_falsification" in violation.message


def test_scoring_allowed_after_falsification() -> None:
    assert check_falsification_attempted(with_claims(1, falsification_attempted={0}), 0) is None


def test_falsification_of_another_index_does_not_count() -> None:
    violation = check_falsification_attempted(with_claims(2, falsification_attempted={0}), 1)
    assert violation is not None
    assert violation.code == ErrorCode.FALSIFICATION_MISSING


def test_novelty_check_does_not_stand_in_for_falsification() -> None:
    s = with_claims(1, novelty_checked={0})
    violation = check_falsification_attempted(s, 0)
    assert violation is not None
    assert violation.code == ErrorCode.FALSIFICATION_MISSING


# ---- rule 6: novelty before scoring ----------------------------------------------------------


def test_rejects_scoring_without_novelty_check() -> None:
    violation = check_novelty_checked(with_claims(1), 0)
    assert violation is not None
    assert violation.code == ErrorCode.NOVELTY_UNCHECKED
    assert violation.rule_number == 6
    assert "Claim 0" in violation.message
    assert "check_novelty" in violation.message


def test_scoring_allowed_after_novelty_check() -> None:
    assert check_novelty_checked(with_claims(1, novelty_checked={0}), 0) is None


def test_falsification_does_not_stand_in_for_novelty() -> None:
    violation = check_novelty_checked(with_claims(1, falsification_attempted={0}), 0)
    assert violation is not None
    assert violation.code == ErrorCode.NOVELTY_UNCHECKED


# ---- rule 7: grounding -----------------------------------------------------------------------


def test_rejects_claim_without_evidence() -> None:
    violation = check_claim_grounded(claim(1))
    assert violation is not None
    assert violation.code == ErrorCode.UNGROUNDED_CLAIM
    assert violation.rule_number == 7
    assert "no external evidence" in violation.message


def test_claim_with_evidence_is_grounded() -> None:
    assert check_claim_grounded(claim(1, evidence=(evidence("https://a.example"),))) is None


def test_researched_sources_collects_every_hit_of_every_research_call() -> None:
    s = ForgeState(research_log=[research("https://a.example", "https://b.example"), research("https://c.example")])
    assert researched_sources(s) == frozenset({"https://a.example", "https://b.example", "https://c.example"})


def test_sources_returned_by_research_are_accepted() -> None:
    s = ForgeState(research_log=[research("https://a.example", "https://b.example")])
    assert check_sources_researched(s, ["https://a.example", "https://b.example"]) is None


def test_no_sources_cited_is_trivially_researched() -> None:
    assert check_sources_researched(ForgeState(), []) is None


def test_rejects_sources_no_research_returned_and_names_them() -> None:
    s = ForgeState(research_log=[research("https://a.example")])
    violation = check_sources_researched(s, ["https://a.example", "https://z.example", "https://m.example"])
    assert violation is not None
    assert violation.code == ErrorCode.UNGROUNDED_CLAIM
    assert violation.rule_number == 7
    assert "https://m.example, https://z.example" in violation.message
    assert violation.message.index("https://a.example") > violation.message.index(
        "research returned"
    )  # listed as known


def test_sources_researched_in_an_earlier_phase_still_count() -> None:
    s = ForgeState()
    s.record_research(research("https://a.example"))
    s.enter_phase(Phase.VALIDATE)
    s.reset_for_new_round()
    assert check_sources_researched(s, ["https://a.example"]) is None


def test_sources_of_research_run_this_same_turn_are_refused_until_the_next_turn() -> None:
    s = ForgeState(model_turn=3)
    s.record_research(replace(research("https://a.example/x"), turn=3))
    violation = check_sources_researched(s, ["https://a.example/x"])
    assert violation is not None and violation.code == ErrorCode.UNGROUNDED_CLAIM
    assert violation.message == (
        "These sources come from research run in this same turn, so you have not read them yet: "
        "https://a.example/x. Wait for the results, read them, then record in your next turn."
    )
    s.model_turn = 4
    assert check_sources_researched(s, ["https://a.example/x"]) is None


def test_any_source_is_ungrounded_before_any_research() -> None:
    violation = check_sources_researched(ForgeState(), ["https://a.example"])
    assert violation is not None
    assert violation.code == ErrorCode.UNGROUNDED_CLAIM


# ---- rule 9: cumulative rounds ---------------------------------------------------------------


def test_first_round_needs_no_builds_on() -> None:
    assert check_cumulative(ForgeState(current_round=0), []) is None


def test_rejects_round_two_claim_that_builds_on_nothing() -> None:
    s = ForgeState(current_round=1, past_round_claims=[claim(1)])
    violation = check_cumulative(s, [])
    assert violation is not None
    assert violation.code == ErrorCode.NOT_CUMULATIVE
    assert violation.rule_number == 9
    assert "builds_on_claim_id" in violation.message


def test_rejects_round_two_claim_building_on_an_unknown_claim() -> None:
    s = ForgeState(current_round=1, past_round_claims=[claim(1)])
    violation = check_cumulative(s, [cid(99)])
    assert violation is not None
    assert violation.code == ErrorCode.NOT_CUMULATIVE


def test_rejects_round_two_claim_building_only_on_a_current_round_claim() -> None:
    s = ForgeState(current_round=1, past_round_claims=[claim(1)], current_round_claims=[claim(2)])
    violation = check_cumulative(s, [cid(2)])
    assert violation is not None
    assert violation.code == ErrorCode.NOT_CUMULATIVE


def test_round_two_claim_building_on_a_past_round_claim_passes() -> None:
    s = ForgeState(current_round=1, past_round_claims=[claim(1)])
    assert check_cumulative(s, [cid(1)]) is None


def test_round_two_claim_building_on_a_rejected_earlier_claim_passes() -> None:
    s = ForgeState(current_round=1, past_round_claims=[claim(1, status=ClaimStatus.REJECTED)])
    assert check_cumulative(s, [cid(1)]) is None


def test_round_two_claim_building_on_a_graph_node_passes() -> None:
    s = ForgeState(current_round=1, knowledge_graph_nodes=[claim(5)])
    assert check_cumulative(s, [cid(5)]) is None


def test_round_two_passes_once_previous_claims_were_referenced() -> None:
    s = ForgeState(current_round=1, previous_claims_referenced=True)
    assert check_cumulative(s, []) is None


def test_one_earlier_reference_among_several_is_enough() -> None:
    s = ForgeState(current_round=2, past_round_claims=[claim(1)])
    assert check_cumulative(s, [cid(99), cid(1)]) is None


def test_an_unknown_source_error_lists_the_sources_research_returned() -> None:
    s = ForgeState(problem="p")
    s.record_research(
        ResearchRecord(
            "q",
            (ResearchHit("corpus://a", "A", "a"), ResearchHit("corpus://b", "B", "b")),
            Phase.DECOMPOSE,
            0,
            _NOW,
            "fake",
        )
    )
    violation = check_sources_researched(s, ["https://made.up"])
    assert violation is not None
    assert "https://made.up" in violation.message and "corpus://a, corpus://b" in violation.message


def test_an_ungrounded_claim_error_names_tools_validate_offers() -> None:
    violation = check_claim_grounded(Claim(ClaimId(UUID(int=1)), "c", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE))
    assert violation is not None
    assert "attempt_falsification" in violation.message and "state_thesis" not in violation.message
