"""The gate's model layer and unpack audit: deterministic samples, concrete explanations only, discounts."""

from __future__ import annotations

from forge.core.explore.mapping_model_layer import (
    UNEXPLAINED_DISCOUNT,
    DepthReview,
    RowExplanation,
    UnpackAudit,
    audit_unpack,
    choose_unpack_rows,
    combined_mapping_score,
)
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType

TABLE = MappingTable(
    (
        MappingRow(
            "buffer", "absorbs bursts", "waiting room", "holds surges", MappingType.RELATION, "g", "queue length"
        ),
        MappingRow(
            "server", "serves jobs", "triage nurse", "assesses patients", MappingType.ENTITY, "g", "nurse minutes"
        ),
        MappingRow(
            "blocking",
            "rejects work",
            "bed shortage",
            "stalls admissions",
            MappingType.HIGHER_ORDER,
            "g",
            "boarding hours",
        ),
    )
)
DOWNSTREAM = "median queue length in the waiting room during surges; fails when bed shortage dominates"


def test_the_sample_is_fixed_by_the_hypothesis_id_and_drawn_from_the_effective_rows() -> None:
    rows = [0, 2, 3, 5, 8, 9]
    first = choose_unpack_rows("biso-1-ecology-1", rows)
    assert first == choose_unpack_rows("biso-1-ecology-1", list(reversed(rows)))
    assert len(first) == 2 and set(first) <= set(rows)
    samples = {choose_unpack_rows(f"biso-1-ecology-{n}", rows) for n in range(20)}
    assert len(samples) > 3  # different hypotheses audit different rows


def test_a_concrete_explanation_explains_the_row() -> None:
    said = RowExplanation(
        0, True, "The waiting room holds surges, so its queue length is what the observable measures."
    )
    assert audit_unpack(TABLE, (0,), [said], DOWNSTREAM).unexplained == ()


def test_a_generic_yes_does_not_explain_the_row() -> None:
    said = RowExplanation(0, True, "This row clearly supports the hypothesis and is important.")
    audit = audit_unpack(TABLE, (0,), [said], DOWNSTREAM)
    assert audit.unexplained == (0,) and audit.padding_suspected


def test_a_row_the_reviewer_cannot_tie_or_did_not_answer_is_unexplained() -> None:
    denied = RowExplanation(1, False, "The triage nurse row is not measured by the queue length observable.")
    audit = audit_unpack(TABLE, (1, 2), [denied], DOWNSTREAM)
    assert audit.unexplained == (1, 2)
    assert audit.discount == round(UNEXPLAINED_DISCOUNT**2, 4)


def test_an_explanation_for_a_row_that_does_not_exist_explains_nothing() -> None:
    ghost = RowExplanation(7, True, "waiting room queue length")
    assert audit_unpack(TABLE, (0,), [ghost], DOWNSTREAM).unexplained == (0,)


def test_the_combined_score_blends_the_layers_and_discounts_padding() -> None:
    review = DepthReview(systematicity=8, depth=6, higher_order_mapped=False)
    assert review.score == 7.0
    clean = UnpackAudit((0, 1), ())
    padded = UnpackAudit((0, 1), (1,))
    assert combined_mapping_score(9.0, review, clean) == 8.0
    assert combined_mapping_score(9.0, review, padded) == round(8.0 * UNEXPLAINED_DISCOUNT, 2)


def test_the_model_layer_never_scores_outside_zero_to_ten() -> None:
    assert DepthReview(14, 12, True).score == 10.0
    assert DepthReview(-3, -1, False).score == 0.0
    assert combined_mapping_score(10.0, DepthReview(10, 10, True), UnpackAudit((), ())) == 10.0
