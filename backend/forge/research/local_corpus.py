"""A ResearchProvider over a shipped Markdown corpus plus documents users add to their session.

Invariants:
    - The shipped index is built once, at construction; nothing is read or indexed at import time.
    - A session document is visible only to searches made with that session's id; a search without a
      session id sees the shipped corpus alone.
    - Session documents come with each search call (they live in the session's state, with sources
      assigned by `core.session_documents`), so the provider keeps no state that a restart could lose.
    - A session's searches rank shipped and session documents together in one BM25 index, so their
      scores are comparable; the combined index is cached until the session's documents change.
    - With a glossary, a session document in Chinese or Japanese is indexed with its bilingual-
      dictionary English gloss beside its own words (as topics: matched, never shown in a snippet),
      so an English query finds it; the gloss is made when the session's index is (re)built.
    - `load_shipped_corpus` fails loudly: a malformed file raises ValueError naming that file.
    - With an embedder, a search is the hybrid ranking memory uses too (`core.research.hybrid_ranking`):
      BM25 fused with each document's best passage cosine; a document sharing no term with the query
      is returned only when that cosine is at least SEMANTIC_ONLY_MIN. Passage vectors are kept by
      text, so a document is embedded once. Without one, BM25 alone.

Corpus file format:
    ---
    title: Little's law
    source: corpus://queueing/littles-law
    topics: queueing, operations research        (or [a, b], or a `- item` list; optional)
    ---
    Body text in Markdown.

    Unknown front-matter keys are ignored; values may be wrapped in matching quotes.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from forge.core.domain_types import SessionId
from forge.core.research.bm25_index import Bm25Index, IndexedDocument, build_bm25_index
from forge.core.research.hybrid_ranking import (
    DEFAULT_FUSION,
    SEMANTIC_ONLY_MIN,
    Fusion,
    best_passage_cosine,
    fuse,
    passages,
)
from forge.core.research.results import LOCAL_CORPUS
from forge.core.session.records import ResearchHit, SessionDocument
from forge.ports import Embedder, EnglishGlossary

PASSAGE_CACHE_LIMIT = 50_000

SHIPPED_CORPUS_DIR = Path(__file__).resolve().parent.parent / "knowledge" / "corpus"
"""Where the packaged corpus lives (`forge/knowledge/corpus/*.md`)."""

_FENCE = "---"
_KEY_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_\-]*)\s*:\s*(.*)$")
_LIST_ITEM = re.compile(r"^\s+-\s*(.*)$|^-\s+(.*)$")


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1].strip()
    return value


def _parse_topics(value: str) -> tuple[str, ...]:
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    return tuple(t for t in (_unquote(part) for part in value.split(",")) if t)


def parse_corpus_file(text: str, name: str) -> IndexedDocument:
    """Parse one front-matter Markdown document; `name` is used in error messages only."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != _FENCE:
        raise ValueError(f"{name}: corpus file must start with a '---' front-matter line")
    try:
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == _FENCE)
    except StopIteration:
        raise ValueError(f"{name}: front matter is not closed by a '---' line") from None

    fields: dict[str, str] = {}
    topics: list[str] = []
    list_key: str | None = None
    for number, line in enumerate(lines[1:close], start=2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _LIST_ITEM.match(line)
        if item and list_key is not None:
            value = _unquote(item.group(1) if item.group(1) is not None else item.group(2))
            if list_key == "topics" and value:
                topics.append(value)
            continue
        match = _KEY_LINE.match(line)
        if match is None:
            raise ValueError(f"{name}: line {number} of the front matter is not 'key: value': {line!r}")
        key, value = match.group(1).lower(), match.group(2).strip()
        if key in fields:
            raise ValueError(f"{name}: front-matter key {key!r} appears twice")
        fields[key] = value
        list_key = key if not value else None
        if key == "topics" and value:
            topics.extend(_parse_topics(value))

    title = _unquote(fields.get("title", ""))
    source = _unquote(fields.get("source", ""))
    missing = [key for key, value in (("title", title), ("source", source)) if not value]
    if missing:
        raise ValueError(f"{name}: front matter lacks a non-empty {' and '.join(missing)}")
    body = "\n".join(lines[close + 1 :]).strip()
    if not body:
        raise ValueError(f"{name}: corpus file has no body after the front matter")
    return IndexedDocument(source=source, title=title, text=body, topics=tuple(topics))


def load_shipped_corpus(directory: Path) -> list[IndexedDocument]:
    """Read every `*.md` file of `directory` (sorted by file name) into IndexedDocuments.

    Raises FileNotFoundError when `directory` is not a directory, and ValueError naming the file
    when a file is malformed or repeats another file's source.
    """
    if not directory.is_dir():
        raise FileNotFoundError(f"corpus directory not found: {directory}")
    docs: list[IndexedDocument] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.md")):
        doc = parse_corpus_file(path.read_text(encoding="utf-8"), str(path))
        if doc.source in seen:
            raise ValueError(f"{path}: source {doc.source!r} is already used by {seen[doc.source]}")
        seen[doc.source] = str(path)
        docs.append(doc)
    return docs


class LocalCorpusResearch:
    """Searches the shipped corpus plus, per call, the documents of the session that asks.

    The shipped index is built once; a session's combined index is cached under the tuple of its
    document sources, so it is rebuilt only when that session's documents change.
    """

    def __init__(
        self,
        documents: Iterable[IndexedDocument],
        embedder: Embedder | None = None,
        fusion: Fusion = DEFAULT_FUSION,
        *,
        glossary: EnglishGlossary | None = None,
    ) -> None:
        self._shipped: Bm25Index = build_bm25_index(documents)
        self._glossary = glossary
        self._session_index: dict[SessionId, tuple[tuple[str, ...], Bm25Index]] = {}
        self._embedder = embedder
        self._fusion = fusion
        self._passage_vectors: dict[str, list[float]] = {}

    @classmethod
    def from_directory(
        cls,
        directory: Path = SHIPPED_CORPUS_DIR,
        embedder: Embedder | None = None,
        glossary: EnglishGlossary | None = None,
    ) -> LocalCorpusResearch:
        return cls(load_shipped_corpus(directory), embedder, glossary=glossary)

    @property
    def name(self) -> str:
        return LOCAL_CORPUS

    def _index_for(self, session_id: SessionId | None, documents: Sequence[SessionDocument]) -> Bm25Index:
        if session_id is None or not documents:
            return self._shipped
        key = tuple(d.source for d in documents)
        cached = self._session_index.get(session_id)
        if cached is None or cached[0] != key:
            extra = [self._indexed(d) for d in documents]
            cached = (key, self._shipped.with_documents(extra))
            self._session_index[session_id] = cached
        return cached[1]

    def _indexed(self, document: SessionDocument) -> IndexedDocument:
        """The document as indexed: its own words, and in Chinese or Japanese its English gloss too."""
        gloss = self._glossary.english_gloss(f"{document.title}\n{document.text}") if self._glossary else ""
        return IndexedDocument(document.source, document.title, document.text, topics=(gloss,) if gloss else ())

    async def search(
        self,
        query: str,
        *,
        session_id: SessionId | None,
        limit: int = 5,
        session_documents: Sequence[SessionDocument] = (),
    ) -> Sequence[ResearchHit]:
        if self._glossary is not None and session_documents:  # glossing reads a dictionary: off the event loop
            index = await asyncio.to_thread(self._index_for, session_id, session_documents)
        else:
            index = self._index_for(session_id, session_documents)
        if self._embedder is None or not query.strip() or limit <= 0:
            return [ResearchHit(hit.source, hit.title, hit.snippet) for hit in index.search(query, limit)]
        semantic = await self._best_passage_cosines(self._embedder, query, index.documents)
        fused = fuse(index.scores(query), semantic, self._fusion)
        kept = [f for f in fused if f.lexical > 0 or f.semantic >= SEMANTIC_ONLY_MIN][:limit]
        titles = {d.source: d.title for d in index.documents}
        return [ResearchHit(f.key, titles[f.key], index.snippet(f.key, query)) for f in kept]

    async def _best_passage_cosines(
        self, embedder: Embedder, query: str, documents: Sequence[IndexedDocument]
    ) -> dict[str, float]:
        cut = {d.source: passages(d.title, d.text) for d in documents}
        wanted = list(dict.fromkeys(p for parts in cut.values() for p in parts))
        if len(self._passage_vectors) + len(wanted) > PASSAGE_CACHE_LIMIT:
            self._passage_vectors.clear()
        missing = [p for p in wanted if p not in self._passage_vectors]
        vectors = await embedder.embed([query, *missing])
        self._passage_vectors.update(zip(missing, vectors[1:], strict=True))
        known = self._passage_vectors
        return {source: best_passage_cosine(vectors[0], [known[p] for p in parts]) for source, parts in cut.items()}
