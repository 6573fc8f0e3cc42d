"""The ranking's candidates (what VERIFY checks before Solve): gate-passed hypotheses first, then the
composite score, at most five; a hypothesis ranks only when VERIFY passed it."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from forge.core.answer.ranking import RANKING_SIZE, rank_verified, ranking_candidates
from forge.core.domain_types import ClaimId
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId, gate_summary
from forge.core.verify.claim_verification import VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, VerifySample

FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits")


def hypothesis(n: int, passed: bool = False) -> Hypothesis:
    h = _hypothesis(n)
    return replace(h, gate=GateSummary(GateStatus.PASSED, (), 6, 7.0)) if passed else h


def _hypothesis(n: int, rows: int = 6) -> Hypothesis:
    observable = "door-to-doctor minutes per patient each evening"
    table = MappingTable(
        tuple(
            MappingRow(f"s{i}", "drives", f"t{i}", "drives", MappingType.RELATION, "g", observable) for i in range(rows)
        )
    )
    return Hypothesis(
        HypothesisId(f"h{n}"), "queueing", "Queueing", "s", f"H{n}", f"Statement {n} about emergency waits",
        "m", table, observable, ("breaks in a surge",), gate_summary(table, observable),
    )  # fmt: skip


def test_gate_passed_hypotheses_come_first_and_at_most_five_are_candidates() -> None:
    pool = [hypothesis(n, passed=n in (6, 7)) for n in range(8)]
    candidates = ranking_candidates(pool, FRAME)
    assert len(candidates) == RANKING_SIZE
    statuses = [h.gate.status for h in candidates]
    assert statuses[:2] == [GateStatus.PASSED] * 2 and GateStatus.PASSED not in statuses[2:]
    assert {h.id for h in candidates[:2]} == {"h6", "h7"}


def test_a_hypothesis_ranks_only_when_verify_passed_it() -> None:
    pool = [hypothesis(n) for n in range(3)]
    passed = VerifySample(LogicVerdict(8, 8, 8), 5.0)
    verdicts = {"h2": compose_verification(VerifyInputs(ClaimId(UUID(int=2)), "v", (passed,) * 3))}
    ranked, unranked = rank_verified(pool, FRAME, verdicts)
    assert [h.id for h in ranked] == ["h2"] and ranked[0].verify_status == "passed"
    assert {h.id: h.verify_status for h in unranked} == {"h0": "unverified", "h1": "unverified"}
