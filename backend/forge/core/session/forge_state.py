"""ForgeState: the per-session enforcement engine that the 15 rules read.

Invariants:
    - Holds everything a rule needs; rules are pure functions of (state, tool input).
    - `reset_for_new_round` clears exactly the per-round fields of the spec and preserves the
      knowledge graph, negative knowledge and gaps (the curiosity items, found again each BUILD, and
      the direction picked from them are per round).
    - Entering a phase clears `web_searches_this_phase` (research gates are per phase).
    - Research a tool call ran in the current model turn is not read yet (`has_read`): the gates and
      rule 7 count only research whose results the model saw before the call that cites it.

Design decisions:
    - Unlike the spec's in-memory ADR, the state is serialised (see `state_codec`) after every tool
      call so a session survives a restart; this class stays a plain mutable dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forge.core.answer.pack import AnswerPack
from forge.core.curation.graph_gaps import CuriosityItem
from forge.core.domain_types import (
    MAX_CLAIMS_PER_ROUND,
    MAX_ROUNDS,
    ClaimId,
    Phase,
    ReviewType,
)
from forge.core.explore.select_source_domains import DomainSelection
from forge.core.explore.suggested_domains import SuggestionOutcome
from forge.core.frame.problem_frame import AuditedFrame
from forge.core.hypotheses.judged_scores import JudgedScores
from forge.core.hypotheses.pool import BisoSummary
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.hypotheses.remembered import RememberedHypothesis
from forge.core.saga.state import SupervisionState
from forge.core.search.summary import SearchSummary
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    Contradiction,
    DocumentNarrative,
    Edge,
    MorphologicalParameter,
    NegativeKnowledge,
    Reframing,
    ResearchRecord,
    SessionDocument,
    StateOfArt,
)
from forge.core.session.spend import PhaseSpend
from forge.core.verify.claim_verification import ClaimVerification


@dataclass
class ForgeState:
    problem: str = ""
    current_phase: Phase = Phase.DECOMPOSE
    current_round: int = 0
    research_log: list[ResearchRecord] = field(default_factory=list)
    session_documents: list[SessionDocument] = field(default_factory=list)
    spend_by_phase: dict[str, PhaseSpend] = field(default_factory=dict)
    web_searches_this_phase: list[ResearchRecord] = field(default_factory=list)
    model_turn: int = 0  # model replies so far (the runner counts them): research is read a turn after it ran
    # Phase 1: DECOMPOSE
    remembered_hypotheses: list[RememberedHypothesis] = field(default_factory=list)  # seed 004, taken at creation
    problem_frame: AuditedFrame | None = None  # stage 1 of the engine, with its CP-1 findings
    fundamentals: list[str] = field(default_factory=list)
    state_of_art: StateOfArt | None = None
    assumptions: list[Assumption] = field(default_factory=list)
    reframings: list[Reframing] = field(default_factory=list)
    # Phase 2: EXPLORE
    domain_selection: DomainSelection | None = None  # the source domains BISO explores this round
    biso: BisoSummary | None = None  # what BISO put in the pool this round (the pool is its own table)
    pool_candidates: list[PoolCandidate] = field(default_factory=list)  # BISO's head this round, for EXPLORE's brief
    morphological_box: list[MorphologicalParameter] = field(default_factory=list)
    cross_domain_analogies: list[Analogy] = field(default_factory=list)
    cross_domain_search_count: int = 0
    contradictions: list[Contradiction] = field(default_factory=list)
    adjacent_possible: list[str] = field(default_factory=list)
    suggested_domains: list[str] = field(default_factory=list)
    suggestion_outcomes: list[SuggestionOutcome] = field(default_factory=list)  # each suggestion explored once
    # Phase 3: SYNTHESIZE
    search: SearchSummary | None = None  # the SEARCH round that grew the pool this round
    current_round_claims: list[Claim] = field(default_factory=list)
    theses_stated: int = 0
    antitheses_searched: set[int] = field(default_factory=set)
    # Phase 4: VALIDATE
    falsification_attempted: set[int] = field(default_factory=set)
    novelty_checked: set[int] = field(default_factory=set)
    verifications: dict[ClaimId, ClaimVerification] = field(default_factory=dict)  # VERIFY, per claim, kept
    # VERIFY on the AnswerPack's ranking candidates (seed 000 §7 stage 6), by pool hypothesis id
    hypothesis_verifications: dict[str, ClaimVerification] = field(default_factory=dict)
    # The five scores of every pool hypothesis, by id: the verifier's, or which word rules stand in
    hypothesis_scores: dict[str, JudgedScores] = field(default_factory=dict)
    # Phase 5: BUILD
    knowledge_graph_nodes: list[Claim] = field(default_factory=list)
    knowledge_graph_edges: list[Edge] = field(default_factory=list)
    negative_knowledge: list[NegativeKnowledge] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    curiosity_items: list[CuriosityItem] = field(default_factory=list)  # thin regions the navigator found
    chosen_direction: CuriosityItem | None = None  # the one the person picked for the round under way
    negative_knowledge_consulted: bool = False
    previous_claims_referenced: bool = False
    past_round_claims: list[Claim] = field(default_factory=list)
    user_insights: list[str] = field(default_factory=list)
    # Phase 6: CRYSTALLIZE
    knowledge_document_markdown: str | None = None
    document_narrative: DocumentNarrative | None = None
    answer_pack: AnswerPack | None = None  # Solve's result (engine stage at CRYSTALLIZE), before the document
    # Deep-dive
    deep_dive_active: bool = False
    deep_dive_target_claim_id: ClaimId | None = None
    # Pause
    awaiting_user_input: bool = False
    awaiting_input_type: ReviewType | None = None
    # SAGA: the slow agent's findings, directives and checkpoint audits (None until its first checkpoint)
    supervision: SupervisionState | None = None

    # ---- computed -------------------------------------------------------------------------
    @property
    def claims_remaining(self) -> int:
        return max(0, MAX_CLAIMS_PER_ROUND - len(self.current_round_claims))

    @property
    def all_claims_have_antithesis(self) -> bool:
        indices = range(len(self.current_round_claims))
        return bool(self.current_round_claims) and all(i in self.antitheses_searched for i in indices)

    @property
    def all_claims_falsified(self) -> bool:
        indices = range(len(self.current_round_claims))
        return bool(self.current_round_claims) and all(i in self.falsification_attempted for i in indices)

    @property
    def all_claims_novelty_checked(self) -> bool:
        indices = range(len(self.current_round_claims))
        return bool(self.current_round_claims) and all(i in self.novelty_checked for i in indices)

    @property
    def all_claims_scored(self) -> bool:
        claims = self.current_round_claims
        return bool(claims) and all(c.scores is not None for c in claims)

    @property
    def max_rounds_reached(self) -> bool:
        return self.current_round >= MAX_ROUNDS - 1

    @property
    def starred_analogies(self) -> list[Analogy]:
        return [a for a in self.cross_domain_analogies if a.starred]

    @property
    def selected_reframings(self) -> list[Reframing]:
        return [r for r in self.reframings if r.selected]

    @property
    def confirmed_assumptions(self) -> list[Assumption]:
        return [a for a in self.assumptions if a.confirmed is True]

    @property
    def all_claims(self) -> list[Claim]:
        """Every claim of the session: earlier rounds, then the current round."""
        return [*self.past_round_claims, *self.current_round_claims]

    # ---- lookups and transitions ----------------------------------------------------------
    def find_claim(self, claim_id: ClaimId) -> Claim | None:
        return next((c for c in self.all_claims if c.id == claim_id), None)

    def graph_node(self, claim_id: ClaimId) -> Claim | None:
        return next((c for c in self.knowledge_graph_nodes if c.id == claim_id), None)

    def has_read(self, record: ResearchRecord) -> bool:
        """Whether the model has seen the record's results: it ran in an earlier turn than this one."""
        return record.turn == 0 or record.turn < self.model_turn

    @property
    def read_research_this_phase(self) -> list[ResearchRecord]:
        return [r for r in self.web_searches_this_phase if self.has_read(r)]

    def record_research(self, record: ResearchRecord) -> None:
        self.research_log.append(record)
        self.web_searches_this_phase.append(record)

    def enter_phase(self, phase: Phase) -> None:
        self.current_phase = phase
        self.web_searches_this_phase = []
        self.awaiting_user_input = False
        self.awaiting_input_type = None

    def await_review(self, review: ReviewType) -> None:
        self.awaiting_user_input = True
        self.awaiting_input_type = review

    def reset_for_new_round(self) -> None:
        """Per-round reset (BUILD -> SYNTHESIZE on "continue"); graph, negatives and gaps persist."""
        self.past_round_claims.extend(self.current_round_claims)
        self.current_round_claims = []
        self.theses_stated = 0
        self.antitheses_searched = set()
        self.falsification_attempted = set()
        self.novelty_checked = set()
        self.negative_knowledge_consulted = False
        self.previous_claims_referenced = False
        self.web_searches_this_phase = []
        self.curiosity_items = []
        self.chosen_direction = None
        self.current_round += 1
