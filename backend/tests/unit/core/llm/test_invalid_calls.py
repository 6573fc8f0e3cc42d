"""A streak of calls refused as invalid input: counted, reset by any usable call, stopped at six."""

from __future__ import annotations

from forge.core.llm.invalid_calls import STOP_AFTER, InvalidCallStreak, escaped_quote_at, escaped_quote_hint

MISSING = "Invalid input — reframings.0.reframing_type: Field required"


def test_six_invalid_calls_in_a_row_stop_the_run_and_five_do_not() -> None:
    streak = InvalidCallStreak()
    verdicts = [streak.observe(f"tool_{i}", "INVALID_INPUT", MISSING) for i in range(6)]

    assert STOP_AFTER == 6
    assert verdicts == [False] * 5 + [True]


def test_a_call_that_ran_or_was_refused_for_another_reason_resets_the_count() -> None:
    streak = InvalidCallStreak(stop_after=3)
    seen = [
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
        streak.observe("research", None, ""),  # it ran
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
        streak.observe("map_state_of_art", "STATE_OF_ART_NOT_RESEARCHED", "Research first."),
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
        streak.observe("reframe_problem", "INVALID_INPUT", MISSING),
    ]

    assert seen == [False] * 8 + [True]


def test_unreadable_arguments_count_whatever_code_refused_them() -> None:
    streak = InvalidCallStreak(stop_after=2)

    assert not streak.observe("research", "INVALID_INPUT", "The arguments were not valid JSON", unreadable=True)
    assert streak.observe("research", "REPEATED_CALL", "unreadable call number 3", unreadable=True)


def test_the_stop_message_names_the_tool_quotes_the_last_error_briefly_and_says_what_to_do() -> None:
    streak = InvalidCallStreak(stop_after=2)
    streak.observe("extract_assumptions", "INVALID_INPUT", "Invalid input — assumptions: Field required")
    streak.observe("reframe_problem", "INVALID_INPUT", MISSING + "; " + "x" * 400)

    message = streak.stop_message()
    assert "last 2 calls" in message and "'reframe_problem'" in message
    assert '"reframings.0.reframing_type: Field required; xxx' in message and "x" * 200 not in message
    assert "…" in message and "larger model" in message and 'README "Real models"' in message


def test_an_html_escaped_quote_is_found_by_its_path_and_plain_text_is_not() -> None:
    assert escaped_quote_at({"reframings": [{"text": "ok"}, {"text": "a&#34;, &#34;b"}]}) == "reframings[1].text"
    assert escaped_quote_at({"summary": "said &amp;quot;no&amp;quot;"}) == "summary"
    assert escaped_quote_at({"summary": "Fish &amp; chips cost 3 &lt; 4", "n": 3}) is None
    assert escaped_quote_hint({"text": 'a "quoted" word'}) == ""
