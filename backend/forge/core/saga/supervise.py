"""One checkpoint of the slow agent, as a pure step: stamp the findings, derive the directives,
take them, and write the checkpoint's audit (seed 000 §5.3, §7.3).

Invariants:
    - Finding ids are `<CP>-r<round>-<kind>[-n]` (n counts repeats of a kind at that checkpoint),
      so the same checkpoint over the same input yields the same ids, and recording is idempotent.
    - Every directive taken here names a finding recorded here (or, for RESUME, the finding whose
      pause it lifts); the audit lists both.
    - A checkpoint already recorded for its round changes nothing (`already_recorded`).
    - Every pass debits its stage's bucket of the cognitive budget (`CHECKPOINT_BUCKET`,
      `budget.audit_units`); a critical finding spends urgently; a refused debit is said in the audit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from forge.core.saga.budget import Bucket, BudgetLedger, audit_units, spend
from forge.core.saga.checkpoints import CHECKPOINT_PHASE, CHECKPOINT_TITLE
from forge.core.saga.policy import directives_for, resume_if_clear, take
from forge.core.saga.records import (
    Checkpoint,
    CheckpointAudit,
    Directive,
    FastEvent,
    Finding,
    Severity,
    SupervisorFinding,
    finding_id,
)
from forge.core.saga.state import SupervisionState, record_checkpoint, record_findings

BATCH_CHECKPOINTS = frozenset({Checkpoint.CP4, Checkpoint.CP5})
# The cognitive-budget bucket each checkpoint's rule layers are debited from (seed 000 §5.4); the red
# team pays from ADVERSARIAL, a critical finding's shortfall from EMERGENCY.
CHECKPOINT_BUCKET: dict[Checkpoint, Bucket] = {
    Checkpoint.CP1: Bucket.DOMAIN_AUDIT,
    Checkpoint.CP2: Bucket.DOMAIN_AUDIT,
    Checkpoint.CP3: Bucket.DOMAIN_AUDIT,
    Checkpoint.CP4: Bucket.BISO,
    Checkpoint.CP5: Bucket.SEARCH,
    Checkpoint.CP6: Bucket.VERIFY,
    Checkpoint.CP7: Bucket.GLOBAL,
}


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
    after, refused = _debit(take(record_findings(state, stamped), directives), checkpoint, stamped, batch_size)
    audit = CheckpointAudit(
        checkpoint,
        round_,
        CHECKPOINT_PHASE[checkpoint].value,
        _summary(checkpoint, stamped, directives, search_round) + refused,
        tuple(f.id for f in stamped),
        tuple(d.id for d in directives),
        tuple(fast_events),
        search_round,
    )
    return CheckpointResult(record_checkpoint(after, audit), audit, stamped, tuple(directives))


def _debit(
    state: SupervisionState, checkpoint: Checkpoint, findings: Sequence[SupervisorFinding], batch_size: int
) -> tuple[SupervisionState, str]:
    """The state with the pass's audit units spent from its bucket, and what the audit says when refused."""
    named = {i for f in findings if len(f.finding.hypothesis_ids) < batch_size for i in f.finding.hypothesis_ids}
    urgent = any(f.finding.severity is Severity.CRITICAL for f in findings)
    bucket = CHECKPOINT_BUCKET[checkpoint]
    paid = spend(state.budget, bucket, audit_units(batch_size, len(named)), urgent=urgent)
    if isinstance(paid, BudgetLedger):
        return replace(state, budget=paid), ""
    return state, f" Budget: {paid.message} The rule layers ran anyway (they cost no model call)."


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
