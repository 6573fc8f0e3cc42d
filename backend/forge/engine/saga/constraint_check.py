"""SAGA Layer 4 by a model (seed 000 §5.3): does a hypothesis break one of the person's hard
constraints? Judged for meaning by the red-team model (the verifier's family), several hypotheses
per call, a one-line reason before each verdict; the offline model answers with its labelled word
rule (`core/saga/constraint_rule.py`).

Invariants:
    - One structured call per `BATCH_SIZE` texts (fewer with many constraints: at most
      `PAIRS_PER_CALL` judgements per call), each judged against every hard constraint (one judgement
      per pair, the reason written before the verdict).
    - A judgement naming a text or constraint the call was not asked about is ignored; a pair the
      model left out is not a flag.
    - A batch already answered (same instructions, constraints and texts: `batch_fingerprint`) is
      never asked again when the caller passes the earlier answers (`answered`): CP-7 re-reading the
      claims CP-6 judged costs nothing.
    - Nothing is guessed: the texts of a call that failed, and a text the answer did not judge at
      all, come back in `unjudged`, and the caller judges them with the offline word rule and says so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from pydantic import BaseModel, Field

from forge.core.domain_types import EngineStage
from forge.core.llm.messages import Usage
from forge.core.saga.domain_profile import ConstraintFlag, ProfiledText
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

BATCH_SIZE = 20  # texts per call at most ...
PAIRS_PER_CALL = 60  # ... and (text, constraint) judgements per call at most: the answer fits max_tokens
STAGE = EngineStage.RED_TEAM  # SAGA's model calls; no progress is published for this check

CONSTRAINT_CHECK_INSTRUCTIONS = """You check hypotheses against the person's HARD CONSTRAINTS.
A hypothesis breaks a constraint only when doing what it proposes would do what the constraint forbids,
or go past its limit. "without more staff" is broken by "hire two nurses" or "add a second triage nurse";
it is NOT broken by "redesign the staff rotas", "change the incentives through the staff", or by any
hypothesis that merely mentions staff, keeps staff as they are, or says it needs no more of them.
Judge every hypothesis against every constraint: one judgement per pair. For each, first write the reason in
one short line, at most 20 words (what the hypothesis would actually do, and whether that is what the
constraint forbids), then the verdict: "breaks" or "keeps". Write the reason in the language of the hypothesis."""


class ConstraintVerdict(str, Enum):
    BREAKS = "breaks"
    KEEPS = "keeps"


class ConstraintJudgement(BaseModel):
    hypothesis_id: str = Field(description="The id in brackets of the hypothesis judged.")
    constraint: int = Field(ge=1, description="The number of the hard constraint judged.")
    reason: str = Field(
        min_length=3,
        description="One short line (at most 20 words): what the hypothesis would do, against the constraint.",
    )
    verdict: ConstraintVerdict = Field(description="breaks or keeps, decided after the reason.")


class ConstraintCheckOutput(BaseModel):
    judgements: list[ConstraintJudgement] = Field(description="One judgement per hypothesis and constraint.")


@dataclass(frozen=True, slots=True)
class ConstraintCheckBatch:
    """What one call judges (the offline generator reads it as its context)."""

    constraints: tuple[str, ...]
    items: tuple[ProfiledText, ...]


@dataclass(frozen=True, slots=True)
class ConstraintCheckRun:
    flags: tuple[ConstraintFlag, ...]
    judged: int  # texts a call answered (now or before)
    unjudged: tuple[ProfiledText, ...]  # texts whose call failed or that the answer left out
    calls: int  # calls made now
    usage: Usage
    answered: dict[str, tuple[ConstraintFlag, ...]] = field(default_factory=dict)  # new answers, by fingerprint
    reused: int = 0  # batches answered before, not asked again


def constraint_check_request(batch: ConstraintCheckBatch) -> StructuredRequest[ConstraintCheckOutput]:
    lines = [
        "Hard constraints:",
        *(f"{n}. {c}" for n, c in enumerate(batch.constraints, start=1)),
        "",
        "Hypotheses:",
        *(f"[{item.id}] {item.text}" for item in batch.items),
    ]
    pairs = len(batch.constraints) * len(batch.items)
    return StructuredRequest(
        name="record_constraint_check",
        purpose="Record, for each hypothesis and hard constraint, whether the hypothesis breaks it and why.",
        instructions=CONSTRAINT_CHECK_INSTRUCTIONS,
        input="\n".join(lines),
        output=ConstraintCheckOutput,
        max_tokens=min(8000, 400 + 120 * pairs),
        offline_context=batch,
    )


def batch_fingerprint(batch: ConstraintCheckBatch) -> str:
    """The request about `batch`, hashed: equal fingerprints are identical requests."""
    request = constraint_check_request(batch)
    return hashlib.sha256(f"{request.instructions}\n{request.input}".encode()).hexdigest()[:24]


def _flags(batch: ConstraintCheckBatch, output: ConstraintCheckOutput) -> list[ConstraintFlag]:
    ids = {item.id for item in batch.items}
    flags: dict[tuple[str, int], ConstraintFlag] = {}
    for j in output.judgements:
        if j.verdict is ConstraintVerdict.BREAKS and j.hypothesis_id in ids and j.constraint <= len(batch.constraints):
            reason = " ".join(j.reason.split())
            flags.setdefault(
                (j.hypothesis_id, j.constraint),
                ConstraintFlag(j.hypothesis_id, batch.constraints[j.constraint - 1], reason),
            )
    return list(flags.values())


async def run_constraint_check(
    model: StructuredModel,
    constraints: Sequence[str],
    items: Sequence[ProfiledText],
    *,
    batch_size: int = BATCH_SIZE,
    concurrency: int = DEFAULT_CONCURRENCY,
    answered: Mapping[str, tuple[ConstraintFlag, ...]] | None = None,
) -> ConstraintCheckRun:
    known = answered or {}
    batch_size = max(1, min(batch_size, PAIRS_PER_CALL // max(1, len(constraints))))
    batches = [
        ConstraintCheckBatch(tuple(constraints), tuple(items[i : i + batch_size]))
        for i in range(0, len(items), batch_size)
    ]
    keyed = [(batch_fingerprint(b), b) for b in batches]
    flags = [f for key, _ in keyed if key in known for f in known[key]]
    asked = [(key, b) for key, b in keyed if key not in known]
    outcome = await run_structured_batch(
        model, [constraint_check_request(b) for _, b in asked], stage=STAGE, concurrency=concurrency
    )
    unjudged: list[ProfiledText] = []
    new: dict[str, tuple[ConstraintFlag, ...]] = {}
    for (key, batch), result in zip(asked, outcome.outcomes, strict=True):
        if not isinstance(result, StructuredResult):
            unjudged += batch.items
            continue
        found = _flags(batch, result.value)
        flags += found
        judged = {j.hypothesis_id for j in result.value.judgements}
        missing = [item for item in batch.items if item.id not in judged]
        unjudged += missing
        if not missing:
            new[key] = tuple(found)  # a complete answer is never asked again
    judged_count = len(items) - len(unjudged)
    reused = len(keyed) - len(asked)
    return ConstraintCheckRun(tuple(flags), judged_count, tuple(unjudged), len(asked), outcome.usage, new, reused)
