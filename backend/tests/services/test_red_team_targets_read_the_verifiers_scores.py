"""The red team's CP-5 targets are the top of the pool by the verifier's scores where it scored: the
hypotheses the verifier rated highest are challenged, whatever the word rules say; without the
verifier's scores the word rules' top is chosen."""

from __future__ import annotations

from support.scripted_search import FRAME, parent

from forge.core.frame.audit_constraints import ConstraintAudit
from forge.core.frame.problem_frame import AuditedFrame
from forge.core.hypotheses.judged_scores import JudgedScores, ScoreSource
from forge.core.hypotheses.scores import score_hypothesis
from forge.core.saga.records import Checkpoint
from forge.core.saga.state import SupervisionState
from forge.core.selection.composite_score import ScoreVector, composite_score
from forge.core.session.forge_state import ForgeState
from forge.services.stages.red_team_targets import choose_targets

POOL = [parent(f"h{n}", "queue buffer", f"waits per hour {n}" + " rise" * n) for n in range(6)]


def _state() -> ForgeState:
    return ForgeState(problem="Cut emergency waits", problem_frame=AuditedFrame(FRAME, ConstraintAudit((), ())))


def test_the_verifiers_top_hypotheses_are_the_red_teams_targets() -> None:
    by_rules = sorted(POOL, key=lambda h: -composite_score(score_hypothesis(h, FRAME)))
    favoured = by_rules[-2:]  # the word rules' two last
    state = _state()
    state.hypothesis_scores = {
        h.id: JudgedScores(
            ScoreSource.VERIFIER, "verifier", ScoreVector(*([9.0] * 5)) if h in favoured else ScoreVector(*([2.0] * 5))
        )
        for h in POOL
    }
    chosen = choose_targets(state, Checkpoint.CP5, SupervisionState(), POOL, (), 2)
    assert {t.id for t in chosen} == {h.id for h in favoured}
    rules_only = choose_targets(_state(), Checkpoint.CP5, SupervisionState(), POOL, (), 2)
    assert {t.id for t in rules_only} != {h.id for h in favoured}
