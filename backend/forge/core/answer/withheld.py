"""A solution that still breaks a hard constraint after its revisions is not the answer (seed 000
§6.4: "exits with a full violation report rather than returning a constraint-violating result").

Invariants:
    - Pure. `cannot_be_met` is None unless the compliance audit's status is VIOLATION.
    - One UnmetConstraint per violated hard constraint, in the audit's order, with the audit's reason
      and what relaxing it would allow: the auditor's words, else — said as such — what the withheld
      solution does (`relaxing_fallback`), never an empty promise.
    - `withheld_direct_answer` writes the pack's direct answer in the problem's language: which
      constraint cannot be met and what relaxing it would allow; the violating text is not in it.
"""

from __future__ import annotations

from forge.core.answer.pack import CannotBeMet, TalkerAnswer, UnmetConstraint
from forge.core.answer.words import AnswerWords
from forge.core.solve.compliance_audit import ComplianceResult, ComplianceStatus

ANSWER_CHARS = 300


def _short(text: str, limit: int = ANSWER_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def cannot_be_met(compliance: ComplianceResult, answer: TalkerAnswer, words: AnswerWords) -> CannotBeMet | None:
    if compliance.status is not ComplianceStatus.VIOLATION:
        return None
    fallback = words.relaxing_fallback.format(answer=_short(answer.direct_answer))
    unmet = tuple(
        UnmetConstraint(c.constraint, c.origin, c.reason.rstrip("."), c.relaxing_allows.strip() or fallback)
        for c in compliance.violations
    )
    return CannotBeMet(unmet, compliance.revisions, answer.direct_answer)


def withheld_direct_answer(unmet: CannotBeMet, words: AnswerWords) -> str:
    lines = [words.cannot_meet_answer.format(revisions=unmet.revisions)]
    lines += [
        words.cannot_meet_line.format(constraint=u.constraint, why=u.why, allows=u.relaxing_allows)
        for u in unmet.constraints
    ]
    return "\n".join(lines)
