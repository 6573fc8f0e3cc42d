"""The inspectable validation rules: falsification, novelty and the four scores."""

from __future__ import annotations

from forge.offline.frame.problem_frame import frame_problem
from forge.offline.phases.plan_validate import (
    ScoreInputs,
    claim_action,
    falsify,
    mechanism_terms,
    novelty,
    scores,
)
from forge.offline.phases.planning import Hit

FRAME = frame_problem("How can a hospital cut emergency wait times without more staff?")
CLAIM = (
    "Pooling the separate lines feeding staff into one shared queue will reduce emergency wait times without more "
    "staff (queueing theory: pooling). Boundary: servers are not interchangeable because of specialist skills."
)
CONDITION = (
    "Observable: fraction of time some staff are idle while others have patients waiting; expect large gains. "
    "Compare emergency wait times with its baseline for at least 8 weeks after the change: the claim is false "
    "if emergency wait times do not fall by at least 10% while 'without more staff' holds."
)


class TestFalsify:
    def test_the_action_and_its_terms_are_read_from_the_claim(self) -> None:
        assert claim_action(CLAIM) == "Pooling the separate lines feeding staff into one shared queue"
        assert mechanism_terms(CLAIM, FRAME) == ["pooling", "separate", "line", "feeding", "shared", "queue"]

    def test_a_snippet_limiting_the_mechanism_outside_the_boundary_refutes_it(self) -> None:
        hit = Hit("corpus://x", "Pooling", "Pooling separate lines into a shared queue fails when travel is long.")
        verdict = falsify(CLAIM, FRAME, "pooling evidence against", [hit])
        assert not verdict.survived and verdict.sources == ("corpus://x",)
        assert "corpus://x" in verdict.result and "'fails'" in verdict.result

    def test_a_snippet_inside_the_claims_own_boundary_does_not_refute_it(self) -> None:
        hit = Hit(
            "corpus://y",
            "Skills",
            "Pooling a shared queue fails when servers are not interchangeable: specialist skills.",
        )
        verdict = falsify(CLAIM, FRAME, "pooling evidence against", [hit])
        assert verdict.survived and "inside the boundary" in verdict.result

    def test_unrelated_snippets_leave_it_standing_and_are_not_cited(self) -> None:
        hit = Hit("corpus://z", "Thermodynamics", "Energy cannot be created; it only changes form.")
        verdict = falsify(CLAIM, FRAME, "pooling evidence against", [hit])
        assert verdict.survived and verdict.sources == ()


class TestNovelty:
    def test_a_source_that_states_the_claim_makes_it_known(self) -> None:
        hit = Hit("corpus://same", "Pooling", CLAIM)
        verdict = novelty(CLAIM, FRAME, [hit])
        assert not verdict.is_novel and "covers 100%" in verdict.assessment

    def test_distant_sources_leave_it_novel_and_name_the_closest(self) -> None:
        hits = [Hit("corpus://a", "Queues", "A shared queue shortens waits."), Hit("corpus://b", "Heat", "Heat flows.")]
        verdict = novelty(CLAIM, FRAME, hits)
        assert verdict.is_novel and "corpus://a" in verdict.assessment and verdict.closest_overlap < 0.5


class TestScores:
    def _inputs(self, **changes: object) -> ScoreInputs:
        base: dict[str, object] = {
            "claim": CLAIM,
            "condition": CONDITION,
            "distance": "near",
            "closest_overlap": 0.2,
            "relevant_sources": 3,
            "survived": True,
            "cue_strength": 2,
        }
        base.update(changes)
        return ScoreInputs(**base)  # type: ignore[arg-type]

    def test_scores_are_in_range_and_follow_the_documented_features(self) -> None:
        result = scores(self._inputs(), FRAME)
        assert result == {"novelty": 0.6, "groundedness": 1.0, "falsifiability": 1.0, "significance": 1.0}

    def test_distance_and_overlap_move_novelty(self) -> None:
        far = scores(self._inputs(distance="far", closest_overlap=0.0), FRAME)["novelty"]
        near = scores(self._inputs(distance="near", closest_overlap=0.6), FRAME)["novelty"]
        assert far == 1.0 and near == 0.4

    def test_refutation_halves_groundedness_and_few_sources_lower_it(self) -> None:
        assert scores(self._inputs(survived=False), FRAME)["groundedness"] == 0.5
        assert scores(self._inputs(relevant_sources=1), FRAME)["groundedness"] == 0.33

    def test_a_vague_condition_is_less_falsifiable(self) -> None:
        assert scores(self._inputs(condition="Observable: things. It may change."), FRAME)["falsifiability"] == 0.0

    def test_weak_cues_lower_significance(self) -> None:
        assert scores(self._inputs(cue_strength=0), FRAME)["significance"] == 0.75
