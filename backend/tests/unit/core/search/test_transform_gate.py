"""The Transform Gate: the structural audit (op whitelist, target kinds, protected elements, the quote of
what changes) and the decision (accepted only with a passing logic verdict; rejected ones keep reasons)."""

from __future__ import annotations

from forge.core.search.concept_space import ConceptSpace, SpaceElement, SpaceOrigin, TransformOp
from forge.core.search.transform_gate import TransformProposal, TransformStatus, audit_transform, close_gate
from forge.core.verify.verdicts import LogicVerdict

SPACE = ConceptSpace(
    domain_id="ops",
    name="Operations",
    origin=SpaceOrigin.SHIPPED,
    cue_terms=("ward",),
    primitives=(SpaceElement("p:1", "patient"), SpaceElement("p:2", "bed")),
    relations=(SpaceElement("r:1", "arrivals fill beds until discharge frees them"),),
    hard_constraints=(SpaceElement("hc:1", "no patient waits beyond the safe triage limit"),),
    soft_preferences=(SpaceElement("sp:1", "waits stay under the published target"),),
    assumptions_fixed=(SpaceElement("af:1", "patients who need care are treated"),),
    assumptions_mutable=(SpaceElement("am:1", "discharge happens once a day after the ward round"),),
    allowed_ops=(
        TransformOp.NEGATE_ASSUMPTION,
        TransformOp.RELAX_THRESHOLD,
        TransformOp.SWAP_CAUSAL_DIRECTION,
        TransformOp.ADD_NEW_PRIMITIVE,
    ),
)
PASSING = LogicVerdict(8, 7, 6)


def proposal(
    op: TransformOp, target: str, before: str, after: str = "discharge runs continuously"
) -> TransformProposal:
    return TransformProposal(op, target, before, after, "opens continuous flow")


def test_a_whitelisted_op_on_a_mutable_assumption_passes_the_audit_and_a_passing_verdict_accepts_it() -> None:
    p = proposal(TransformOp.NEGATE_ASSUMPTION, "am:1", "discharge happens once a day after the ward round")
    assert audit_transform(p, SPACE) == ()
    record = close_gate("transform-0-1", "h1", SPACE, p, (), PASSING)
    assert record.status is TransformStatus.ACCEPTED and record.reasons == () and record.logic == (8, 7, 6)


def test_an_op_outside_the_whitelist_is_rejected() -> None:
    p = proposal(TransformOp.DROP_CONSTRAINT, "sp:1", "waits stay under the published target")
    (reason,) = audit_transform(p, SPACE)
    assert "not in this space's allowed operations" in reason


def test_hard_constraints_and_fixed_assumptions_are_never_transformed() -> None:
    hard = proposal(TransformOp.RELAX_THRESHOLD, "hc:1", "no patient waits beyond the safe triage limit")
    fixed = proposal(TransformOp.NEGATE_ASSUMPTION, "af:1", "patients who need care are treated")
    assert "hard constraint" in audit_transform(hard, SPACE)[0]
    assert "fixed assumption" in audit_transform(fixed, SPACE)[0]
    # even with a passing verdict the audit's reason rejects it
    record = close_gate("t", "h1", SPACE, hard, audit_transform(hard, SPACE), PASSING)
    assert record.status is TransformStatus.REJECTED and "may never be transformed" in record.reasons[0]


def test_an_op_on_the_wrong_kind_of_element_or_an_unknown_id_is_rejected() -> None:
    wrong = proposal(TransformOp.SWAP_CAUSAL_DIRECTION, "am:1", "discharge happens once a day after the ward round")
    assert "cannot change a mutable assumption" in audit_transform(wrong, SPACE)[0]
    assert "not an element" in audit_transform(proposal(TransformOp.NEGATE_ASSUMPTION, "am:9", "x"), SPACE)[0]


def test_a_misquoted_or_unchanged_element_is_rejected() -> None:
    misquoted = proposal(TransformOp.NEGATE_ASSUMPTION, "am:1", "parking is free")
    same = proposal(
        TransformOp.NEGATE_ASSUMPTION,
        "am:1",
        "discharge happens once a day after the ward round",
        after="Discharge happens once a day, after the ward round",
    )
    assert "does not state am:1" in audit_transform(misquoted, SPACE)[0]
    assert "nothing is transformed" in audit_transform(same, SPACE)[0]


def test_add_new_primitive_targets_nothing() -> None:
    assert audit_transform(proposal(TransformOp.ADD_NEW_PRIMITIVE, "", "", "a discharge lounge"), SPACE) == ()
    assert audit_transform(proposal(TransformOp.ADD_NEW_PRIMITIVE, "p:1", "patient"), SPACE)


def test_a_failing_or_missing_logic_verdict_rejects_with_the_reason() -> None:
    p = proposal(TransformOp.NEGATE_ASSUMPTION, "am:1", "discharge happens once a day after the ward round")
    failed = close_gate("t", "h1", SPACE, p, (), LogicVerdict(8, 5.5, 9))
    missing = close_gate("t", "h1", SPACE, p, (), None)
    assert failed.status is TransformStatus.REJECTED and "logic check failed" in failed.reasons[0]
    assert missing.status is TransformStatus.REJECTED and "never accepted unverified" in missing.reasons[0]
    assert missing.logic is None
