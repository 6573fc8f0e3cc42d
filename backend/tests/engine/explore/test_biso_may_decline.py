"""BISO may decline a domain that does not fit (issue 42 item 2): zero hypotheses with the reason kept,
nothing padded; at most one hypothesis per structure; the schema's minimums are the text's and the
mapping gate's; one worked example per prompt, from a field unlike the problem's."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from forge.core.explore.mapping_quality_gate import MIN_EFFECTIVE_ROWS
from forge.core.frame.problem_frame import ProblemFrame
from forge.engine.explore.biso import BisoOutput, DomainDecline, biso_request, run_biso
from forge.engine.explore.biso_worked_examples import EXAMPLES
from tests.engine.explore.test_biso import DOMAINS, FRAME, GOOD_ROWS, PROBLEM, ByDomain, draft

REASON = "Its structures need a continuous stress field; an emergency department has no quantity in that role."
STATEMENT = "Use the waiting room as a buffer and an acuity score priority so the triage nurse absorbs the evening surge pattern."


async def test_a_declined_domain_gives_no_hypotheses_and_keeps_its_reason() -> None:
    first, second = DOMAINS[0], DOMAINS[1]
    model = ByDomain(
        {
            first.id: BisoOutput(hypotheses=[], decline_reason=REASON),
            second.id: BisoOutput(hypotheses=[draft("Surge buffer", STATEMENT, GOOD_ROWS)]),
        }
    )
    run = await run_biso(model, PROBLEM, FRAME, [first, second], per_domain=3)
    assert run.declined == (DomainDecline(first.id, REASON),)
    assert run.failed_domains == () and run.generated == 1
    assert [h.id for h in run.hypotheses] == [f"biso-0-{second.id}-1"]  # nothing padded for the declined one


async def test_a_second_hypothesis_from_the_same_structure_is_dropped_and_counted() -> None:
    domain = DOMAINS[0]
    twin = draft("Same structure again", STATEMENT + " Add a second buffer in the corridor.", GOOD_ROWS)
    model = ByDomain({domain.id: BisoOutput(hypotheses=[draft("Surge buffer", STATEMENT, GOOD_ROWS), twin])})
    run = await run_biso(model, PROBLEM, FRAME, [domain], per_domain=3)
    assert run.generated == 1 and run.repeated_structures == 1
    assert [h.title for h in run.hypotheses] == ["Surge buffer"]


def test_an_empty_answer_must_say_why() -> None:
    with pytest.raises(ValidationError, match="decline_reason"):
        BisoOutput(hypotheses=[])
    with pytest.raises(ValidationError, match="decline_reason"):
        BisoOutput(hypotheses=[], decline_reason="no")


def test_the_schema_asks_for_the_rows_the_text_and_the_gate_ask_for() -> None:
    schema = BisoOutput.model_json_schema()
    draft_schema = schema["$defs"]["HypothesisDraft"]
    row_schema = schema["$defs"]["MappingRowOut"]
    assert draft_schema["properties"]["mapping"]["minItems"] == MIN_EFFECTIVE_ROWS == 6
    assert {"source_relation", "target_relation", "observable_link"} <= set(row_schema["required"])
    with pytest.raises(ValidationError, match="at least 6"):
        draft("Five rows", STATEMENT, GOOD_ROWS[:5])
    request = biso_request(PROBLEM, FRAME, DOMAINS[0], 3)
    assert f"at least {MIN_EFFECTIVE_ROWS} rows" in request.instructions
    assert "DIFFERENT structure" in request.instructions and "decline_reason" in request.instructions
    assert request.input.endswith(
        "Give up to 3 hypotheses, each from a different structure, or none with a decline_reason."
    )


def test_each_prompt_has_one_worked_example_from_a_field_unlike_the_problems() -> None:
    hospital = biso_request(PROBLEM, FRAME, DOMAINS[0], 3).instructions
    assert hospital.count("WORKED EXAMPLE") == 1
    payments = "How can a payments processor cut card fraud losses at merchants without more chargebacks?"
    fraud_frame = ProblemFrame("Cut card fraud", "card payments", "fewer fraud losses", ())
    fraud = biso_request(payments, fraud_frame, DOMAINS[0], 3).instructions
    payments_example, materials_example, _policy = (e.text for e in EXAMPLES)
    assert payments_example not in fraud and materials_example in fraud
    concrete = ProblemFrame("Stop concrete cracking", "concrete bridge deck", "fewer cracks", ())
    cracks = biso_request("How can concrete decks crack less?", concrete, DOMAINS[0], 3).instructions
    assert materials_example not in cracks and payments_example in cracks
