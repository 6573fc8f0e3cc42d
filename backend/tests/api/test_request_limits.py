"""What an error message repeats of a bad value: at most 32 characters, quoted, unprintables escaped."""

from __future__ import annotations

import pytest

from forge.api.request_limits import MAX_ECHO_CHARS, MAX_INT64, quote_input
from forge.api.sse_encoding import parse_last_event_id


def test_a_short_value_is_quoted_whole() -> None:
    assert quote_input("x" * MAX_ECHO_CHARS) == repr("x" * MAX_ECHO_CHARS)


def test_a_long_value_is_cut_to_its_first_characters_and_an_ellipsis() -> None:
    assert quote_input("0123456789" * 500) == repr(("0123456789" * 4)[:MAX_ECHO_CHARS]) + "…"


def test_control_characters_and_lone_surrogates_are_escaped() -> None:
    assert quote_input("a\x00b\ud800") == "'a\\x00b\\ud800'"


@pytest.mark.parametrize(
    ("header", "query", "expected"),
    [
        (None, None, 0),
        ("", None, 0),
        ("17", None, 17),
        ("17", "4", 4),
        (None, "0009", 9),
        (None, str(MAX_INT64), MAX_INT64),
    ],
)
def test_the_cursor_is_the_query_or_else_the_header(header: str | None, query: str | None, expected: int) -> None:
    assert parse_last_event_id(header, query) == expected


def test_a_cursor_with_many_leading_zeros_is_still_its_value() -> None:
    assert parse_last_event_id("0" * 100 + "5", None) == 5
