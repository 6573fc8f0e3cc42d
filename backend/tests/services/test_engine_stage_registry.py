"""The engine's stages are one ordered list, `ENGINE_STAGES`: one entry per stage name, each opening
its phases, and the runner offers the first stage of the current phase that is due — the list's
order decides which runs first where two stages open the same phase."""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.domain_types import Phase, SessionId
from forge.core.hypotheses.pool import Hypothesis
from forge.core.session.forge_state import ForgeState
from forge.offline.offline_model import OfflineModel
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.services.stages.engine_stages import ENGINE_STAGES, EngineStages, StageName

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def no_pool(session_id: SessionId) -> Sequence[Hypothesis]:
    return ()


def test_every_stage_name_has_exactly_one_entry_in_run_order() -> None:
    assert [stage.name for stage in ENGINE_STAGES] == list(StageName)
    assert all(stage.opens for stage in ENGINE_STAGES)


def test_a_phase_opened_by_two_stages_runs_them_in_the_lists_order() -> None:
    opening = {phase: [s.name for s in ENGINE_STAGES if phase in s.opens] for phase in Phase}
    assert opening == {
        Phase.DECOMPOSE: [StageName.FRAME],
        Phase.EXPLORE: [StageName.BISO, StageName.SUGGESTED_DOMAINS],
        Phase.SYNTHESIZE: [StageName.SUGGESTED_DOMAINS, StageName.SEARCH],
        Phase.VALIDATE: [StageName.VERIFY],
        Phase.BUILD: [],
        Phase.CRYSTALLIZE: [StageName.SOLVE],
    }


def test_the_runner_offers_the_first_due_stage_of_the_current_phase() -> None:
    stages = EngineStages(OfflineStructuredModel({}), OfflineModel(), (), read_pool=no_pool)
    due = {phase: stages.pending_stage(ForgeState(problem=PROBLEM, current_phase=phase)) for phase in Phase}
    assert due == {
        Phase.DECOMPOSE: "frame",
        Phase.EXPLORE: "biso",
        Phase.SYNTHESIZE: "search",
        Phase.VALIDATE: None,  # no verifier's model: VERIFY is not due
        Phase.BUILD: None,
        Phase.CRYSTALLIZE: "solve",
    }
    suggested = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE, suggested_domains=["beekeeping"])
    assert stages.pending_stage(suggested) == "suggested_domains"  # before SEARCH, as listed
