"""A rich ForgeState holding every record type, for the state codecs' round-trip tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

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
from forge.core.explore.suggested_domains import SuggestionOutcome, SuggestionSource
from forge.core.hypotheses.pool_candidates import PoolCandidate
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

UTC_TIME = datetime(2025, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
PLUS_TWO = datetime(2025, 3, 4, 7, 6, 7, tzinfo=timezone(timedelta(hours=2)))


def uid(n: int) -> UUID:
    return UUID(int=n)


def evidence(n: int, contributor: Contributor = Contributor.AGENT, **kw: object) -> Evidence:
    return Evidence(
        EvidenceId(uid(n)),
        f"https://s{n}.example",
        f"Title {n}",
        f"Summary {n}",
        EvidenceType.SUPPORTING,
        contributor,
        **kw,  # type: ignore[arg-type]
    )


def pool_candidate(
    hid: str, domain_id: str, domain_name: str, score: float, passed: bool, failed: tuple[str, ...] = ()
) -> PoolCandidate:
    return PoolCandidate(
        id=hid, title="t", statement="s", mechanism="m", observable="o", mapping_score=score, gate_passed=passed,
        domain_id=domain_id, domain_name=domain_name, failed_rules=failed,
    )  # fmt: skip


def rich_state() -> ForgeState:
    """Every record type, every enum, sets, Nones and tz-aware datetimes."""
    hit = ResearchHit("https://s1.example", "Title 1", "snippet")
    record = ResearchRecord("queue theory", (hit,), Phase.DECOMPOSE, 0, UTC_TIME, "fake")
    record2 = ResearchRecord("triage criticism", (), Phase.SYNTHESIZE, 1, PLUS_TWO, "other")
    agent_evidence = evidence(1, query="queue theory", retrieved_at=UTC_TIME, claim_id=ClaimId(uid(10)))
    user_evidence = evidence(2, Contributor.USER)
    thesis = Claim(
        id=ClaimId(uid(10)),
        text="Dynamic triage reduces waiting",
        claim_type=ClaimType.SYNTHESIS,
        round_created=0,
        phase_created=Phase.SYNTHESIZE,
        thesis_text="thesis",
        antithesis_text="antithesis",
        status=ClaimStatus.QUALIFIED,
        confidence=ClaimConfidence.GROUNDED,
        falsifiability_condition="if waits do not fall",
        scores=ClaimScores(0.9, 0.8, 1.0, 0.25),
        evidence=(agent_evidence, user_evidence),
        builds_on=(ClaimId(uid(11)), ClaimId(uid(12))),
        cross_domain_source="airlines",
        falsification_summary="survived",
        novelty_summary="novel",
        rejection_reason=None,
        qualification="only for small hospitals",
        user_feedback="good",
        synthesized=True,
    )
    rejected = Claim(
        ClaimId(uid(11)), "Rejected idea", ClaimType.ANTITHESIS, 0, Phase.SYNTHESIZE, status=ClaimStatus.REJECTED
    )
    past = Claim(ClaimId(uid(12)), "Older idea", ClaimType.THESIS, 0, Phase.SYNTHESIZE)
    user_claim = Claim(
        ClaimId(uid(13)), "User idea", ClaimType.USER_CONTRIBUTED, 1, Phase.BUILD, status=ClaimStatus.VALIDATED
    )
    merged = Claim(ClaimId(uid(14)), "Merged", ClaimType.MERGED, 1, Phase.VALIDATE, status=ClaimStatus.SUPERSEDED)
    return ForgeState(
        problem="How can hospitals reduce ER queues?",
        current_phase=Phase.BUILD,
        current_round=1,
        research_log=[record, record2],
        web_searches_this_phase=[record2],
        fundamentals=["arrival rate", "service rate"],
        state_of_art=StateOfArt("fast tracks", (agent_evidence,)),
        assumptions=[
            Assumption("a1"),
            Assumption("a2", Contributor.USER, True),
            Assumption("a3", Contributor.AGENT, False),
        ],
        reframings=[
            Reframing(ReframingId(uid(20)), "r1", ReframingType.SCOPE_CHANGE, True),
            Reframing(ReframingId(uid(21)), "r2", ReframingType.ENTITY_QUESTION),
            Reframing(ReframingId(uid(22)), "r3", ReframingType.VARIABLE_CHANGE, False, Contributor.USER),
            Reframing(ReframingId(uid(23)), "r4", ReframingType.DOMAIN_CHANGE),
        ],
        morphological_box=[MorphologicalParameter("triage", ("nurse", "algorithm")), MorphologicalParameter("x", ())],
        cross_domain_analogies=[
            Analogy(
                AnalogyId(uid(30)),
                "airlines",
                "boarding",
                "desc",
                SemanticDistance.MEDIUM,
                (MappingRow("gate", "ward", "maps to"),),
                "observable",
                "failure",
                True,
                True,
            ),
            Analogy(
                AnalogyId(uid(31)), "ants", "routing", "d", SemanticDistance.FAR, hypothesis_id="b1", mapping_score=7.5
            ),
            Analogy(AnalogyId(uid(32)), "clinics", "triage", "d", SemanticDistance.NEAR),
        ],
        pool_candidates=[
            pool_candidate("b1", "ants", "Ants", 7.5, True),
            pool_candidate("b2", "bees", "Bees", 3.0, False, ("effective_rows", "row_usage")),
        ],
        suggestion_outcomes=[
            SuggestionOutcome(
                "logistics",
                SuggestionSource.LIBRARY,
                "logistics",
                "Logistics",
                1,
                0,
                "from the library",
                (pool_candidate("s1", "logistics", "Logistics", 6.0, True),),
            )
        ],
        cross_domain_search_count=2,
        contradictions=[Contradiction(ContradictionId(uid(40)), "speed", "safety", "d", "r", ("segmentation",))],
        adjacent_possible=["telemedicine"],
        suggested_domains=["logistics"],
        current_round_claims=[thesis, merged],
        theses_stated=2,
        antitheses_searched={2, 0, 1},
        falsification_attempted={1},
        novelty_checked=set(),
        knowledge_graph_nodes=[past, user_claim],
        knowledge_graph_edges=[Edge(EdgeId(uid(50)), ClaimId(uid(12)), ClaimId(uid(13)), et) for et in EdgeType],
        negative_knowledge=[NegativeKnowledge(ClaimId(uid(11)), "Rejected idea", "no evidence", 0)],
        gaps=["staffing data"],
        negative_knowledge_consulted=True,
        previous_claims_referenced=True,
        past_round_claims=[past, rejected],
        user_insights=["User idea"],
        knowledge_document_markdown="# Doc",
        deep_dive_active=True,
        deep_dive_target_claim_id=ClaimId(uid(12)),
        awaiting_user_input=True,
        awaiting_input_type=ReviewType.BUILD_DECISION,
    )
