"""Remembered hypotheses offered to a new session: what is offered, in the seed's prompt format, and
how the decompose review pins or dismisses them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID

from forge.core.domain_types import ReviewType, SessionId
from forge.core.hypotheses.memory import HypothesisEpisode, HypothesisEpisodeId, MemoryQuery, recall_for_problem
from forge.core.hypotheses.remembered import (
    MEMORY_HEADER,
    RECALL_LIMIT,
    RECALL_MIN_SIMILARITY,
    MemoryDecision,
    ReadHypothesis,
    RememberedHypothesis,
    memory_block,
    read_memory_block,
)
from forge.core.phases.close_decompose import apply_decompose_review, check_decompose_review
from forge.core.review.inputs import DecomposeReview, ReviewRejection
from forge.core.review.payloads import build_review_payload
from forge.core.session.forge_state import ForgeState

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _episode(n: int, vector: tuple[float, ...], c: float, text: str = "") -> HypothesisEpisode:
    return HypothesisEpisode(
        HypothesisEpisodeId(UUID(int=n)),
        text or f"hypothesis {n}",
        vector,
        c,
        "earlier question",
        SessionId(UUID(int=99)),
        AT,
    )


PROBLEM = "How do we shorten hospital queues?"


def _offered(n: int, decision: MemoryDecision = MemoryDecision.OFFERED) -> RememberedHypothesis:
    return RememberedHypothesis(str(n), f"hypothesis {n}", 0.85, 0.7, 5, 1, "earlier question", "s", decision)


class TestRecallForProblem:
    def test_it_offers_the_best_by_similarity_times_c_and_never_an_unrelated_or_refuted_one(self) -> None:
        episodes = [
            _episode(1, (1.0, 0.0), 0.3),  # same direction, low C
            _episode(2, (0.9, 0.44), 0.9),  # close, confident
            _episode(3, (0.0, 1.0), 0.95),  # unrelated, however confident
            _episode(4, (1.0, 0.0), 0.1),  # refuted below the retrieval floor
        ]
        offered = recall_for_problem(MemoryQuery(PROBLEM, (1.0, 0.0)), episodes)
        assert [h.episode_id for h in offered] == [str(UUID(int=2)), str(UUID(int=1))]
        assert offered[0].similarity >= RECALL_MIN_SIMILARITY and offered[0].decision == MemoryDecision.OFFERED

    def test_the_gate_reads_the_cosine_so_shared_words_never_offer_an_unrelated_hypothesis(self) -> None:
        words_only = _episode(1, (0.3, 0.95), 0.9, "Hospital queues are long")  # cosine 0.3: below the gate
        offered = recall_for_problem(MemoryQuery(PROBLEM, (1.0, 0.0)), [words_only])
        assert offered == []

    def test_the_offer_carries_the_cosine_not_the_fused_relevance(self) -> None:
        related = _episode(1, (0.8, 0.6), 0.5, "Hospital queues shrink with triage")
        [offered] = recall_for_problem(MemoryQuery(PROBLEM, (1.0, 0.0)), [related])
        assert offered.similarity == 0.8  # what the §10.2 query-match band reads

    def test_at_most_the_limit_is_offered(self) -> None:
        episodes = [_episode(i, (1.0, 0.0), 0.5) for i in range(10)]
        assert len(recall_for_problem(MemoryQuery(PROBLEM, (1.0, 0.0)), episodes)) == RECALL_LIMIT


class TestMemoryBlock:
    def test_the_seed_format_shows_confidence_evidence_and_origin(self) -> None:
        block = memory_block([_offered(1)], accepted_only=False)
        assert block.startswith(MEMORY_HEADER)
        assert "Hypothesis 1 (confidence: 85%):" in block
        assert "HYPOTHESIS: hypothesis 1" in block
        assert "EVIDENCE: Supported 5 times, contradicted 1 time" in block
        assert 'CONTEXT: Originally from "earlier question"' in block
        assert "RATIONALE" not in block  # no reasoning was remembered for it

    def test_the_rationale_line_follows_the_hypothesis_when_one_was_remembered(self) -> None:
        block = memory_block([replace(_offered(1), rationale="arrivals peak at night")], accepted_only=False)
        lines = block.splitlines()
        at = lines.index("HYPOTHESIS: hypothesis 1")
        assert lines[at + 1] == "RATIONALE: arrivals peak at night" and lines[at + 2].startswith("EVIDENCE:")

    def test_later_briefs_show_only_pinned_ones_and_no_brief_shows_a_dismissed_one(self) -> None:
        items = [_offered(1), _offered(2, MemoryDecision.ACCEPTED), _offered(3, MemoryDecision.DISMISSED)]
        first = memory_block(items, accepted_only=False)
        later = memory_block(items, accepted_only=True)
        assert "hypothesis 1" in first and "hypothesis 2" in first and "hypothesis 3" not in first
        assert "hypothesis 1" not in later and "hypothesis 2" in later and "pinned by your reviewer" in later
        assert memory_block([_offered(3, MemoryDecision.DISMISSED)], accepted_only=False) == ""


class TestDecomposeReviewOfMemory:
    def _state(self) -> ForgeState:
        state = ForgeState(problem="p", remembered_hypotheses=[_offered(1), _offered(2)])
        state.await_review(ReviewType.DECOMPOSE_REVIEW)
        return state

    def test_the_payload_lists_each_offered_hypothesis_with_its_confidence_percent(self) -> None:
        shown = build_review_payload(self._state(), ReviewType.DECOMPOSE_REVIEW)["memory"]
        assert [(m["episode_id"], m["confidence_percent"], m["decision"]) for m in shown] == [
            ("1", 85, "offered"),
            ("2", 85, "offered"),
        ]

    def test_accepting_and_dismissing_set_each_decision_and_leave_the_rest_offered(self) -> None:
        state = replace(self._state(), remembered_hypotheses=[_offered(1), _offered(2), _offered(3)])
        review = DecomposeReview(added_reframings=("x",), accepted_memories=("1",), dismissed_memories=("3",))
        assert check_decompose_review(state, review) is None
        apply_decompose_review(state, review, lambda: UUID(int=7))
        assert [h.decision for h in state.remembered_hypotheses] == [
            MemoryDecision.ACCEPTED,
            MemoryDecision.OFFERED,
            MemoryDecision.DISMISSED,
        ]

    def test_an_unknown_id_or_one_both_accepted_and_dismissed_is_refused(self) -> None:
        unknown = check_decompose_review(
            self._state(), DecomposeReview(added_reframings=("x",), accepted_memories=("9",))
        )
        assert isinstance(unknown, ReviewRejection) and "unknown ids ['9']" in unknown.message
        both = DecomposeReview(added_reframings=("x",), accepted_memories=("1",), dismissed_memories=("1",))
        rejection = check_decompose_review(self._state(), both)
        assert isinstance(rejection, ReviewRejection) and "both accepted and dismissed" in rejection.message


class TestReadMemoryBlock:
    def test_reads_back_every_field_the_block_wrote_in_order(self) -> None:
        items = [
            RememberedHypothesis("1", "Triage cuts waits", 0.43, 0.8, 1, 0, "How to cut waits?", "s", rationale="Flow"),
            RememberedHypothesis("2", "Pooling helps", 0.3, 0.6, 0, 2, "Q2", "s", MemoryDecision.ACCEPTED),
        ]
        brief = "Do the work.\n\n" + memory_block(items, accepted_only=False) + '\n\n```json\n{"problem":"p"}\n```'
        assert read_memory_block(brief) == [
            ReadHypothesis("Triage cuts waits", 0.43, 1, 0, "How to cut waits?", "Flow", pinned=False),
            ReadHypothesis("Pooling helps", 0.3, 0, 2, "Q2", "", pinned=True),
        ]

    def test_a_brief_without_a_memory_block_has_none(self) -> None:
        assert read_memory_block("HYPOTHESIS: not in a block") == []
