"""Escaping user text and links for Markdown: no HTML, no link but http/https/mailto."""

from __future__ import annotations

import pytest

from forge.core.document.markdown_safety import (
    escape_inline,
    escape_markdown,
    is_safe_link,
    markdown_link,
    mermaid_label,
)


def test_html_becomes_entities() -> None:
    assert escape_markdown("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert escape_markdown('<img src=x onerror="alert(1)">') == '&lt;img src=x onerror="alert(1)"&gt;'
    assert escape_markdown("R&D") == "R&amp;D"


def test_link_image_code_and_table_syntax_is_backslash_escaped() -> None:
    assert escape_markdown("[x](javascript:alert(1))") == "\\[x\\](javascript:alert(1))"
    assert escape_markdown("![i](data:x)") == "!\\[i\\](data:x)"
    assert escape_markdown("a | b `c` \\") == "a \\| b \\`c\\` \\\\"


def test_plain_words_and_emphasis_are_left_as_written() -> None:
    assert escape_markdown("Triage *cuts* waits by 20% — at night.") == "Triage *cuts* waits by 20% — at night."


def test_inline_text_cannot_start_a_block_of_its_own() -> None:
    assert escape_inline("one\n# heading\n\n[ref]: javascript:x") == "one # heading \\[ref\\]: javascript:x"


@pytest.mark.parametrize(
    "url", ["https://example.org/a", "http://example.org", "mailto:a@example.org", "HTTPS://X.ORG"]
)
def test_web_and_mail_urls_are_links(url: str) -> None:
    assert is_safe_link(url)
    assert markdown_link("Title", url) == f"[Title]({url})"


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<b>x</b>",
        "file:///etc/passwd",
        "vbscript:msgbox(1)",
        "corpus://queueing/littles-law",
        "//evil.example/x",
        "https://example.org/a b",
    ],
)
def test_any_other_url_is_shown_as_escaped_text(url: str) -> None:
    assert not is_safe_link(url)
    shown = markdown_link("Title", url)
    assert not shown.startswith("[") and "](" not in shown and "<" not in shown
    assert shown.startswith("Title (")


def test_a_link_destination_cannot_be_closed_early_or_carry_html() -> None:
    link = markdown_link("t", 'https://example.org/a)(b"<c>')
    assert link == "[t](https://example.org/a%29%28b%22%3Cc%3E)"


def test_a_title_cannot_close_the_link_text() -> None:
    assert markdown_link("a](javascript:x) [b", "https://ok.example") == "[a\\](javascript:x) \\[b](https://ok.example)"


def test_mermaid_labels_are_one_line_without_quotes_or_html() -> None:
    label = mermaid_label('say "hi"\n<img src=x onerror=alert(1)>')
    assert "\n" not in label and '"' not in label and "<" not in label and ">" not in label
