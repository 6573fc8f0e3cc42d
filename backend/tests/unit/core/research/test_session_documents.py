from __future__ import annotations

import uuid
from datetime import UTC, datetime

from forge.core.domain_types import SessionId
from forge.core.research.session_documents import MAX_DOCUMENTS, new_session_document, slugify
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.records import SessionDocument

SID = SessionId(uuid.UUID(int=1))
AT = datetime(2026, 1, 1, tzinfo=UTC)
TEXT = "A document long enough to be indexed and searched."


def test_source_is_the_session_and_a_slug_of_the_title() -> None:
    doc = new_session_document([], SID, "  Field Notes!  ", TEXT, AT)
    assert isinstance(doc, SessionDocument)
    assert doc.source == f"session://{SID}/field-notes" and doc.title == "Field Notes!"


def test_sources_stay_unique_within_a_session() -> None:
    docs: list[SessionDocument] = []
    for _ in range(3):
        doc = new_session_document(docs, SID, "Field notes", TEXT, AT)
        assert isinstance(doc, SessionDocument)
        docs.append(doc)
    base = f"session://{SID}/field-notes"
    assert [d.source for d in docs] == [base, f"{base}-2", f"{base}-3"]


def test_untitled_slug_falls_back_to_document() -> None:
    assert slugify("???") == "document"


def test_refuses_blank_title_short_text_and_too_many_documents() -> None:
    for title, text in (("   ", TEXT), ("Title", "short")):
        verdict = new_session_document([], SID, title, text, AT)
        assert isinstance(verdict, RuleViolation) and verdict.code == ErrorCode.INVALID_INPUT
    full = [SessionDocument(f"session://{SID}/d{i}", "d", TEXT, AT) for i in range(MAX_DOCUMENTS)]
    verdict = new_session_document(full, SID, "one more", TEXT, AT)
    assert isinstance(verdict, RuleViolation) and "at most" in verdict.message
