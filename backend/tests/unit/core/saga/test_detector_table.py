"""The SAGA detector table: every finding kind is reported by an entry of `DETECTORS` or by a place
listed in `PRODUCED_ELSEWHERE`, each checkpoint has its detectors, and a checkpoint's findings come
in the table's order."""

from collections import Counter

from forge.core.saga.checkpoints import CHECKPOINT_PHASE
from forge.core.saga.detector_table import DETECTORS, PRODUCED_ELSEWHERE, Observation, detect_at
from forge.core.saga.detectors import Batch, ScoredHypothesis
from forge.core.saga.records import LAYER_OF, Checkpoint, FindingKind

# Two statistics for one concern: the ANOVA of the scores by domain (CP-4..6) and the fields and
# distances of the chosen domains (CP-3).
TWO_DETECTORS = {FindingKind.SOURCE_DOMAIN_BIAS}


def test_every_finding_kind_has_an_entry_or_is_listed_as_produced_elsewhere() -> None:
    in_table = {d.kind for d in DETECTORS}
    assert in_table | set(PRODUCED_ELSEWHERE) == set(FindingKind)
    assert not in_table & set(PRODUCED_ELSEWHERE)
    assert {kind for kind, n in Counter(d.kind for d in DETECTORS).items() if n > 1} == TWO_DETECTORS


def test_every_entry_has_its_kinds_layer_and_runs_at_recorded_checkpoints() -> None:
    assert set(LAYER_OF) == set(FindingKind)
    for detector in DETECTORS:
        assert detector.layer == LAYER_OF[detector.kind]
        assert detector.checkpoints and detector.checkpoints <= set(CHECKPOINT_PHASE)
    assert {cp for d in DETECTORS for cp in d.checkpoints} == set(Checkpoint)


def test_each_checkpoint_runs_its_detectors_in_table_order() -> None:
    def kinds(checkpoint: Checkpoint) -> list[FindingKind]:
        return [d.kind for d in DETECTORS if checkpoint in d.checkpoints]

    layer_one = [FindingKind.SCORE_COMPRESSION, FindingKind.DIMENSION_COLLINEARITY, FindingKind.SOURCE_DOMAIN_BIAS]
    layer_four = [FindingKind.HARD_CONSTRAINT_VIOLATION, FindingKind.ANTI_PATTERN, FindingKind.STALE_IDEA]
    batch_audits = [FindingKind.DIVERSITY_COLLAPSE, FindingKind.MAPPING_PADDING, FindingKind.INJECTION_SUSPECTED]
    assert kinds(Checkpoint.CP1) == [FindingKind.CONSTRAINT_AUDIT]
    assert kinds(Checkpoint.CP2) == [FindingKind.TARGET_DOMAIN]
    assert kinds(Checkpoint.CP3) == [FindingKind.SOURCE_DOMAIN_BIAS]
    assert kinds(Checkpoint.CP4) == [*layer_one, *batch_audits, *layer_four, FindingKind.FAVOURITE_PATTERN]
    assert kinds(Checkpoint.CP5) == [
        *layer_one,
        FindingKind.SHALLOW_REWRITE,
        *batch_audits,
        *layer_four,
        FindingKind.FAVOURITE_PATTERN,
    ]
    assert kinds(Checkpoint.CP6) == [*layer_one, FindingKind.INJECTION_SUSPECTED, *layer_four]
    assert kinds(Checkpoint.CP7) == [
        FindingKind.HARD_CONSTRAINT_VIOLATION,
        FindingKind.FAVOURITE_PATTERN,
        FindingKind.RISK_CONVERGENCE,
    ]


def test_a_detector_whose_input_the_checkpoint_lacks_finds_nothing() -> None:
    assert all(detect_at(cp, Observation()) == [] for cp in Checkpoint)
    tight = Batch(tuple(ScoredHypothesis(f"h{i}", "d", f"idea {i}", {"a": 5.0, "b": 5.0}) for i in range(4)))
    assert [f.kind for f in detect_at(Checkpoint.CP6, Observation(batch=tight))] == [FindingKind.SCORE_COMPRESSION]
    assert detect_at(Checkpoint.CP1, Observation(batch=tight)) == []
