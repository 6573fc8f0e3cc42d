from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest

from forge.core.domain_types import SessionId
from forge.core.research.bm25_index import IndexedDocument
from forge.core.session.records import ResearchHit, SessionDocument
from forge.ports import ResearchProvider
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.providers.sentence_embedder import SentenceEmbedder
from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus

LITTLE = """---
title: Little's law
source: https://example.org/littles-law
topics: queueing, operations research
---
# Little's law

The average number of items in a queue equals the arrival rate times the average waiting time.
"""

SWARM = """---
title: "Ant colony optimisation"
source: https://example.org/aco
topics: [swarm intelligence, "routing"]
---
Ants lay pheromone trails; shorter paths accumulate more pheromone and attract more ants.
"""

HEAT = """---
title: Heat exchangers
source: https://example.org/heat
topics:
  - thermodynamics
  - counterflow
extra: ignored
---
Counterflow exchangers keep a temperature gradient along the whole length of the device.
"""


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def _session() -> SessionId:
    return SessionId(uuid4())


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    _write(tmp_path, "b-little.md", LITTLE)
    _write(tmp_path, "a-swarm.md", SWARM)
    _write(tmp_path, "c-heat.md", HEAT)
    _write(tmp_path, "notes.txt", "not markdown; ignored")
    return tmp_path


def test_loads_front_matter_files_sorted_by_name(corpus_dir: Path) -> None:
    docs = load_shipped_corpus(corpus_dir)

    assert [d.source for d in docs] == [
        "https://example.org/aco",
        "https://example.org/littles-law",
        "https://example.org/heat",
    ]
    swarm, little, heat = docs
    assert swarm.title == "Ant colony optimisation"
    assert swarm.topics == ("swarm intelligence", "routing")
    assert little.title == "Little's law"
    assert little.topics == ("queueing", "operations research")
    assert little.text.startswith("# Little's law")
    assert "---" not in little.text
    assert heat.topics == ("thermodynamics", "counterflow")


def test_empty_directory_gives_empty_corpus(tmp_path: Path) -> None:
    assert load_shipped_corpus(tmp_path) == []


def test_missing_directory_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_shipped_corpus(tmp_path / "nope")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("title: x\nsource: y\n\nbody\n", "must start"),
        ("---\ntitle: x\nsource: y\nstray line\n---\nbody\n", "not 'key: value'"),
        ("---\ntitle: x\nsource: y\n", "not closed"),
        ("---\nsource: y\n---\nbody\n", "title"),
        ("---\ntitle: x\n---\nbody\n", "source"),
        ("---\ntitle: x\nsource: y\n---\n\n", "no body"),
        ("---\ntitle: x\ntitle: z\nsource: y\n---\nbody\n", "twice"),
        ("", "must start"),
    ],
)
def test_malformed_front_matter_raises_value_error_naming_the_file(tmp_path: Path, text: str, reason: str) -> None:
    _write(tmp_path, "good.md", LITTLE)
    bad = _write(tmp_path, "broken-file.md", text)

    with pytest.raises(ValueError, match=reason) as excinfo:
        load_shipped_corpus(tmp_path)

    assert str(bad) in str(excinfo.value)


def test_duplicate_source_across_files_raises(tmp_path: Path) -> None:
    _write(tmp_path, "one.md", LITTLE)
    _write(tmp_path, "two.md", LITTLE)

    with pytest.raises(ValueError, match=r"two\.md"):
        load_shipped_corpus(tmp_path)


def test_satisfies_the_research_provider_port(corpus_dir: Path) -> None:
    provider: ResearchProvider = LocalCorpusResearch.from_directory(corpus_dir)

    assert provider.name == "local corpus"


async def test_searches_the_shipped_corpus(corpus_dir: Path) -> None:
    provider = LocalCorpusResearch(load_shipped_corpus(corpus_dir))

    hits = await provider.search("queue waiting time", session_id=None)

    assert hits[0] == ResearchHit(
        "https://example.org/littles-law",
        "Little's law",
        "The average number of items in a queue equals the arrival rate times the average waiting time.",
    )
    topic_hits = await provider.search("thermodynamics", session_id=_session())
    assert [h.source for h in topic_hits] == ["https://example.org/heat"]
    assert await provider.search("blockchain", session_id=None) == []


def _doc(session: SessionId, slug: str, title: str, text: str) -> SessionDocument:
    return SessionDocument(f"session://{session}/{slug}", title, text, datetime(2026, 1, 1, tzinfo=UTC))


async def test_session_documents_are_searched_only_for_their_session(corpus_dir: Path) -> None:
    provider = LocalCorpusResearch(load_shipped_corpus(corpus_dir))
    mine, other = _session(), _session()
    notebook = _doc(mine, "lab-notebook", "Lab notebook", "Our mycelium samples conduct signals.")

    hits = await provider.search("mycelium", session_id=mine, session_documents=[notebook])
    assert [h.source for h in hits] == [notebook.source] and "mycelium" in hits[0].snippet
    assert await provider.search("mycelium", session_id=other) == []
    assert await provider.search("mycelium", session_id=None) == []
    # the session still sees the shipped corpus
    shipped = await provider.search("pheromone", session_id=mine, session_documents=[notebook])
    assert [h.source for h in shipped] == ["https://example.org/aco"]


async def test_a_sessions_index_follows_its_documents(corpus_dir: Path) -> None:
    provider = LocalCorpusResearch(load_shipped_corpus(corpus_dir))
    session = _session()
    first = _doc(session, "field-notes", "Field notes", "Glacier melt rates in spring.")
    second = _doc(session, "field-notes-2", "Field notes", "Glacier calving events.")
    assert len(await provider.search("glacier", session_id=session, session_documents=[first])) == 1
    both = await provider.search("glacier", session_id=session, session_documents=[first, second])
    assert sorted(h.source for h in both) == sorted([first.source, second.source])


async def test_limit_is_honoured() -> None:
    docs = [IndexedDocument(f"https://example.org/{i}", f"Coral reef {i}", "Coral reefs.") for i in range(6)]
    provider = LocalCorpusResearch(docs)
    session = _session()
    own = [_doc(session, f"reef-{i}", f"Reef survey {i}", "Coral bleaching observed.") for i in range(4)]

    assert len(await provider.search("coral", session_id=None)) == 5
    assert len(await provider.search("coral", session_id=None, limit=2)) == 2
    assert len(await provider.search("coral", session_id=session, limit=3, session_documents=own)) == 3
    assert len(await provider.search("coral", session_id=session, limit=20, session_documents=own)) == 10


async def test_snippets_are_bounded(tmp_path: Path) -> None:
    body = " ".join(["Turbulence in pipes dissipates energy."] * 40)
    _write(tmp_path, "long.md", f"---\ntitle: Pipe flow\nsource: https://example.org/pipe\n---\n{body}\n")
    provider = LocalCorpusResearch.from_directory(tmp_path)

    hits = await provider.search("turbulence", session_id=None)

    assert "Turbulence" in hits[0].snippet
    assert len(hits[0].snippet) <= 300


TRIAGE = IndexedDocument(
    "corpus://triage",
    "Triage",
    "Emergency departments sort arriving patients by urgency, so the sickest are seen first and minor cases "
    "go to a fast track.",
)
ROTATION = IndexedDocument(
    "corpus://rotation", "Crop rotation", "Farmers alternate legumes and cereals across seasons to restore nitrogen."
)
IN_OTHER_WORDS = "How should a hospital decide who is treated soonest?"  # no word of either document


async def test_with_the_embedder_a_query_in_other_words_finds_the_document_by_meaning() -> None:
    words_only = LocalCorpusResearch([TRIAGE, ROTATION])
    assert await words_only.search(IN_OTHER_WORDS, session_id=None) == []
    hybrid = LocalCorpusResearch([TRIAGE, ROTATION], SentenceEmbedder())
    [hit] = await hybrid.search(IN_OTHER_WORDS, session_id=None)  # the farm is below SEMANTIC_ONLY_MIN
    assert (hit.source, hit.title) == ("corpus://triage", "Triage")
    assert hit.snippet.startswith("Emergency departments sort arriving patients")


async def test_with_the_embedder_session_documents_join_the_hybrid_ranking() -> None:
    hybrid = LocalCorpusResearch([ROTATION], HashedTextEmbedder())
    session = _session()
    mine = _doc(session, "triage", "Triage notes", "Patients are sorted by urgency in the emergency department.")
    hits = await hybrid.search("emergency urgency", session_id=session, session_documents=[mine])
    assert [h.title for h in hits] == ["Triage notes"]
    assert await hybrid.search("emergency urgency", session_id=None) == []
