from forge.core.forge_state import ForgeState
from forge.core.hypothesis_pool import HypothesisId
from forge.core.search_summary import SearchSummary
from forge.core.state_codec import decode_state, encode_state


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
