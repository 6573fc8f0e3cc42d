"""Checkpoint detectors that read a batch's text or the supervisor's record rather than its scores
(seed 000 §5.3, §7.3): padded mapping tables, instructions injected into hypotheses or claims, and
critical findings still open before the answer.

Invariants:
    - Each is a pure function returning a `Finding` or None, listed in `detector_table.DETECTORS`.
    - Mapping padding: a hypothesis whose mapping gate failed a padding rule (duplicate rows, rows
      the downstream text never uses); information only — the gate already judged it.
    - Injection: any pattern of `verify.injection_scan` in a text; critical (scores of such a text
      cannot be trusted).
    - Risk convergence: at least one open (not dismissed) critical finding; critical.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from forge.core.explore.mapping_quality_gate import GateRule
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.records import Finding, FindingKind, Severity, SupervisorFinding
from forge.core.verify.injection_scan import scan_for_injection

PADDING_RULES = frozenset({GateRule.DUPLICATE_RATIO, GateRule.ROW_USAGE})


def detect_mapping_padding(batch: Sequence[Hypothesis]) -> Finding | None:
    ids = [h.id for h in batch if set(h.gate.failed_rules) & PADDING_RULES]
    if not ids:
        return None
    return Finding(
        FindingKind.MAPPING_PADDING,
        float(len(ids)),
        0.0,
        tuple(ids),
        f"Mapping tables that may be padded (duplicate or unused rows): {', '.join(ids)}.",
        severity=Severity.INFO,
    )


def injection_finding(texts: Mapping[str, str]) -> Finding | None:
    """Prompt-injection patterns (`injection_scan`) in hypothesis or claim texts, by id."""
    hits = scan_for_injection(texts)
    if not hits:
        return None
    named = "; ".join(f"{h.source}: “{h.excerpt}” ({h.pattern})" for h in hits)
    return Finding(
        FindingKind.INJECTION_SUSPECTED,
        float(len(hits)),
        0.0,
        tuple(dict.fromkeys(h.source for h in hits)),
        f"Text that tries to instruct the model: {named}. Scores of these cannot be trusted.",
        severity=Severity.CRITICAL,
    )


def detect_risk_convergence(open_critical: Sequence[SupervisorFinding]) -> Finding | None:
    if not open_critical:
        return None
    return Finding(
        FindingKind.RISK_CONVERGENCE,
        float(len(open_critical)),
        0.0,
        tuple(dict.fromkeys(i for f in open_critical for i in f.finding.hypothesis_ids)),
        f"{len(open_critical)} critical finding(s) are still open ({', '.join(f.id for f in open_critical)}): "
        "the answer must say so, or you dismiss them at the review.",
        severity=Severity.CRITICAL,
    )
