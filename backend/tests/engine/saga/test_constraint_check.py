"""Layer 4's model-judged constraint check over a scripted judge, the whole exchange: texts go in
batches of eight with every hard constraint numbered, the schema asks for the reason before the
verdict, only "breaks" answers about asked pairs become flags (with the model's one-line reason), and
a failed call's texts (and a text the answer left out) come back unjudged, never guessed. A call holds
at most BATCH_SIZE texts and PAIRS_PER_CALL judgements."""

from __future__ import annotations

from typing import Any

from forge.core.llm.messages import Usage
from forge.core.saga.domain_profile import ConstraintFlag, ProfiledText
from forge.engine.saga.constraint_check import (
    BATCH_SIZE,
    CONSTRAINT_CHECK_INSTRUCTIONS,
    PAIRS_PER_CALL,
    ConstraintCheckBatch,
    ConstraintCheckOutput,
    ConstraintJudgement,
    ConstraintVerdict,
    run_constraint_check,
)
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

CONSTRAINTS = ("without more staff", "budget under 50k")
TEXTS = [ProfiledText(f"h{n}", f"Hypothesis {n}: redesign the staff rotas") for n in range(1, 10)]
TEXTS[2] = ProfiledText("h3", "Hire two triage nurses for the evening peak")


class ScriptedJudge:
    """Answers each call by `answer(batch)`; a batch holding `fail_on` is a StructuredFailure."""

    def __init__(self, fail_on: str = "", leave_out: str = "") -> None:
        self.requests: list[StructuredRequest[Any]] = []
        self._fail_on, self._leave_out = fail_on, leave_out

    @property
    def label(self) -> str:
        return "scripted judge"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        batch = request.offline_context
        assert isinstance(batch, ConstraintCheckBatch)
        if any(item.id == self._fail_on for item in batch.items):
            return StructuredFailure("invalid output after retries", Usage(50, 5), 3)
        judgements = [
            ConstraintJudgement(
                hypothesis_id=item.id,
                constraint=n,
                reason="Hiring two nurses adds staff." if item.id == "h3" and n == 1 else "Only reorders the work.",
                verdict=ConstraintVerdict.BREAKS if item.id == "h3" and n == 1 else ConstraintVerdict.KEEPS,
            )
            for item in batch.items
            for n in (1, 2)
            if item.id != self._leave_out
        ]
        judgements.append(  # about a text it was not asked about, and a constraint that does not exist
            ConstraintJudgement(hypothesis_id="h99", constraint=1, reason="invented", verdict=ConstraintVerdict.BREAKS)
        )
        judgements.append(
            ConstraintJudgement(hypothesis_id="h1", constraint=7, reason="invented", verdict=ConstraintVerdict.BREAKS)
        )
        return StructuredResult(ConstraintCheckOutput(judgements=judgements), Usage(100, 40), 1)


async def test_the_check_asks_in_batches_and_keeps_only_the_breaks_it_was_asked_about() -> None:
    judge = ScriptedJudge()
    run = await run_constraint_check(judge, CONSTRAINTS, TEXTS, batch_size=8)
    assert [r.name for r in judge.requests] == ["record_constraint_check", "record_constraint_check"]
    first, second = judge.requests
    assert first.instructions == CONSTRAINT_CHECK_INSTRUCTIONS
    assert first.input.splitlines()[:5] == [
        "Hard constraints:",
        "1. without more staff",
        "2. budget under 50k",
        "",
        "Hypotheses:",
    ]
    assert first.input.splitlines()[5:] == [f"[{t.id}] {t.text}" for t in TEXTS[:8]]
    assert second.input.splitlines()[5:] == ["[h9] Hypothesis 9: redesign the staff rotas"]
    assert list(ConstraintJudgement.model_fields) == ["hypothesis_id", "constraint", "reason", "verdict"]
    assert run.flags == (ConstraintFlag("h3", "without more staff", "Hiring two nurses adds staff."),)
    assert (run.judged, run.unjudged, run.calls) == (9, (), 2)
    assert run.usage == Usage(200, 80)


async def test_a_failed_call_leaves_its_texts_unjudged() -> None:
    run = await run_constraint_check(ScriptedJudge(fail_on="h9"), CONSTRAINTS, TEXTS, batch_size=8)
    assert run.unjudged == (TEXTS[8],)
    assert run.judged == 8 and [f.id for f in run.flags] == ["h3"]


async def test_a_text_the_answer_left_out_is_unjudged() -> None:
    run = await run_constraint_check(ScriptedJudge(leave_out="h2"), CONSTRAINTS, TEXTS, batch_size=8)
    assert run.unjudged == (TEXTS[1],) and run.judged == 8


async def test_a_batch_answered_before_is_not_asked_again() -> None:
    first = await run_constraint_check(ScriptedJudge(), CONSTRAINTS, TEXTS, batch_size=8)
    assert len(first.answered) == 2 and first.reused == 0
    judge = ScriptedJudge()
    again = await run_constraint_check(
        judge, CONSTRAINTS, [*TEXTS, ProfiledText("h10", "Hire a porter")], batch_size=8, answered=first.answered
    )
    assert [r.input.splitlines()[5:] for r in judge.requests] == [
        ["[h9] Hypothesis 9: redesign the staff rotas", "[h10] Hire a porter"]
    ]
    assert again.reused == 1 and again.calls == 1 and again.judged == 10
    assert [f.id for f in again.flags] == ["h3"]  # the flag of the batch answered before stands


async def test_a_call_holds_at_most_batch_size_texts_and_pairs_per_call_judgements() -> None:
    texts = [ProfiledText(f"h{n}", f"Hypothesis {n}: redesign the staff rotas") for n in range(1, 2 * BATCH_SIZE + 2)]
    judge = ScriptedJudge()
    await run_constraint_check(judge, CONSTRAINTS, texts)
    sizes = [len(r.offline_context.items) for r in judge.requests]
    assert sizes == [BATCH_SIZE, BATCH_SIZE, 1]
    many = tuple(f"constraint {n}" for n in range(1, 11))  # ten constraints: fewer texts per call
    judge = ScriptedJudge()
    await run_constraint_check(judge, many, texts)
    per_call = PAIRS_PER_CALL // len(many)
    assert len(judge.requests[0].offline_context.items) == per_call < BATCH_SIZE
    assert all(len(r.offline_context.items) * len(many) <= PAIRS_PER_CALL for r in judge.requests)
    assert sum(len(r.offline_context.items) for r in judge.requests) == len(texts)
