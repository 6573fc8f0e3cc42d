"""Cross-language research by query rendering: a query written in another language than the corpus's
is searched as written and as the model rendered it in the corpus's language, and the results say
which query found what.

Invariants:
    - Pure. The corpus's language is English (the shipped primers); a query's language is decided by
      its majority script (`core.document.problem_language`): only zh and ja differ from it today.
    - `merged_by_query` takes each query's hits in rank order and interleaves them (the first of each,
      then the second of each, ...), a source once (where it was found first), at most `limit` hits;
      `found_by` maps every kept source to the query that found it.
    - `searched_queries(record)` is the query and its renderings: what a research gate compares a
      subject with (`core.rules.phase_gates`).

Design decisions (measured, see `providers/sentence_embedder.py`): the embedder the product ships is
English-only (a Chinese sentence scores ~0.04 cosine to its English source) and no multilingual model
is installable offline, so meaning crosses languages through the model's rendering of the query, not
through vectors. The offline model cannot render a query: a bilingual dictionary's word-by-word
gloss stands in, labelled as such (`DICTIONARY_RENDERING`, `dictionary_gloss_warning`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from forge.core.document.problem_language import DocumentLanguage, problem_language
from forge.core.session.records import ResearchHit, ResearchRecord

CORPUS_LANGUAGE = DocumentLanguage.EN


def needs_rendering(query: str, corpus: DocumentLanguage = CORPUS_LANGUAGE) -> bool:
    """True when `query` is written in another language than the corpus's."""
    return problem_language(query) is not corpus


def no_rendering_warning(query: str, reason: str) -> str:
    """The honest note when a query in another language was searched as written only."""
    return (
        f"The shipped corpus is in English and “{query}” is not: {reason}, so only documents in the "
        "query's own language (the person's attachments) could match it. Query in English to search the corpus."
    )


OFFLINE_RENDERING_REASON = "no model is configured to render it in English (the offline model cannot translate)"

MODEL_RENDERING = "model"
DICTIONARY_RENDERING = "dictionary"
"""What made a rendering (`ResearchResults.rendered_by`): a model's translation, or a bilingual
dictionary's word-by-word gloss (no model; `core.research.dictionary_gloss`)."""


def dictionary_gloss_warning(query: str, gloss: str, reason: str) -> str:
    """The honest note when a query was searched as a dictionary gloss instead of a model's rendering."""
    return (
        f"The shipped corpus is in English and “{query}” is not: {reason}, so it was searched as written and "
        f"as a word-by-word bilingual dictionary gloss (“{gloss}”), not a translation by a model: results found "
        "by the gloss may miss what the query means. Query in English to search the corpus in your own words."
    )


def searched_queries(record: ResearchRecord) -> tuple[str, ...]:
    return (record.query, *record.renderings)


@dataclass(frozen=True, slots=True)
class MergedHits:
    hits: tuple[ResearchHit, ...]
    found_by: dict[str, str] = field(default_factory=dict)  # source -> the query that found it


def merged_by_query(found: Sequence[tuple[str, Sequence[ResearchHit]]], limit: int) -> MergedHits:
    kept: list[ResearchHit] = []
    found_by: dict[str, str] = {}
    depth = max((len(hits) for _, hits in found), default=0)
    for rank in range(depth):
        for query, hits in found:
            if rank < len(hits) and hits[rank].source not in found_by and len(kept) < limit:
                kept.append(hits[rank])
                found_by[hits[rank].source] = query
    return MergedHits(tuple(kept), found_by)
