"""SAGA Layer 2 (seed 000 §5.3): the adversarial red team at checkpoints, over the top-N
hypotheses or claims, by the verifier's model family: counterexample, simplification, causal
reversal and operationalisability challenges.

Invariants:
    - One structured call per target; the target's budget units (1..3, see `saga_budget`) decide
      how deep it is challenged: 1 → counterexample + operationalisability, 2 → + simplification,
      3 → all four plus any challenges the supervisor injected. A call costs its units.
    - A target fails the red team when any challenge's verdict is `fails`; each failing target is
      one RED_TEAM_CHALLENGE finding naming it, with the arguments and the first suggested
      constraint. A failed operationalisability challenge is also a C-K `non_operationalizable`
      trigger (`non_operational`).
    - A call that fails (outage, invalid output) is reported in `failed`, never guessed.
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
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

STAGE = EngineStage.RED_TEAM


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

RED_TEAM_INSTRUCTIONS = """You are a red team. Attack the target idea; do not improve it. For each challenge asked:
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


class RedTeamOutput(BaseModel):
    challenges: list[ChallengeOut] = Field(min_length=1, description="One answer per challenge asked.")


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
    answered: tuple[str, ...] = ()  # the targets whose call gave a valid answer


def red_team_request(target: RedTeamTarget) -> StructuredRequest[RedTeamOutput]:
    lines = [
        f"Target {target.id}: {target.statement}",
        f"Mechanism: {target.mechanism}",
        f"Observable: {target.observable}",
        *(f"Known failure mode: {f}" for f in target.failure_modes),
        *(f"Evidence: {e}" for e in target.evidence),
        *(f"Hard constraint: {c}" for c in target.hard_constraints),
        *(f"Supervisor question: {q}" for q in target.injected if ChallengeKind.INJECTED in target.challenges),
        f"Challenges to answer: {', '.join(c.value for c in target.challenges)}",
    ]
    return StructuredRequest(
        name="record_red_team_challenges",
        purpose=f"Record the red team's challenges to {target.id}.",
        instructions=RED_TEAM_INSTRUCTIONS,
        input="\n".join(lines),
        output=RedTeamOutput,
        max_tokens=600 * len(target.challenges),
        offline_context=target,
    )


def request_fingerprint(target: RedTeamTarget) -> str:
    """The red team's request about a target, hashed: equal fingerprints are identical requests."""
    request = red_team_request(target)
    return hashlib.sha256(f"{request.instructions}\n{request.input}".encode()).hexdigest()[:24]


async def run_red_team(
    model: StructuredModel,
    targets: Sequence[RedTeamTarget],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> RedTeamRun:
    requests = [red_team_request(t) for t in targets]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency, progress=progress)
    findings: list[Finding] = []
    non_operational: list[str] = []
    answered: list[str] = []
    for target, outcome in zip(targets, batch.outcomes, strict=True):
        if not isinstance(outcome, StructuredResult):
            continue
        answered.append(target.id)
        asked = set(target.challenges)
        failing = [c for c in outcome.value.challenges if c.verdict == "fails" and c.kind in asked]
        if any(c.kind is ChallengeKind.OPERATIONALIZABILITY for c in failing):
            non_operational.append(target.id)
        if failing:
            findings.append(_finding(target, failing))
    units = sum(max(1, min(3, t.units)) for t in targets)
    return RedTeamRun(tuple(findings), tuple(non_operational), units, len(batch.failures), batch.usage, tuple(answered))


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
