"""The red team asks about several targets per call (as few calls as there can be, of even sizes), reads
each target's challenges by its id, asks a target a valid answer left out once more alone, and never
guesses for a target whose call failed; a target's fingerprint is its own question, whichever targets
it was asked with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from forge.core.llm.messages import Usage
from forge.engine.saga.red_team import (
    RED_TEAM_BATCH,
    ChallengeKind,
    ChallengeOut,
    RedTeamBatch,
    RedTeamOutput,
    RedTeamTarget,
    TargetChallengesOut,
    request_fingerprint,
    run_red_team,
)
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult


def target(n: int, units: int = 1) -> RedTeamTarget:
    return RedTeamTarget(
        f"h-{n}", f"Idea {n} cuts waits", f"Mechanism {n}", "minutes per patient", ("a surge",), (), (), units
    )


class ScriptedRedTeam:
    """Answers every target of a batch (in reverse order), failing every challenge for `failing` ids;
    leaves out the ids `omit(batch)` names (answering about h-99 instead when none is left); a batch
    `fails(batch)` is a failed call."""

    label = "scripted:red-team"

    def __init__(
        self,
        failing: set[str] = frozenset(),  # type: ignore[assignment]
        omit: Callable[[RedTeamBatch], set[str]] = lambda batch: set(),
        fails: Callable[[RedTeamBatch], bool] = lambda batch: False,
    ) -> None:
        self.failing, self.omit, self.fails = failing, omit, fails
        self.batches: list[list[str]] = []

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        batch = request.offline_context
        assert isinstance(batch, RedTeamBatch)
        self.batches.append([t.id for t in batch.targets])
        if self.fails(batch):
            return StructuredFailure("invalid after 3 attempts", Usage(5, 1), 3)
        left_out = self.omit(batch)
        answers = [self._answer(t) for t in reversed(batch.targets) if t.id not in left_out]
        answers = answers or [self._answer(target(99))]  # valid, about a target not asked: ignored
        return StructuredResult(RedTeamOutput(targets=answers), Usage(10, 5), 1)

    def _answer(self, t: RedTeamTarget) -> TargetChallengesOut:
        verdict = "fails" if t.id in self.failing else "survives"
        challenges = [ChallengeOut(kind=k, argument=f"scripted {k.value}", verdict=verdict) for k in t.challenges]
        return TargetChallengesOut(target_id=t.id, challenges=challenges)


async def test_targets_are_asked_several_per_call_in_groups_of_even_size_and_read_by_id() -> None:
    model = ScriptedRedTeam(failing={"h-2", "h-5"})
    run = await run_red_team(model, [target(n) for n in range(1, 6)])
    assert RED_TEAM_BATCH == 4
    assert model.batches == [["h-1", "h-2", "h-3"], ["h-4", "h-5"]]  # not 4 + 1
    assert run.calls == 2 and run.failed == 0 and run.usage == Usage(20, 10)
    assert run.answered == ("h-1", "h-2", "h-3", "h-4", "h-5")
    assert [f.hypothesis_ids for f in run.findings] == [("h-2",), ("h-5",)]  # answers came back reversed
    assert run.non_operational == ("h-2", "h-5") and run.units == 5


async def test_one_request_lists_each_target_with_its_own_challenges() -> None:
    model = ScriptedRedTeam()
    requests: list[StructuredRequest[Any]] = []
    generate = model.generate

    async def keep(request: StructuredRequest[Any]) -> Any:
        requests.append(request)
        return await generate(request)

    model.generate = keep  # type: ignore[method-assign]
    await run_red_team(model, [target(1, units=1), target(2, units=3)])
    (request,) = requests
    assert request.name == "record_red_team_challenges" and "(ids: h-1, h-2)" in request.input
    first, second = request.input.split("## Target ")[1:]
    assert first.startswith("h-1") and "Challenges to answer: counterexample, operationalizability\n" in first + "\n"
    assert "causal_reversal" in second and "causal_reversal" not in first
    assert request.max_tokens == (100 + 600 * 2) + (100 + 600 * 4)


async def test_a_target_left_out_is_asked_once_more_alone_and_unanswered_is_failed_not_guessed() -> None:
    once = ScriptedRedTeam(failing={"h-2"}, omit=lambda b: {"h-2"} if len(b.targets) > 1 else set())
    run = await run_red_team(once, [target(1), target(2), target(3)])
    assert once.batches == [["h-1", "h-2", "h-3"], ["h-2"]]
    assert run.answered == ("h-1", "h-2", "h-3") and [f.hypothesis_ids for f in run.findings] == [("h-2",)]
    never = ScriptedRedTeam(failing={"h-2"}, omit=lambda b: {"h-2"})
    run = await run_red_team(never, [target(1), target(2), target(3)])
    assert never.batches == [["h-1", "h-2", "h-3"], ["h-2"]] and run.calls == 2
    assert run.answered == ("h-1", "h-3") and run.failed == 1 and run.findings == ()


async def test_a_failed_call_leaves_its_targets_unanswered_and_is_not_repaired_target_by_target() -> None:
    model = ScriptedRedTeam(fails=lambda b: "h-1" in [t.id for t in b.targets])
    run = await run_red_team(model, [target(n) for n in range(1, 6)])
    assert model.batches == [["h-1", "h-2", "h-3"], ["h-4", "h-5"]]
    assert run.answered == ("h-4", "h-5") and run.failed == 3 and run.usage == Usage(15, 6)


def test_a_targets_fingerprint_is_its_own_question_whatever_it_was_asked_with() -> None:
    fingerprint = request_fingerprint(target(1))
    assert fingerprint == request_fingerprint(target(1)) != request_fingerprint(target(2))
    assert request_fingerprint(replace(target(1), units=3)) != fingerprint  # asked deeper: a new question
    assert request_fingerprint(replace(target(1), observable="beds per hour")) != fingerprint
    assert ChallengeKind.CAUSAL_REVERSAL in replace(target(1), units=3).challenges
