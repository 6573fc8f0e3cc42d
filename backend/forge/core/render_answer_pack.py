"""The AnswerPack as Markdown and as a JSON value (seed 000 §7 stage 8: "Markdown report + JSON").

Invariants:
    - Pure: the same pack renders the same bytes; sections are always present, in a fixed order
      (`ANSWER_SECTIONS`), an empty one saying so.
    - Every string from the pack is escaped (`markdown_safety`): a model's solution keeps its lists
      and emphasis but no raw HTML and no link; evidence links only for http(s)/mailto sources.
    - The compliance table has one row per audited hard constraint with an explicit PASS /
      VIOLATION / UNCLEAR marker, and the overall status above it; a violation is never hidden.
    - `answer_pack_json` is the lossless `state_codec` encoding (the API's `AnswerPackOut` schema).
"""

from __future__ import annotations

from typing import Any

from forge.core.answer_pack import AnswerPack, EvidenceItem
from forge.core.compliance_audit import ComplianceStatus, ComplianceVerdict
from forge.core.markdown_safety import escape_inline, escape_markdown, markdown_link
from forge.core.solve_loop import Convergence
from forge.core.state_codec import encode_value

ANSWER_SECTIONS: tuple[str, ...] = (
    "Direct answer",
    "Solution",
    "Key evidence",
    "Risks and boundaries",
    "Hypothesis ranking",
    "Constraint compliance",
    "Methodology",
)
VERDICT_MARK = {
    ComplianceVerdict.PASS: "✅ pass",
    ComplianceVerdict.VIOLATION: "❌ VIOLATION",
    ComplianceVerdict.UNCLEAR: "❔ unclear",
}
STATUS_TEXT = {
    ComplianceStatus.COMPLIANT: "Every hard constraint passed the audit.",
    ComplianceStatus.UNVERIFIED: "No hard constraint is violated, but some could not be checked (marked unclear).",
    ComplianceStatus.VIOLATION: "**The solution still violates a hard constraint** after the allowed revisions; "
    "act on it only after resolving the rows marked VIOLATION.",
}
CONVERGENCE_TEXT = {
    Convergence.CONVERGED: "converged: the last audit found no high risk",
    Convergence.LIMITS_REACHED: "stopped at the iteration limits",
    Convergence.NO_NEW_CONSTRAINTS: "stopped: the remaining risks gave no new constraint",
    Convergence.FAILED: "stopped: a model call failed",
}


def answer_pack_json(pack: AnswerPack) -> dict[str, Any]:
    encoded: dict[str, Any] = encode_value(pack)
    return encoded


def _bullets(items: list[str], empty: str) -> list[str]:
    return [f"- {item}" for item in items] if items else [f"_{empty}_"]


def _evidence_line(e: EvidenceItem) -> str:
    claim = f" (claim `{e.claim_id}`)" if e.claim_id else ""
    if e.source is None:
        return f"{escape_inline(e.statement)}{claim} — {escape_inline(e.trace)}"
    return (
        f"{markdown_link(e.title, e.source)} — {escape_inline(e.relation)} for “{escape_inline(e.statement)}”"
        f"{claim}; {escape_inline(e.trace)}"
    )


def _risks(pack: AnswerPack) -> list[str]:
    lines = _bullets(
        [
            f"**{r.severity}**{' (unresolved)' if r.unresolved else ''}: {escape_inline(r.text)}"
            + (f" — mitigation: {escape_inline(r.mitigation)}" if r.mitigation else "")
            for r in pack.risks
        ],
        "No risk was recorded by the audit.",
    )
    return [*lines, "", "**Boundaries**", "", *_bullets([escape_inline(b) for b in pack.boundaries], "None recorded.")]


def _ranking(pack: AnswerPack) -> list[str]:
    if not pack.ranking:
        return ["_The hypothesis pool is empty._"]
    rows = ["| # | Hypothesis | Domain | Score | Gate | Verify |", "|---|---|---|---|---|---|"]
    rows += [
        f"| {i} | {escape_inline(h.title)} | {escape_inline(h.domain)} | {h.score:.2f} | {h.gate_status} | "
        f"{escape_inline(h.verify_status)} |"
        for i, h in enumerate(pack.ranking, 1)
    ]
    return [*rows, "", "_Scores are the rule-layer composite (0–10) of each hypothesis's own fields._"]


def _compliance(pack: AnswerPack) -> list[str]:
    c = pack.compliance
    lines = [STATUS_TEXT[c.status], "", f"_Revisions made: {c.revisions}._", ""]
    if not c.checks:
        return [*lines, "_No hard constraint was stated._"]
    lines += ["| Constraint | Origin | Verdict | Reason |", "|---|---|---|---|"]
    lines += [
        f"| {escape_inline(k.constraint)} | {k.origin.value} | {VERDICT_MARK[k.verdict]} | {escape_inline(k.reason)} |"
        for k in c.checks
    ]
    return lines


def _methodology(pack: AnswerPack) -> list[str]:
    m, s = pack.methodology, pack.solve
    lines = [
        f"- Source domains: {escape_inline(', '.join(m.domains)) or 'none'}",
        f"- Operators: {escape_inline(', '.join(m.operators)) or 'none'}",
        f"- Models: {escape_inline(', '.join(m.models))}",
        f"- Spend: {m.spend.tokens} tokens, ${m.spend.cost_usd:.4f}, {m.spend.calls} model calls; {m.rounds} round(s)",
        f"- Solve: {CONVERGENCE_TEXT[s.status]}; {s.unresolved_high_risks} unresolved high risk(s); "
        f"{s.outer_rounds} outer round(s), {s.attempts} plan/audit attempt(s)",
    ]
    if s.failure:
        lines.append(f"- Solve failure: {escape_inline(s.failure)}")
    lines += [f"- Constraint added from a risk: {escape_inline(t)}" for t in s.constraints_added]
    lines += [f"- {n.kind.value} (outer {n.outer_round}): {escape_inline(n.text)}" for n in s.notes]
    lines += ["", "**Supervisor findings**", ""]
    return lines + _bullets([escape_inline(f) for f in m.supervisor_findings], "None recorded.")


def render_answer_markdown(pack: AnswerPack) -> str:
    label = "; deterministic rules over this session's record, no language model" if pack.offline else ""
    sections = [
        [escape_markdown(line) for line in pack.direct_answer.strip().splitlines()] or ["_No answer._"],
        [escape_markdown(line) for line in pack.solution_markdown.strip().splitlines()] or ["_No solution._"],
        _bullets([_evidence_line(e) for e in pack.key_evidence], "No evidence was recorded."),
        _risks(pack),
        _ranking(pack),
        _compliance(pack),
        _methodology(pack),
    ]
    lines = [
        f"# {escape_inline(pack.title)}",
        "",
        *[f"> {escape_markdown(line)}".rstrip() for line in pack.question.strip().splitlines()],
        "",
        f"_AnswerPack written by {escape_inline(pack.written_by)}{label}._",
        "",
    ]
    for title, body in zip(ANSWER_SECTIONS, sections, strict=True):
        lines += [f"## {title}", "", *body, ""]
    return "\n".join(lines).rstrip() + "\n"
