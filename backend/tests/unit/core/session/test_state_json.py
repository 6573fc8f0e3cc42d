"""The C state codec: lossless, and interchangeable with the reflective codec in both directions."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from support.rich_state import rich_state

from forge.core.domain_types import Phase
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import decode_state, encode_state
from forge.core.session.state_json import copy_state, decode_state_json, encode_state_json


def test_rich_state_round_trips_exactly() -> None:
    s = rich_state()
    assert decode_state_json(encode_state_json(s)) == s


def test_default_state_round_trips() -> None:
    assert decode_state_json(encode_state_json(ForgeState())) == ForgeState()


def test_its_text_is_read_by_the_reflective_codec() -> None:
    s = rich_state()
    assert decode_state(json.loads(encode_state_json(s))) == s


def test_it_reads_the_reflective_codecs_text() -> None:
    s = rich_state()
    assert decode_state_json(json.dumps(encode_state(s))) == s


def test_both_codecs_write_the_same_json_but_for_set_order_and_the_utc_suffix() -> None:
    s = rich_state()
    fast = json.loads(encode_state_json(s).replace('Z"', '+00:00"'))
    slow = encode_state(s)
    for key in ("antitheses_searched", "novelty_checked", "falsification_attempted"):
        fast[key], slow[key] = sorted(fast[key]), sorted(slow[key])
    assert fast == slow


def test_types_come_back_as_declared() -> None:
    decoded = decode_state_json(encode_state_json(rich_state()))
    assert decoded.current_phase is Phase.BUILD
    assert isinstance(decoded.antitheses_searched, set)
    assert isinstance(decoded.current_round_claims[0].evidence, tuple)
    assert decoded.research_log[1].at.utcoffset() == rich_state().research_log[1].at.utcoffset()


def test_a_value_of_another_type_is_read_by_the_reflective_codec() -> None:
    raw = encode_state(ForgeState(problem="p", current_round=2))
    raw["problem"] = 42  # msgspec refuses an int for a str field; the reflective codec keeps it
    assert decode_state_json(json.dumps(raw)) == decode_state(raw)


def test_a_nan_token_from_an_old_row_is_read() -> None:
    s = rich_state()
    claim = s.current_round_claims[0]
    assert claim.scores is not None
    s.current_round_claims[0] = replace(claim, scores=replace(claim.scores, novelty=float("nan")))
    text = json.dumps(encode_state(s))
    assert "NaN" in text
    decoded = decode_state_json(text)
    assert decoded.current_round_claims[0].scores is not None
    assert decoded.current_round_claims[0].scores.novelty != decoded.current_round_claims[0].scores.novelty


def test_an_unknown_enum_value_is_refused_as_before() -> None:
    raw = encode_state(ForgeState(problem="p"))
    raw["current_phase"] = "no_such_phase"
    with pytest.raises(ValueError, match="not a valid Phase"):
        decode_state_json(json.dumps(raw))


def test_unknown_keys_are_ignored_and_missing_keys_take_defaults() -> None:
    assert decode_state_json('{"problem": "p", "from_the_future": 1}') == ForgeState(problem="p")
    assert decode_state_json('{"problem": "p", "current_round": 2}') == ForgeState(problem="p", current_round=2)


def test_a_lone_surrogate_is_encoded_by_the_reflective_codec() -> None:
    s = ForgeState(problem="half a pair: \ud800")
    assert decode_state_json(encode_state_json(s)) == s


def test_copy_state_is_equal_and_independent() -> None:
    s = rich_state()
    copied = copy_state(s)
    assert copied == s
    copied.antitheses_searched.add(99)
    copied.research_log.clear()
    assert s == rich_state()
