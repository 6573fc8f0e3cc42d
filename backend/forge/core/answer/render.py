"""The AnswerPack as Markdown and as a JSON value (seed 000 §7 stage 8: "Markdown report + JSON").

Invariants:
    - Pure: the same pack renders the same bytes; sections are always present, in a fixed order
      (`ANSWER_SECTIONS`), an empty one saying so.
    - Every string from the pack is escaped (`markdown_safety`): a model's solution keeps its lists
      and emphasis but no raw HTML and no link; evidence links only for http(s)/mailto sources.
    - The compliance table has one row per audited hard constraint with an explicit PASS /
      VIOLATION / UNCLEAR marker, and the overall status above it; a violation is never hidden.
      A withheld solution (`cannot_be_met`) is never rendered: the direct answer says which
      constraint cannot be met and what relaxing it would allow.
    - The ranking shows only verified hypotheses, each with VERIFY's status and final score; the
      checked candidates that did not pass follow, with theirs.
    - The fixed words (headings, labels, status sentences) come from an `AnswerWords`, one per
      problem language, chosen here from the pack's question (callers do not repeat the choice);
      `ENGLISH_ANSWER_WORDS` renders the original bytes.
    - `answer_pack_json` is the lossless `state_codec` encoding (the API's `AnswerPackOut` schema).
"""

from __future__ import annotations

from typing import Any

from forge.core.answer.pack import AnswerPack, EvidenceItem, RankedHypothesis
from forge.core.answer.words import ENGLISH_ANSWER_WORDS, AnswerWords, answer_words_for
from forge.core.document.markdown_safety import escape_inline, escape_markdown, markdown_link
from forge.core.session.state_codec import encode_value
from forge.core.solve.compliance_audit import ComplianceStatus, ComplianceVerdict
from forge.core.solve.loop import Convergence

ANSWER_SECTIONS: tuple[str, ...] = ENGLISH_ANSWER_WORDS.sections


def _verdict_mark(verdict: ComplianceVerdict, w: AnswerWords) -> str:
    return {
        ComplianceVerdict.PASS: w.verdict_pass,
        ComplianceVerdict.VIOLATION: w.verdict_violation,
        ComplianceVerdict.UNCLEAR: w.verdict_unclear,
    }[verdict]


def _status_text(status: ComplianceStatus, w: AnswerWords) -> str:
    return {
        ComplianceStatus.COMPLIANT: w.status_compliant,
        ComplianceStatus.UNVERIFIED: w.status_unverified,
        ComplianceStatus.VIOLATION: w.status_violation,
    }[status]


def _convergence_text(status: Convergence, w: AnswerWords) -> str:
    return {
        Convergence.CONVERGED: w.convergence_converged,
        Convergence.LIMITS_REACHED: w.convergence_limits,
        Convergence.NO_NEW_CONSTRAINTS: w.convergence_no_new,
        Convergence.FAILED: w.convergence_failed,
    }[status]


def answer_pack_json(pack: AnswerPack) -> dict[str, Any]:
    encoded: dict[str, Any] = encode_value(pack)
    return encoded


def _bullets(items: list[str], empty: str) -> list[str]:
    return [f"- {item}" for item in items] if items else [f"_{empty}_"]


def _evidence_line(e: EvidenceItem, w: AnswerWords) -> str:
    claim = w.claim_ref.format(claim=e.claim_id) if e.claim_id else ""
    if e.hypothesis_ids:
        claim += w.from_pool.format(ids=", ".join(f"`{i}`" for i in e.hypothesis_ids))
    if e.verify_status == "failed":  # kept only by the person's verdict: said wherever the claim is used
        claim += w.over_verify
    if e.source is None:
        return f"{escape_inline(e.statement)}{claim} — {escape_inline(e.trace)}"
    return w.evidence_with_source.format(
        link=markdown_link(e.title, e.source),
        relation=escape_inline(w.label(e.relation)),
        statement=escape_inline(e.statement),
        claim=claim,
        trace=escape_inline(e.trace),
    )


def _risks(pack: AnswerPack, w: AnswerWords) -> list[str]:
    lines = _bullets(
        [
            w.risk_line.format(
                severity=w.label(r.severity),
                unresolved=w.risk_unresolved if r.unresolved else "",
                text=escape_inline(r.text),
                mitigation=w.risk_mitigation.format(text=escape_inline(r.mitigation)) if r.mitigation else "",
            )
            for r in pack.risks
        ],
        w.no_risk,
    )
    boundaries = _bullets([escape_inline(b) for b in pack.boundaries], w.none_recorded)
    return [*lines, "", w.boundaries, "", *boundaries]


def _verify_text(h: RankedHypothesis, w: AnswerWords) -> str:
    score = f" {h.verify_score:.1f}" if h.verify_score is not None else ""
    unverified = f" ({w.novelty_unverified})" if h.novelty_unverified else ""
    return f"{escape_inline(w.label(h.verify_status))}{score}{unverified}"


def _unranked(pack: AnswerPack, w: AnswerWords) -> list[str]:
    if not pack.unranked:
        return []
    lines = [
        w.unranked_line.format(title=escape_inline(h.title), domain=escape_inline(h.domain), status=_verify_text(h, w))
        for h in pack.unranked
    ]
    return ["", w.unranked_heading, "", *_bullets(lines, w.none)]


def _ranking(pack: AnswerPack, w: AnswerWords) -> list[str]:
    if not pack.ranking:
        empty = w.ranking_none_verified if pack.unranked else w.ranking_empty
        return [f"_{empty}_", *_unranked(pack, w)]
    rows = [w.ranking_header, "|---|---|---|---|---|---|"]
    rows += [
        f"| {i} | {escape_inline(h.title)} | {escape_inline(h.domain)} | {h.score:.2f} | {w.label(h.gate_status)} | "
        f"{_verify_text(h, w)} |"
        for i, h in enumerate(pack.ranking, 1)
    ]
    return [*rows, "", w.ranking_note, *_unranked(pack, w)]


def _compliance(pack: AnswerPack, w: AnswerWords) -> list[str]:
    c = pack.compliance
    lines = [_status_text(c.status, w), "", w.revisions.format(count=c.revisions), ""]
    if not c.checks:
        return [*lines, f"_{w.no_constraint}_"]
    lines += [w.compliance_header, "|---|---|---|---|"]
    lines += [
        f"| {escape_inline(k.constraint)} | {w.label(k.origin.value)} | {_verdict_mark(k.verdict, w)} | "
        f"{escape_inline(k.reason)} |"
        for k in c.checks
    ]
    return lines


def _methodology(pack: AnswerPack, w: AnswerWords) -> list[str]:
    m, s = pack.methodology, pack.solve
    sp = m.spend
    lines = [
        w.source_domains.format(value=escape_inline(", ".join(m.domains)) or w.none),
        w.operators.format(value=escape_inline(", ".join(m.operators)) or w.none),
        w.models.format(value=escape_inline(", ".join(m.models))),
        *(escape_inline(line) for line in m.scoring),
        w.spend.format(tokens=sp.tokens, cost=sp.cost_usd, calls=sp.calls, rounds=m.rounds),
        w.solve.format(
            convergence=_convergence_text(s.status, w),
            risks=s.unresolved_high_risks,
            outer=s.outer_rounds,
            attempts=s.attempts,
        ),
    ]
    if s.failure:
        lines.append(w.solve_failure.format(text=escape_inline(s.failure)))
    lines += [w.constraint_added.format(text=escape_inline(t)) for t in s.constraints_added]
    lines += [
        w.note.format(kind=w.label(n.kind.value), outer=n.outer_round, text=escape_inline(n.text)) for n in s.notes
    ]
    lines += ["", w.supervisor_findings, ""]
    return lines + _bullets([escape_inline(f) for f in m.supervisor_findings], w.none_recorded)


def _markdown_lines(text: str, empty: str) -> list[str]:
    return [escape_markdown(line) for line in text.strip().splitlines()] or [f"_{empty}_"]


def render_answer_markdown(pack: AnswerPack, words: AnswerWords | None = None) -> str:
    """The pack's Markdown, in the words of the language its question was asked in unless `words` says otherwise."""
    w = words or answer_words_for(pack.question)
    sections = [
        _markdown_lines(pack.direct_answer, w.no_answer),
        _markdown_lines(pack.solution_markdown, w.no_solution),
        _bullets([_evidence_line(e, w) for e in pack.key_evidence], w.no_evidence),
        _risks(pack, w),
        _ranking(pack, w),
        _compliance(pack, w),
        _methodology(pack, w),
    ]
    lines = [
        f"# {escape_inline(pack.title)}",
        "",
        *[f"> {escape_markdown(line)}".rstrip() for line in pack.question.strip().splitlines()],
        "",
        w.written_by.format(model=escape_inline(pack.written_by), label=w.offline_label if pack.offline else ""),
        "",
    ]
    for title, body in zip(w.sections, sections, strict=True):
        lines += [f"## {title}", "", *body, ""]
    return "\n".join(lines).rstrip() + "\n"
