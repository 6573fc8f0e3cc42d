"""Documents a person adds to a session: validation and a stable, unique `session://` source.

Invariants:
    - A source is `session://<session id>/<slug of the title>`, unique within the session
      (`-2`, `-3`... on collision), so research results and evidence can always name it.
    - Pure: the caller supplies the time and persists the returned document.
"""

from __future__ import annotations

import re
from datetime import datetime

from forge.core.domain_types import SessionId
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.records import SessionDocument

MAX_TITLE_CHARS = 200
MIN_TEXT_CHARS = 20
MAX_TEXT_CHARS = 100_000
MAX_DOCUMENTS = 50
_SEPARATOR = re.compile(r"[^a-z0-9]+")


def slugify(title: str, limit: int = 60) -> str:
    slug = _SEPARATOR.sub("-", title.lower()).strip("-")[:limit].strip("-")
    return slug or "document"


def _problem(title: str, text: str, count: int) -> str | None:
    if not 1 <= len(title) <= MAX_TITLE_CHARS:
        return f"title must be 1..{MAX_TITLE_CHARS} characters after trimming; got {len(title)}."
    if not MIN_TEXT_CHARS <= len(text) <= MAX_TEXT_CHARS:
        return f"text must be {MIN_TEXT_CHARS}..{MAX_TEXT_CHARS} characters after trimming; got {len(text)}."
    if count >= MAX_DOCUMENTS:
        return f"a session holds at most {MAX_DOCUMENTS} documents."
    return None


def new_session_document(
    existing: list[SessionDocument], session_id: SessionId, title: str, text: str, at: datetime
) -> SessionDocument | RuleViolation:
    title, text = title.strip(), text.strip()
    problem = _problem(title, text, len(existing))
    if problem:
        return RuleViolation(ErrorCode.INVALID_INPUT, problem)
    base = f"session://{session_id}/{slugify(title)}"
    taken = {d.source for d in existing}
    source, n = base, 1
    while source in taken:
        n += 1
        source = f"{base}-{n}"
    return SessionDocument(source, title, text, at)
