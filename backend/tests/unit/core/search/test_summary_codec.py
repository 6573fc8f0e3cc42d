from forge.core.hypotheses.pool import HypothesisId
from forge.core.search.summary import SearchSummary
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import decode_state, encode_state


def test_a_state_with_a_search_round_survives_the_codec() -> None:
    summary = SearchSummary(
        2, "research", "mome", (HypothesisId("biso-0-a-1"),), 12, 25, 24, {"refine": 6, "combine": 3}, 1, 2, 1, 0.25
    )
    state = ForgeState(problem="p", search=summary)
    assert decode_state(encode_state(state)).search == summary


def test_a_state_stored_before_search_existed_decodes_without_one() -> None:
    raw = encode_state(ForgeState(problem="p"))
    del raw["search"]
    assert decode_state(raw).search is None


def test_transform_gate_records_and_grounded_hypotheses_survive_the_codec() -> None:
    from support.scripted_search import found_trace

    from forge.core.explore.mapping_quality_gate import MappingTable
    from forge.core.hkg.structural_grounding import GroundingRequest
    from forge.core.hypotheses.pool import Hypothesis, gate_summary
    from forge.core.search.concept_space import SpaceOrigin, TransformOp
    from forge.core.search.transform_gate import TransformProposal, TransformRecord, TransformStatus
    from forge.core.session.state_codec import decode_dataclass, encode_value

    proposal = TransformProposal(TransformOp.NEGATE_ASSUMPTION, "am:1", "before", "after", "why")
    record = TransformRecord(
        "transform-0-3",
        "h1",
        "derived",
        SpaceOrigin.DERIVED,
        proposal,
        TransformStatus.REJECTED,
        ("no verdict",),
        (8.0, 4.0, 7.5),
    )
    summary = SearchSummary(
        0,
        "research",
        "mome",
        (),
        3,
        9,
        8,
        transforms=(record,),
        ungrounded=1,
        concept_space="Derived",
        hkg_paths={"HKG_PATH_FOUND": 2},
    )
    assert decode_state(encode_state(ForgeState(problem="p", search=summary))).search == summary
    trace = found_trace(GroundingRequest.for_hyperpath_expand(("a",), ("b",)))
    child = Hypothesis(
        HypothesisId("c"),
        "d",
        "D",
        "s",
        "t",
        "statement",
        "m",
        MappingTable(()),
        "o",
        (),
        gate_summary(MappingTable(()), "x"),
        "hyperpath_expand",
        (HypothesisId("p"),),
        hyperpath=trace,
        transform=record,
        structural_grounding=7.5,
    )
    assert decode_dataclass(encode_value(child), Hypothesis) == child
