"""One checkpoint of the slow agent, as a pure step: stamp the findings, derive the directives,
take them, and write the checkpoint's audit (seed 000 §5.3, §7.3).

Invariants:
    - Finding ids are `<CP>-r<round>-<kind>[-n]` (n counts repeats of a kind at that checkpoint),
      so the same checkpoint over the same input yields the same ids, and recording is idempotent.
    - Every directive taken here names a finding recorded here (or, for RESUME, the finding whose
      pause it lifts); the audit lists both.
    - A checkpoint already recorded for its round changes nothing (`already_recorded`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.saga.checkpoints import CHECKPOINT_PHASE, CHECKPOINT_TITLE
from forge.core.saga.policy import directives_for, resume_if_clear, take
from forge.core.saga.records import (
    Checkpoint,
    CheckpointAudit,
    Directive,
    FastEvent,
    Finding,
    SupervisorFinding,
    finding_id,
)
from forge.core.saga.state import SupervisionState, record_checkpoint, record_findings

BATCH_CHECKPOINTS = frozenset({Checkpoint.CP4, Checkpoint.CP5})


@dataclass(frozen=True, slots=True)
class CheckpointResult:
    state: SupervisionState
    audit: CheckpointAudit
    findings: tuple[SupervisorFinding, ...]
    directives: tuple[Directive, ...]
    already_recorded: bool = False


def stamp(
    checkpoint: Checkpoint, round_: int, findings: Sequence[Finding], search_round: int = 1
) -> tuple[SupervisorFinding, ...]:
    seen: Counter[str] = Counter()
    stamped = []
    for f in findings:
        n = seen[f.kind.value]
        seen[f.kind.value] += 1
        stamped.append(
            SupervisorFinding(finding_id(checkpoint, round_, f.kind, n, search_round), checkpoint, round_, f)
        )
    return tuple(stamped)


def run_checkpoint(
    state: SupervisionState,
    checkpoint: Checkpoint,
    round_: int,
    findings: Sequence[Finding],
    batch_size: int = 0,
    fast_events: Sequence[FastEvent] = (),
    search_round: int = 1,
) -> CheckpointResult:
    """One checkpoint pass (CP-5: after SEARCH round `search_round` of session round `round_`)."""
    if state.has_checkpoint(checkpoint.value, round_, search_round):
        audit = next(
            c
            for c in state.checkpoints
            if c.checkpoint is checkpoint and c.round == round_ and c.search_round == search_round
        )
        return CheckpointResult(state, audit, (), (), already_recorded=True)
    stamped = stamp(checkpoint, round_, findings, search_round)
    directives = directives_for(stamped, state, batch_size)
    if checkpoint in BATCH_CHECKPOINTS:
        directives += resume_if_clear(state, stamped, batch_size)
    after = take(record_findings(state, stamped), directives)
    audit = CheckpointAudit(
        checkpoint,
        round_,
        CHECKPOINT_PHASE[checkpoint].value,
        _summary(checkpoint, stamped, directives, search_round),
        tuple(f.id for f in stamped),
        tuple(d.id for d in directives),
        tuple(fast_events),
        search_round,
    )
    return CheckpointResult(record_checkpoint(after, audit), audit, stamped, tuple(directives))


def _summary(
    checkpoint: Checkpoint, findings: Sequence[SupervisorFinding], directives: Sequence[Directive], search_round: int
) -> str:
    after = f" (SEARCH round {search_round})" if search_round > 1 else ""
    title = f"{checkpoint.value} {CHECKPOINT_TITLE[checkpoint]}{after}"
    if not findings:
        return f"{title}: passed."
    kinds = ", ".join(dict.fromkeys(f.finding.kind.value.replace("_", " ") for f in findings))
    told = f"; {len(directives)} directive(s)" if directives else ""
    return f"{title}: {len(findings)} finding(s) ({kinds}){told}."
