from forge.core.saga.detector_table import Observation, detect_at
from forge.core.saga.detectors import (
    Batch,
    ScoredHypothesis,
    detect_collinearity,
    detect_diversity_collapse,
    detect_score_compression,
    detect_shallow_rewrites,
    detect_source_domain_bias,
)
from forge.core.saga.records import Checkpoint, FindingKind

W = {"a": 1.0, "b": 1.0}


def h(id_, a, b, domain="d1", text="", parents=(), family=""):
    return ScoredHypothesis(id_, domain, text or f"idea {id_}", {"a": a, "b": b}, tuple(parents), family)


class TestScoreCompression:
    def test_fires_when_scores_bunch_in_the_middle(self):
        batch = Batch(tuple(h(f"h{i}", 5 + 0.1 * i, 5) for i in range(5)), W)
        finding = detect_score_compression(batch)
        assert finding is not None
        assert finding.kind is FindingKind.SCORE_COMPRESSION
        assert finding.statistic < 0.8 and finding.threshold == 0.8
        assert finding.hypothesis_ids == tuple(f"h{i}" for i in range(5))

    def test_silent_when_scores_spread(self):
        batch = Batch(tuple(h(f"h{i}", 2 * i, 2 * i) for i in range(5)), W)
        assert detect_score_compression(batch) is None

    def test_silent_on_a_batch_too_small_to_judge(self):
        assert detect_score_compression(Batch((h("x", 5, 5), h("y", 5, 5)), W)) is None


class TestCollinearity:
    def test_fires_on_two_dimensions_that_move_together(self):
        batch = Batch(tuple(h(f"h{i}", i, 2 * i + 1) for i in range(6)), W)
        finding = detect_collinearity(batch)
        assert finding is not None
        assert finding.statistic > 0.99
        assert finding.dimensions == ("a~b",)

    def test_silent_on_independent_dimensions(self):
        pairs = [(1, 5), (2, 1), (3, 9), (4, 2), (5, 6), (6, 3)]
        assert detect_collinearity(Batch(tuple(h(f"h{i}", a, b) for i, (a, b) in enumerate(pairs)), W)) is None

    def test_negative_correlation_counts_too(self):
        batch = Batch(tuple(h(f"h{i}", i, 10 - i) for i in range(6)), W)
        finding = detect_collinearity(batch)
        assert finding is not None and finding.statistic > 0.99


class TestSourceDomainBias:
    def test_fires_when_one_domain_scores_systematically_higher(self):
        high = [h(f"e{i}", 8 + 0.2 * i, 8, domain="ecology") for i in range(3)]
        low = [h(f"m{i}", 4 + 0.2 * i, 4, domain="music") for i in range(3)]
        finding = detect_source_domain_bias(Batch((*high, *low), W))
        assert finding is not None
        assert finding.p_value is not None and finding.p_value < 0.05
        assert finding.hypothesis_ids == ("e0", "e1", "e2")
        assert finding.dimensions == ("ecology", "music")

    def test_silent_when_domains_overlap(self):
        a = [h("a1", 5, 5, "x"), h("a2", 7, 7, "x"), h("a3", 3, 3, "x")]
        b = [h("b1", 6, 6, "y"), h("b2", 4, 4, "y"), h("b3", 5, 5, "y")]
        assert detect_source_domain_bias(Batch((*a, *b), W)) is None

    def test_silent_with_one_hypothesis_per_domain(self):
        assert detect_source_domain_bias(Batch((h("a", 9, 9, "x"), h("b", 1, 1, "y")), W)) is None


class TestShallowRewrite:
    parent = ScoredHypothesis("p", "d", "route patients by acuity through a fast lane at triage", {"a": 4, "b": 4})

    def test_fires_on_a_near_copy_whose_score_jumped(self):
        child = h("c", 8, 8, text="route patients by acuity through a quick lane at triage", parents=("p",))
        finding = detect_shallow_rewrites(Batch((child,), W), {"p": self.parent})
        assert finding is not None
        assert finding.hypothesis_ids == ("c",)
        assert finding.statistic == 4.0

    def test_silent_when_the_text_really_changed(self):
        child = h("c", 8, 8, text="borrow ant colony pheromone trails to rebalance beds between wards", parents=("p",))
        assert detect_shallow_rewrites(Batch((child,), W), {"p": self.parent}) is None

    def test_silent_when_the_score_barely_moved(self):
        child = h("c", 4.5, 4.5, text="route patients by acuity through a quick lane at triage", parents=("p",))
        assert detect_shallow_rewrites(Batch((child,), W), {"p": self.parent}) is None


class TestDiversityCollapse:
    def test_fires_when_most_share_a_family(self):
        batch = Batch(tuple(h(f"h{i}", i, i, family="feedback" if i < 4 else "flow") for i in range(5)), W)
        finding = detect_diversity_collapse(batch)
        assert finding is not None and finding.dimensions == ("feedback",)

    def test_silent_on_a_varied_pool(self):
        families = ["feedback", "flow", "network", "selection", "threshold"]
        assert (
            detect_diversity_collapse(Batch(tuple(h(f"h{i}", i, i, family=f) for i, f in enumerate(families)), W))
            is None
        )


def test_layer_one_runs_every_detector_in_order():
    batch = Batch(tuple(h(f"h{i}", 5 + 0.05 * i, 5 + 0.1 * i) for i in range(6)), W)
    kinds = [f.kind for f in detect_at(Checkpoint.CP4, Observation(batch=batch))]
    assert kinds == [FindingKind.SCORE_COMPRESSION, FindingKind.DIMENSION_COLLINEARITY]
