"""A pool hypothesis read as the claim it would make for VERIFY: a stable id per hypothesis, its
parts mapped one to one (mechanism → thesis, failure modes → antithesis, observable → condition),
and its mapping rows shown to the verifier as labelled parts."""

from __future__ import annotations

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary
from forge.core.verify.hypothesis_claim import MAPPING_ROWS_SHOWN, hypothesis_claim, hypothesis_parts

OBSERVABLE = "door-to-doctor minutes per patient each evening"


def hypothesis(hid: str, rows: int = 8) -> Hypothesis:
    table = MappingTable(
        tuple(
            MappingRow(f"packet {i}", "queues at", f"patient {i}", "waits at", MappingType.RELATION)
            for i in range(rows)
        )
    )
    return Hypothesis(
        HypothesisId(hid), "networking", "Computer networking", "s", "Throttle arrivals", "Throttle evening arrivals",
        "admission control like TCP congestion windows", table, OBSERVABLE, ("a surge", "walk-ins"),
        gate_summary(table, OBSERVABLE),
    )  # fmt: skip


def test_the_stand_in_claim_has_a_stable_id_and_the_hypothesis_parts() -> None:
    claim = hypothesis_claim(hypothesis("biso-0-networking-1"))
    assert claim.id == hypothesis_claim(hypothesis("biso-0-networking-1")).id
    assert claim.id != hypothesis_claim(hypothesis("biso-0-networking-2")).id
    assert (claim.text, claim.thesis_text, claim.antithesis_text, claim.falsifiability_condition) == (
        "Throttle evening arrivals",
        "admission control like TCP congestion windows",
        "a surge; walk-ins",
        OBSERVABLE,
    )
    assert claim.cross_domain_source == "Computer networking" and claim.hypothesis_ids == ("biso-0-networking-1",)


def test_the_verifier_reads_the_hypothesis_its_mechanism_and_at_most_six_mapping_rows() -> None:
    parts = hypothesis_parts(hypothesis("h"))
    labels = [label for label, _ in parts]
    assert labels[:4] == ["hypothesis", "mechanism", "failure modes", "observable"]
    assert len(labels) == 4 + MAPPING_ROWS_SHOWN == 10
    assert parts[4] == ("mapping row 1 (Computer networking)", "packet 0 queues at → patient 0 waits at")
