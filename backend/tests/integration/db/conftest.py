"""Real databases for the repository contract suite: SQLite files and a PostgreSQL server.

Every test using `db` runs once per backend against a migrated schema:
    - sqlite: a copy, under the test's tmp_path, of the run's migrated template file.
    - postgresql: one database for the whole run (`postgres_url`): a copy of the run's migrated
      template, dropped at the end (or FORGE_TEST_POSTGRES_URL when set, created if missing and
      migrated). Each test runs inside an outer transaction that is rolled back at the end;
      sessions join it with `join_transaction_mode="create_savepoint"`, so `uow.commit()` releases
      a savepoint and nothing leaks between tests. An unreachable server fails the run; it is
      never skipped.

Tests that need real commits from several connections (locking, NOTIFY) use `committed_db` or
`migrated_database_url`: a migrated database of their own, dropped at the end. Tests of the
migrations themselves use `fresh_database_url`: an empty SQLite file or a new, empty PostgreSQL
database on the same server, dropped at the end. (Templates: support/fresh_database.py.)
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, make_url, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from support.fresh_database import fresh_database_url_sync, migrated_database_url_sync

from forge.core.domain_types import (
    AnalogyId,
    ClaimConfidence,
    ClaimId,
    ClaimStatus,
    ClaimType,
    ContradictionId,
    Contributor,
    EdgeId,
    EdgeType,
    EvidenceId,
    EvidenceType,
    Phase,
    ReframingId,
    ReframingType,
    ReviewType,
    SemanticDistance,
)
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    ClaimScores,
    Contradiction,
    Edge,
    Evidence,
    MappingRow,
    MorphologicalParameter,
    NegativeKnowledge,
    Reframing,
    ResearchHit,
    ResearchRecord,
    StateOfArt,
)
from forge.db.engine import create_engine_for, create_session_factory, is_sqlite
from forge.db.migrate import upgrade_database_sync
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

START_POSTGRES = "pg_ctlcluster --skip-systemctl-redirect 15 main start"


@dataclass(frozen=True)
class Database:
    backend: str
    session_factory: async_sessionmaker[AsyncSession]

    def uow(self) -> SqlAlchemyUnitOfWork:
        return SqlAlchemyUnitOfWork(self.session_factory)

    async def count(self, model: Any, **where: Any) -> int:
        """Rows of `model` matching the equality filters in `where`, read in a fresh session."""
        filters = [getattr(model, name) == value for name, value in where.items()]
        async with self.session_factory() as session:
            return int(await session.scalar(select(func.count()).select_from(model).where(*filters)) or 0)


async def _create_database_if_missing(url: str) -> None:
    parsed = make_url(url)
    connection = await asyncpg.connect(
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password,
        database="postgres",
        timeout=10,
    )
    try:
        name = parsed.database
        exists = await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        if not exists:
            await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The run's migrated PostgreSQL database (see the module docstring); synchronous, as it runs
    before any test's event loop exists."""
    if "FORGE_TEST_POSTGRES_URL" not in os.environ:
        with migrated_database_url_sync("postgresql", tmp_path_factory.getbasetemp(), prefix="forge_test_repo") as url:
            yield url
        return
    url = os.environ["FORGE_TEST_POSTGRES_URL"]
    try:
        asyncio.run(_create_database_if_missing(url))
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        pytest.fail(
            f"PostgreSQL is not reachable at {url} ({type(exc).__name__}: {exc}). The db contract tests "
            f"need it: start it with `{START_POSTGRES}` or point FORGE_TEST_POSTGRES_URL at a server.",
            pytrace=False,
        )
    upgrade_database_sync(url)
    yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty, unmigrated database of the parametrised backend that nobody else uses.

    Synchronous on purpose: it runs before the test's event loop exists (as `postgres_url` must)."""
    with fresh_database_url_sync(request.param, tmp_path) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def migrated_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated database of the parametrised backend that nobody else uses (a template's copy)."""
    with migrated_database_url_sync(request.param, tmp_path) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated database: a SQLite file of the test's own, or the run's shared PostgreSQL database."""
    if request.param == "sqlite":
        with migrated_database_url_sync("sqlite", tmp_path) as url:
            yield url
        return
    url: str = request.getfixturevalue("postgres_url")
    yield url


@asynccontextmanager
async def _sqlite_database(url: str) -> AsyncIterator[Database]:
    engine = create_engine_for(url)
    try:
        yield Database("sqlite", create_session_factory(engine))
    finally:
        await engine.dispose()


@asynccontextmanager
async def _postgres_database(url: str) -> AsyncIterator[Database]:
    engine = create_engine_for(url)
    try:
        async with engine.connect() as connection:
            outer = await connection.begin()
            factory = async_sessionmaker(
                bind=connection, expire_on_commit=False, join_transaction_mode="create_savepoint"
            )
            try:
                yield Database("postgresql", factory)
            finally:
                await outer.rollback()
    finally:
        await engine.dispose()


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """A migrated database of the parametrised backend, isolated from every other test."""
    database = _sqlite_database if is_sqlite(database_url) else _postgres_database
    async with database(database_url) as opened:
        yield opened


@pytest.fixture
async def committed_db(migrated_database_url: str) -> AsyncIterator[Database]:
    """A migrated database of its own whose commits are real, seen by every connection."""
    engine = create_engine_for(migrated_database_url)
    try:
        backend = "sqlite" if is_sqlite(migrated_database_url) else "postgresql"
        yield Database(backend, create_session_factory(engine))
    finally:
        await engine.dispose()


@pytest.fixture
def uow_factory(db: Database) -> Callable[[], SqlAlchemyUnitOfWork]:
    return db.uow


# ---- a rich ForgeState: every kind of record the projection and the codec must handle ---------

BUILT_AT = datetime(2025, 3, 4, 5, 6, 7, 123456, tzinfo=timezone(timedelta(hours=2)))


def _evidence(source: str, kind: EvidenceType = EvidenceType.SUPPORTING) -> Evidence:
    return Evidence(
        EvidenceId(uuid.uuid4()), source, f"title {source}", "summary", kind, Contributor.AGENT, "query", BUILT_AT
    )


def _claim(text: str, round_created: int = 0, **changes: Any) -> Claim:
    return Claim(ClaimId(uuid.uuid4()), text, ClaimType.SYNTHESIS, round_created, Phase.SYNTHESIZE, **changes)


def _claims() -> tuple[Claim, Claim, Claim, Claim]:
    """A past claim, two current ones and a user-contributed graph node; one evidence is shared."""
    shared = _evidence("https://shared.example")
    past = _claim(
        "past",
        status=ClaimStatus.VALIDATED,
        confidence=ClaimConfidence.GROUNDED,
        scores=ClaimScores(0.9, 0.8, 0.7, 0.6),
        evidence=(shared, _evidence("https://p.example")),
    )
    current_a = _claim(
        "a", 1, thesis_text="t", antithesis_text="anti", evidence=(shared,), falsifiability_condition="if x"
    )
    current_b = _claim(
        "b",
        1,
        status=ClaimStatus.REJECTED,
        rejection_reason="weak",
        user_feedback="no",
        cross_domain_source="biology",
        evidence=(_evidence("https://b.example", EvidenceType.CONTRADICTING),),
    )
    user_node = Claim(ClaimId(uuid.uuid4()), "user insight", ClaimType.USER_CONTRIBUTED, 1, Phase.BUILD)
    return past, current_a, current_b, user_node


def _decompose_and_explore(state: ForgeState) -> None:
    hit = ResearchHit("https://r.example", "R", "snippet")
    state.research_log = [ResearchRecord("seasonal storage", (hit,), Phase.DECOMPOSE, 0, BUILT_AT, "fake")]
    state.web_searches_this_phase = list(state.research_log)
    state.fundamentals = ["thermal mass"]
    sota = (_evidence("https://s1.example"), _evidence("https://s2.example"))
    state.state_of_art = StateOfArt("borehole stores", sota)
    state.assumptions = [Assumption("a1", confirmed=True), Assumption("a2", Contributor.USER, False)]
    state.reframings = [
        Reframing(ReframingId(uuid.uuid4()), f"reframing {n}", ReframingType.SCOPE_CHANGE, n == 0) for n in range(3)
    ]
    state.morphological_box = [MorphologicalParameter("medium", ("water", "rock"))]
    mapping = (MappingRow("nut", "heat", "stores"),)
    state.cross_domain_analogies = [
        Analogy(AnalogyId(uuid.uuid4()), "ecology", "grid", "caches", SemanticDistance.FAR, mapping, starred=True),
        Analogy(AnalogyId(uuid.uuid4()), "finance", "grid", "savings", SemanticDistance.NEAR),
    ]
    state.cross_domain_search_count = 2
    state.contradictions = [Contradiction(ContradictionId(uuid.uuid4()), "capacity", "cost", "d", "r", ("seg",))]


def build_rich_state() -> ForgeState:
    """4 projected claims, 6 evidence rows (2 state of the art), 2 edges, 3 reframings, ..."""
    state = ForgeState(problem="heat storage", current_phase=Phase.BUILD, current_round=1)
    _decompose_and_explore(state)
    past, current_a, current_b, user_node = _claims()
    state.past_round_claims = [past]
    state.current_round_claims = [current_a, current_b]
    state.theses_stated = 2
    state.antitheses_searched = {0, 1}
    state.falsification_attempted = {1, 0}
    state.novelty_checked = {0}
    state.knowledge_graph_nodes = [past, current_a, user_node]
    state.knowledge_graph_edges = [
        Edge(EdgeId(uuid.uuid4()), past.id, current_a.id, EdgeType.SUPPORTS),
        Edge(EdgeId(uuid.uuid4()), user_node.id, current_a.id, EdgeType.EXTENDS),
    ]
    state.negative_knowledge = [NegativeKnowledge(current_b.id, "b", "weak", 1)]
    state.gaps = ["cost at scale"]
    state.user_insights = ["look at aquifers"]
    state.await_review(ReviewType.BUILD_DECISION)
    return state


@pytest.fixture
def rich_state() -> Callable[[], ForgeState]:
    """Builds a fresh rich ForgeState (new ids) on every call."""
    return build_rich_state
