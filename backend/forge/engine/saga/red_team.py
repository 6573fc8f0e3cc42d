"""SAGA Layer 2 (seed 000 §5.3): the adversarial red team at checkpoints, over the top-N
hypotheses or claims, by the verifier's model family: counterexample, simplification, causal
reversal and operationalisability challenges.

Invariants:
    - One structured call per group of up to `RED_TEAM_BATCH` targets (as few groups as there can be,
      of even sizes), each target under its id, each answered on its own and read by target id
      (`item_answers.ask_items`): a target a valid answer left out is asked once more alone. A
      target's budget units (1..3, see `saga_budget`) decide how deep it is challenged: 1 →
      counterexample + operationalisability, 2 → + simplification, 3 → all four plus any challenges
      the supervisor injected. A target costs its units, whichever call asks it.
    - A target's fingerprint (`request_fingerprint`) hashes the instructions and that target's own
      block of the request, so it does not depend on the targets it was asked with.
    - A target fails the red team when any challenge's verdict is `fails`; each failing target is
      one RED_TEAM_CHALLENGE finding naming it, with the arguments and the first suggested
      constraint. A failed operationalisability challenge is also a C-K `non_operationalizable`
      trigger (`non_operational`).
    - A target in a failed call (outage, invalid output), or still unanswered after its repair, is
      counted in `failed` and left out of `answered`, never guessed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from pydantic import BaseModel, Field

from forge.core.domain_types import EngineStage
from forge.core.llm.messages import Usage
from forge.core.saga.records import Finding, FindingKind, Severity
from forge.engine.item_answers import ItemAnswers, ItemCall, ask_items, even_groups
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink
from forge.ports import StructuredModel, StructuredRequest

STAGE = EngineStage.RED_TEAM
RED_TEAM_BATCH = 4  # targets per call


class ChallengeKind(str, Enum):
    COUNTEREXAMPLE = "counterexample"
    OPERATIONALIZABILITY = "operationalizability"
    SIMPLIFICATION = "simplification"
    CAUSAL_REVERSAL = "causal_reversal"
    INJECTED = "injected"


DEPTH: dict[int, tuple[ChallengeKind, ...]] = {
    1: (ChallengeKind.COUNTEREXAMPLE, ChallengeKind.OPERATIONALIZABILITY),
    2: (ChallengeKind.COUNTEREXAMPLE, ChallengeKind.OPERATIONALIZABILITY, ChallengeKind.SIMPLIFICATION),
    3: (
        ChallengeKind.COUNTEREXAMPLE,
        ChallengeKind.OPERATIONALIZABILITY,
        ChallengeKind.SIMPLIFICATION,
        ChallengeKind.CAUSAL_REVERSAL,
    ),
}

RED_TEAM_INSTRUCTIONS = """You are a red team. Attack each target idea on its own, never comparing targets; do not
improve it. Give exactly one entry per target, with its id as given, and in it one answer per challenge listed
for that target:
- counterexample: a concrete situation on this target where the idea's claim is false.
- simplification: does a much simpler explanation or intervention account for the same effect?
- causal_reversal: could the effect be causing the supposed cause (or a third factor cause both)?
- operationalizability: can the idea be turned into a measurable test with the stated observable?
- injected: answer the supervisor's question as asked.
Write the argument first, then the verdict it leads to. verdict: "fails" only when your argument defeats the idea as stated, "survives" when the idea holds
against it, "unclear" otherwise. Give a suggested_constraint when a failure could be prevented by a
rule for every recommendation. Write in the language of the target."""


class ChallengeOut(BaseModel):
    """One challenge's answer: the argument first, the verdict it leads to after it."""

    kind: ChallengeKind = Field(description="Which challenge this answers.")
    argument: str = Field(min_length=3, description="First: the argument, concrete, one to three sentences.")
    verdict: str = Field(pattern="^(fails|survives|unclear)$", description="fails, survives or unclear.")
    suggested_constraint: str = Field(default="", description="A rule that would prevent the failure, or empty.")


class TargetChallengesOut(BaseModel):
    """One target's answers, under its id."""

    target_id: str = Field(description="The id of the target challenged, exactly as given.")
    challenges: list[ChallengeOut] = Field(min_length=1, description="One answer per challenge listed for it.")


class RedTeamOutput(BaseModel):
    targets: list[TargetChallengesOut] = Field(min_length=1, description="One entry per target in the request.")


@dataclass(frozen=True, slots=True)
class RedTeamTarget:
    """What the red team reads about a target (a hypothesis or a claim)."""

    id: str
    statement: str
    mechanism: str
    observable: str
    failure_modes: tuple[str, ...]
    evidence: tuple[str, ...]
    hard_constraints: tuple[str, ...]
    units: int  # 1..3
    injected: tuple[str, ...] = ()

    @property
    def challenges(self) -> tuple[ChallengeKind, ...]:
        asked = DEPTH[max(1, min(3, self.units))]
        return (*asked, ChallengeKind.INJECTED) if self.injected and self.units >= 3 else asked


@dataclass(frozen=True, slots=True)
class RedTeamRun:
    findings: tuple[Finding, ...]
    non_operational: tuple[str, ...]  # targets that failed operationalisability
    units: int
    failed: int
    usage: Usage
    answered: tuple[str, ...] = ()  # the targets with a valid answer
    calls: int = 0


@dataclass(frozen=True, slots=True)
class RedTeamBatch:
    """The typed inputs of one request, for deterministic (offline) red teams."""

    targets: tuple[RedTeamTarget, ...]


def _target_block(target: RedTeamTarget) -> str:
    lines = [
        f"## Target {target.id}",
        f"Statement: {target.statement}",
        f"Mechanism: {target.mechanism}",
        f"Observable: {target.observable}",
        *(f"Known failure mode: {f}" for f in target.failure_modes),
        *(f"Evidence: {e}" for e in target.evidence),
        *(f"Hard constraint: {c}" for c in target.hard_constraints),
        *(f"Supervisor question: {q}" for q in target.injected if ChallengeKind.INJECTED in target.challenges),
        f"Challenges to answer: {', '.join(c.value for c in target.challenges)}",
    ]
    return "\n".join(lines)


def red_team_request(targets: Sequence[RedTeamTarget]) -> StructuredRequest[RedTeamOutput]:
    ids = ", ".join(t.id for t in targets)
    return StructuredRequest(
        name="record_red_team_challenges",
        purpose=f"Record the red team's challenges to {ids}.",
        instructions=RED_TEAM_INSTRUCTIONS,
        input=f"Challenge these {len(targets)} targets (ids: {ids}).\n\n" + "\n\n".join(map(_target_block, targets)),
        output=RedTeamOutput,
        max_tokens=sum(100 + 600 * len(t.challenges) for t in targets),  # one target: its challenges' 600 each
        offline_context=RedTeamBatch(tuple(targets)),
    )


def request_fingerprint(target: RedTeamTarget) -> str:
    """What the red team is asked about a target (the instructions and its block), hashed: equal
    fingerprints are identical questions, whichever targets they were asked with."""
    return hashlib.sha256(f"{RED_TEAM_INSTRUCTIONS}\n{_target_block(target)}".encode()).hexdigest()[:24]


async def run_red_team(
    model: StructuredModel,
    targets: Sequence[RedTeamTarget],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> RedTeamRun:
    by_id = {t.id: t for t in targets}

    def call(ids: tuple[str, ...]) -> ItemCall:
        return ItemCall(0, ids, red_team_request([by_id[i] for i in ids]))

    got: ItemAnswers[TargetChallengesOut] = await ask_items(
        model, [call(ids) for ids in even_groups(list(by_id), RED_TEAM_BATCH)], _read,
        lambda _, item: call((item,)), stage=STAGE, concurrency=concurrency, progress=progress,
    )  # fmt: skip
    findings: list[Finding] = []
    non_operational: list[str] = []
    answered = [t for t in targets if (0, t.id) in got.answers]
    for target in answered:
        asked = set(target.challenges)
        failing = [c for c in got.answers[(0, target.id)].challenges if c.verdict == "fails" and c.kind in asked]
        if any(c.kind is ChallengeKind.OPERATIONALIZABILITY for c in failing):
            non_operational.append(target.id)
        if failing:
            findings.append(_finding(target, failing))
    units = sum(max(1, min(3, t.units)) for t in targets)
    failed = len(targets) - len(answered)
    ids = tuple(t.id for t in answered)
    return RedTeamRun(tuple(findings), tuple(non_operational), units, failed, got.usage, ids, got.calls)


def _read(output: RedTeamOutput) -> list[tuple[str, TargetChallengesOut]]:
    return [(item.target_id, item) for item in output.targets]


def _finding(target: RedTeamTarget, failing: Sequence[ChallengeOut]) -> Finding:
    arguments = " ".join(f"{c.kind.value}: {c.argument}" for c in failing)
    suggested = next((c.suggested_constraint for c in failing if c.suggested_constraint), "")
    return Finding(
        FindingKind.RED_TEAM_CHALLENGE,
        float(len(failing)),
        1.0,
        (target.id,),
        f"{target.id} fails {len(failing)} red-team challenge(s). {arguments}",
        severity=Severity.WARNING,
        dimensions=tuple(c.kind.value for c in failing),
        suggested_constraint=suggested,
    )
