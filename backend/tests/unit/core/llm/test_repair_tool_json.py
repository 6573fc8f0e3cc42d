"""Tolerant parsing of tool-call JSON: strict first, then deterministic repairs, else a clear error."""

from __future__ import annotations

import time
from typing import Any

import pytest

from forge.core.llm.repair_tool_json import (
    ArgumentsError,
    ParsedArguments,
    TextToolCall,
    TextToolCalls,
    find_text_tool_calls,
    parse_tool_arguments,
)


def _repaired(raw: str) -> dict[str, Any]:
    result = parse_tool_arguments(raw)
    assert isinstance(result, ParsedArguments), result
    assert result.repaired
    return result.arguments


def _error(raw: str) -> str:
    result = parse_tool_arguments(raw)
    assert isinstance(result, ArgumentsError), result
    return result.message


class TestStrictJson:
    def test_valid_json_is_returned_as_is_and_not_marked_repaired(self) -> None:
        assert parse_tool_arguments('{"query": "x", "n": [1, 2]}') == ParsedArguments(
            {"query": "x", "n": [1, 2]}, False
        )

    def test_blank_arguments_mean_no_arguments(self) -> None:
        assert parse_tool_arguments("") == ParsedArguments({}, False)
        assert parse_tool_arguments("  \n") == ParsedArguments({}, False)

    def test_strings_that_look_repairable_are_left_alone_when_the_json_is_valid(self) -> None:
        raw = '{"text": "True, None, {a: 1,}, \'quoted\'"}'
        assert parse_tool_arguments(raw) == ParsedArguments({"text": "True, None, {a: 1,}, 'quoted'"}, False)


class TestRepairs:
    def test_markdown_code_fences_are_stripped(self) -> None:
        assert _repaired('```json\n{"query": "x"}\n```') == {"query": "x"}

    def test_the_outermost_object_is_taken_out_of_surrounding_prose(self) -> None:
        raw = 'Sure! Here are the arguments: {"a": {"b": "}"}} Let me know. }'
        assert _repaired(raw) == {"a": {"b": "}"}}

    def test_trailing_commas_are_dropped(self) -> None:
        assert _repaired('{"a": [1, 2,], "b": {"c": 3,},}') == {"a": [1, 2], "b": {"c": 3}}

    def test_single_quoted_strings_are_requoted_keeping_apostrophes_and_double_quotes(self) -> None:
        assert _repaired("{'a': 'don't stop', 'b': 'say \"hi\"', 'c': 'it\\'s'}") == {
            "a": "don't stop",
            "b": 'say "hi"',
            "c": "it's",
        }

    def test_apostrophes_inside_double_quoted_strings_are_not_touched(self) -> None:
        assert _repaired('{"a": "it\'s", \'b\': 1}') == {"a": "it's", "b": 1}

    def test_python_literals_become_json_literals(self) -> None:
        assert _repaired('{"a": True, "b": False, "c": None, "d": "True"}') == {
            "a": True,
            "b": False,
            "c": None,
            "d": "True",
        }

    def test_unquoted_keys_are_quoted(self) -> None:
        assert _repaired('{query: "x", max_results: 3, nested: {deep_key: true}}') == {
            "query": "x",
            "max_results": 3,
            "nested": {"deep_key": True},
        }

    @pytest.mark.parametrize(
        ("raw", "expected"),
        [
            ('{"query": "hospital wai', {"query": "hospital wai"}),
            ('{"a": [1, 2', {"a": [1, 2]}),
            ('{"a": {"b": 1', {"a": {"b": 1}}),
            ('{"a": 1,', {"a": 1}),
            ('{"a": 1, "b":', {"a": 1}),
            ('{"a": 1, "b"', {"a": 1}),
            ('{"a": 1, "b": tr', {"a": 1}),
            ('{"a": 12.', {"a": 12}),
            ('{"a": "x\\', {"a": "x"}),
            ('{"a": "x\\u00', {"a": "x"}),
        ],
    )
    def test_a_truncated_end_is_closed_dropping_what_cannot_end_a_value(
        self, raw: str, expected: dict[str, Any]
    ) -> None:
        assert _repaired(raw) == expected

    @pytest.mark.parametrize(
        ("raw", "unclosed"),
        [
            ('{"query": "hospital wai', True),
            ('{"a": "x\\u00', True),
            ('{"a": 1, "b', True),  # a key cut: dropped, but the text still ended inside it
            ("{'text': 'it never ends", True),
            ('{"a": "&#34;x&#34;}]}', True),  # an HTML-escaped quote never closes the string
            ('{"a": [1, 2', False),
            ('{"a": "x", "b":', False),
            ("{'a': 'x',}", False),
        ],
    )
    def test_the_repair_says_when_the_text_ended_inside_a_string(self, raw: str, unclosed: bool) -> None:
        result = parse_tool_arguments(raw)
        assert isinstance(result, ParsedArguments) and result.repaired
        assert result.unclosed_string is unclosed

    def test_valid_json_is_never_marked_as_ending_inside_a_string(self) -> None:
        result = parse_tool_arguments('{"a": "&#34;x"}')
        assert isinstance(result, ParsedArguments) and not result.unclosed_string

    def test_a_bracket_left_open_inside_is_closed_by_the_outer_closer(self) -> None:
        assert _repaired('{"a": [1, 2}') == {"a": [1, 2]}

    def test_a_json_string_holding_an_object_is_unwrapped(self) -> None:
        assert _repaired('"{\\"query\\": \\"x\\"}"') == {"query": "x"}

    def test_a_double_encoded_object_with_its_own_flaws_is_repaired_too(self) -> None:
        assert _repaired("\"{'query': 'x',}\"") == {"query": "x"}

    def test_raw_newlines_inside_strings_are_accepted(self) -> None:
        assert _repaired('{"text": "line one\nline two"}') == {"text": "line one\nline two"}

    def test_repairs_combine(self) -> None:
        raw = "Calling now:\n```json\n{query: 'ER waits', exact: True, tags: ['a', 'b',],"
        assert _repaired(raw) == {"query": "ER waits", "exact": True, "tags": ["a", "b"]}

    def test_the_same_text_always_gives_the_same_result(self) -> None:
        raw = "{query: 'x', n: [1, {m: None,"
        assert len({repr(parse_tool_arguments(raw)) for _ in range(5)}) == 1


class TestFailures:
    @pytest.mark.parametrize(
        ("raw", "kind"), [("[1, 2]", "a list"), ("42", "a number"), ("null", "null"), ('"hello"', "a string")]
    )
    def test_a_value_that_is_not_an_object_is_an_error(self, raw: str, kind: str) -> None:
        assert f"expected a JSON object, got {kind}" in _error(raw)

    def test_text_with_no_object_says_so_and_quotes_it(self) -> None:
        message = _error("search for hospital waits")
        assert "no {...} object" in message and '"search for hospital waits"' in message

    def test_an_unrepairable_object_says_what_was_wrong_and_quotes_the_first_80_characters(self) -> None:
        raw = '{"query": hospital emergency waits, "note": "' + "x" * 200 + '"}'
        message = _error(raw)
        assert "not valid JSON (Expecting value at character 10)" in message
        assert message.endswith('"' + raw[:80].replace('"', '\\"') + '"…')

    def test_nesting_too_deep_to_read_is_an_error_not_a_crash(self) -> None:
        assert "nested too deeply" in _error("[" * 100_000 + "]" * 100_000)
        assert "nested too deeply" in _error('{"a": ' + "[" * 100_000)


class TestToolCallsWrittenAsText:
    NAMES = frozenset({"research", "extract_assumptions"})

    def test_a_bare_json_call_becomes_a_call_and_the_prose_stays(self) -> None:
        text = 'I will search. {"name": "research", "arguments": {"query": "x"}}'
        assert find_text_tool_calls(text, self.NAMES) == TextToolCalls(
            (TextToolCall("research", {"query": "x"}),), "I will search."
        )

    def test_a_fenced_call_with_parameters_is_found(self) -> None:
        text = 'Plan:\n```json\n{"name": "research", "parameters": {"query": "x"}}\n```\nDone.'
        found = find_text_tool_calls(text, self.NAMES)
        assert found == TextToolCalls((TextToolCall("research", {"query": "x"}),), "Plan:\n\nDone.")

    def test_calls_in_tool_call_tags_are_found_even_unclosed(self) -> None:
        text = (
            '<tool_call>\n{"name": "research", "arguments": {"query": "a"}}\n</tool_call>\n'
            '<tool_call>\n{"name": "extract_assumptions", "arguments": {"assumptions": ["b"]}'
        )
        found = find_text_tool_calls(text, self.NAMES)
        assert found is not None and found.remaining_text == ""
        assert found.calls == (
            TextToolCall("research", {"query": "a"}),
            TextToolCall("extract_assumptions", {"assumptions": ["b"]}),
        )

    def test_a_list_of_calls_and_the_function_wrapper_are_understood(self) -> None:
        text = '[{"type": "function", "function": {"name": "research", "arguments": "{\\"query\\": \\"a\\"}"}}]'
        found = find_text_tool_calls(text, self.NAMES)
        assert found == TextToolCalls((TextToolCall("research", {"query": "a"}),), "")

    def test_unreadable_arguments_in_a_text_call_give_a_call_with_a_parse_error(self) -> None:
        found = find_text_tool_calls('{"name": "research", "arguments": "search for x"}', self.NAMES)
        assert found is not None
        (call,) = found.calls
        assert call.name == "research" and call.arguments == {} and call.parse_error

    @pytest.mark.parametrize(
        "text",
        [
            "Queues grow when arrivals outpace service.",
            '{"name": "delete_everything", "arguments": {}}',
            'An example: {"query": "x"} and a list [1, 2].',
            '[{"name": "research", "arguments": {}}, {"name": "unknown"}]',
        ],
    )
    def test_text_without_a_call_to_an_offered_tool_is_left_alone(self, text: str) -> None:
        assert find_text_tool_calls(text, self.NAMES) is None

    @pytest.mark.parametrize(
        "text",
        ["{" * 50_000, "{'a " * 50_000, "[{x " * 50_000, 'prose {"k": ' * 20_000, "{a b c d e " * 20_000],
        ids=["open-braces", "open-quotes", "junk-lists", "dangling-keys", "words"],
    )
    def test_long_text_full_of_brackets_is_read_in_linear_time(self, text: str) -> None:
        started = time.perf_counter()
        assert find_text_tool_calls(text, self.NAMES) is None
        assert isinstance(parse_tool_arguments(text), ArgumentsError | ParsedArguments)
        assert time.perf_counter() - started < 2.0

    def test_no_offered_tools_means_no_text_calls(self) -> None:
        assert find_text_tool_calls('{"name": "research", "arguments": {}}', ()) is None
