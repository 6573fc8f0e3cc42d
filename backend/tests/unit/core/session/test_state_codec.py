"""The state codec: lossless JSON round trip of ForgeState and every record it holds."""

from __future__ import annotations

import json
from datetime import timedelta
from uuid import UUID

import pytest
from support.rich_state import UTC_TIME, rich_state, uid

from forge.core.domain_types import (
    ClaimType,
    Phase,
    ReviewType,
)
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    ClaimScores,
    ResearchHit,
)
from forge.core.session.state_codec import decode_state, decode_value, encode_state, encode_value


def test_rich_state_round_trips_exactly() -> None:
    s = rich_state()
    assert decode_state(encode_state(s)) == s


def test_rich_state_round_trips_through_json_text() -> None:
    s = rich_state()
    text = json.dumps(encode_state(s))
    assert decode_state(json.loads(text)) == s


def test_default_state_round_trips() -> None:
    s = ForgeState()
    assert decode_state(json.loads(json.dumps(encode_state(s)))) == s


def test_encoded_state_is_plain_json() -> None:
    def assert_plain(value: object) -> None:
        if isinstance(value, dict):
            assert all(isinstance(k, str) for k in value)
            for v in value.values():
                assert_plain(v)
        elif isinstance(value, list):
            for v in value:
                assert_plain(v)
        else:
            assert value is None or type(value) in (str, int, float, bool)

    assert_plain(encode_state(rich_state()))


def test_encoded_state_is_json_serialisable_without_a_default_hook() -> None:
    json.dumps(encode_state(rich_state()), allow_nan=False)


def test_sets_encode_as_sorted_lists() -> None:
    encoded = encode_state(rich_state())
    assert encoded["antitheses_searched"] == [0, 1, 2]
    assert encoded["novelty_checked"] == []


def test_sets_decode_as_sets() -> None:
    decoded = decode_state(encode_state(rich_state()))
    assert decoded.antitheses_searched == {0, 1, 2}
    assert isinstance(decoded.falsification_attempted, set)


def test_enums_encode_as_their_wire_values() -> None:
    encoded = encode_state(rich_state())
    assert encoded["current_phase"] == "build"
    assert encoded["awaiting_input_type"] == "build_decision"
    assert encoded["current_round_claims"][0]["status"] == "qualified"


def test_enums_and_ids_decode_to_their_types() -> None:
    decoded = decode_state(encode_state(rich_state()))
    assert decoded.current_phase is Phase.BUILD
    assert decoded.awaiting_input_type is ReviewType.BUILD_DECISION
    claim = decoded.current_round_claims[0]
    assert isinstance(claim.id, UUID)
    assert claim.claim_type is ClaimType.SYNTHESIS
    assert isinstance(decoded.deep_dive_target_claim_id, UUID)


def test_uuids_encode_as_canonical_strings() -> None:
    encoded = encode_state(rich_state())
    assert encoded["deep_dive_target_claim_id"] == str(uid(12))


def test_datetimes_keep_their_timezone() -> None:
    decoded = decode_state(json.loads(json.dumps(encode_state(rich_state()))))
    assert decoded.research_log[0].at == UTC_TIME
    assert decoded.research_log[0].at.utcoffset() == timedelta(0)
    assert decoded.research_log[1].at.utcoffset() == timedelta(hours=2)
    assert decoded.current_round_claims[0].evidence[0].retrieved_at == UTC_TIME


def test_tuples_decode_as_tuples() -> None:
    decoded = decode_state(encode_state(rich_state()))
    claim = decoded.current_round_claims[0]
    assert isinstance(claim.evidence, tuple)
    assert isinstance(claim.builds_on, tuple)
    assert isinstance(decoded.research_log[0].hits, tuple)


def test_nones_survive_the_round_trip() -> None:
    s = rich_state()
    s.state_of_art = None
    s.deep_dive_target_claim_id = None
    s.awaiting_input_type = None
    s.knowledge_document_markdown = None
    decoded = decode_state(json.loads(json.dumps(encode_state(s))))
    assert decoded == s
    assert decoded.state_of_art is None
    assert decoded.current_round_claims[1].scores is None
    assert decoded.assumptions[0].confirmed is None
    assert decoded.assumptions[2].confirmed is False


def test_integral_float_scores_come_back_as_floats() -> None:
    raw = encode_value(ClaimScores(1.0, 0.0, 1.0, 0.5))
    raw_with_ints = {k: int(v) if v in (0.0, 1.0) else v for k, v in raw.items()}
    decoded = decode_value(raw_with_ints, ClaimScores)
    assert decoded == ClaimScores(1.0, 0.0, 1.0, 0.5)
    assert all(isinstance(getattr(decoded, f), float) for f in ("novelty", "groundedness", "falsifiability"))


def test_every_record_type_round_trips_on_its_own() -> None:
    s = rich_state()
    samples: list[object] = [
        s.research_log[0],
        s.research_log[0].hits[0],
        s.current_round_claims[0].evidence[0],
        s.assumptions[1],
        s.reframings[0],
        s.state_of_art,
        s.morphological_box[0],
        s.cross_domain_analogies[0],
        s.cross_domain_analogies[0].mapping[0],
        s.contradictions[0],
        s.current_round_claims[0].scores,
        s.current_round_claims[0],
        s.knowledge_graph_edges[0],
        s.negative_knowledge[0],
    ]
    for sample in samples:
        assert decode_value(json.loads(json.dumps(encode_value(sample))), type(sample)) == sample


def test_decoding_ignores_unknown_keys() -> None:
    raw = encode_state(ForgeState(problem="p"))
    raw["a_field_from_the_future"] = 42
    assert decode_state(raw) == ForgeState(problem="p")


def test_decoding_missing_keys_falls_back_to_defaults() -> None:
    decoded = decode_state({"problem": "p", "current_round": 2})
    assert decoded == ForgeState(problem="p", current_round=2)


def test_encoding_does_not_mutate_the_state() -> None:
    s = rich_state()
    before = decode_state(encode_state(s))
    encode_state(s)
    assert s == before


def test_an_unknown_enum_value_is_refused_as_the_enum_refuses_it() -> None:
    with pytest.raises(ValueError, match="not a valid Phase"):
        decode_value("no_such_phase", Phase)


def test_encoding_a_subclass_of_a_container_uses_the_containers_rule() -> None:
    class Ids(list[int]):
        pass

    class Tags(frozenset[str]):
        pass

    assert encode_value({"ids": Ids([3, 1]), "tags": Tags({"b", "a"})}) == {"ids": [3, 1], "tags": ["a", "b"]}


def test_an_optional_list_of_records_decodes_none_and_items() -> None:
    annotation = list[ResearchHit] | None
    assert decode_value(None, annotation) is None
    hit = ResearchHit("https://s1.example", "Title 1", "snippet")
    assert decode_value(encode_value([hit]), annotation) == [hit]
