from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest

from forge.core.bm25_index import IndexedDocument
from forge.core.domain_types import SessionId
from forge.core.records import ResearchHit
from forge.ports import ResearchProvider
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


async def test_session_documents_are_found_only_within_their_session(corpus_dir: Path) -> None:
    provider = LocalCorpusResearch(load_shipped_corpus(corpus_dir))
    mine, other = _session(), _session()

    added = await provider.add_document(mine, "Lab notebook", "Our mycelium samples conduct signals.")

    assert added.source == f"session://{mine}/lab-notebook"
    assert added.title == "Lab notebook"
    assert "mycelium" in added.snippet
    assert [h.source for h in await provider.search("mycelium", session_id=mine)] == [added.source]
    assert await provider.search("mycelium", session_id=other) == []
    assert await provider.search("mycelium", session_id=None) == []
    # the session still sees the shipped corpus
    shipped = await provider.search("pheromone", session_id=mine)
    assert [h.source for h in shipped] == ["https://example.org/aco"]


async def test_session_sources_are_unique(corpus_dir: Path) -> None:
    provider = LocalCorpusResearch(load_shipped_corpus(corpus_dir))
    session, other = _session(), _session()

    first = await provider.add_document(session, "Field Notes!", "Glacier melt rates in spring.")
    second = await provider.add_document(session, "field notes", "Glacier melt rates in autumn.")
    third = await provider.add_document(session, "Field notes", "Glacier calving events.")
    elsewhere = await provider.add_document(other, "Field notes", "Glacier notes of another session.")
    untitled = await provider.add_document(session, "???", "Glacier without a sluggable title.")

    base = f"session://{session}/field-notes"
    assert [first.source, second.source, third.source] == [base, f"{base}-2", f"{base}-3"]
    assert elsewhere.source == f"session://{other}/field-notes"
    assert untitled.source == f"session://{session}/document"
    hits = await provider.search("glacier", session_id=session, limit=10)
    assert sorted(h.source for h in hits) == sorted([first.source, second.source, third.source, untitled.source])


async def test_add_document_refuses_blank_title_or_text() -> None:
    provider = LocalCorpusResearch([])

    with pytest.raises(ValueError, match="title"):
        await provider.add_document(_session(), "  ", "text")
    with pytest.raises(ValueError, match="text"):
        await provider.add_document(_session(), "Title", "   ")


async def test_limit_is_honoured() -> None:
    docs = [IndexedDocument(f"https://example.org/{i}", f"Coral reef {i}", "Coral reefs.") for i in range(6)]
    provider = LocalCorpusResearch(docs)
    session = _session()
    for i in range(4):
        await provider.add_document(session, f"Reef survey {i}", "Coral bleaching observed.")

    assert len(await provider.search("coral", session_id=None)) == 5
    assert len(await provider.search("coral", session_id=None, limit=2)) == 2
    assert len(await provider.search("coral", session_id=session, limit=3)) == 3
    assert len(await provider.search("coral", session_id=session, limit=20)) == 10


async def test_snippets_are_bounded(tmp_path: Path) -> None:
    body = " ".join(["Turbulence in pipes dissipates energy."] * 40)
    _write(tmp_path, "long.md", f"---\ntitle: Pipe flow\nsource: https://example.org/pipe\n---\n{body}\n")
    provider = LocalCorpusResearch.from_directory(tmp_path)

    hits = await provider.search("turbulence", session_id=None)
    added = await provider.add_document(_session(), "Long", "x " * 500)

    assert "Turbulence" in hits[0].snippet
    assert len(hits[0].snippet) <= 300
    assert len(added.snippet) <= 300
