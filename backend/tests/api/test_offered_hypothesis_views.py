"""The review payloads' views of an offered hypothesis are checked against the core types, not copied
from them: the same fields, and an encoded candidate of each kind validates against its view."""

from __future__ import annotations

from dataclasses import fields

from forge.api.schemas.review_payloads import PoolCandidateView, SearchCandidateView
from forge.core.hypotheses.offered_hypothesis import OfferedHypothesis
from forge.core.hypotheses.pool import HypothesisId
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.search.candidates import SearchCandidate
from forge.core.session.state_codec import encode_value

POOL = PoolCandidate(
    id="h1", title="t", statement="s", mechanism="m", observable="o", mapping_score=7.5, gate_passed=False,
    domain_id="ants", domain_name="Ants", failed_rules=("row_usage",),
)  # fmt: skip
SEARCH = SearchCandidate(
    id="h2", title="t", statement="s", mechanism="m", observable="o", mapping_score=6.0, gate_passed=True,
    operator="oppose", parents=(HypothesisId("h1"),), lineage=("biso: root",), hyperpath="queue -> grid [e1]",
)  # fmt: skip


def test_each_view_has_exactly_the_fields_of_its_core_type() -> None:
    shared = {f.name for f in fields(OfferedHypothesis)}
    for view, core in ((PoolCandidateView, PoolCandidate), (SearchCandidateView, SearchCandidate)):
        assert set(view.model_fields) == {f.name for f in fields(core)}, view.__name__
        assert shared <= set(view.model_fields), view.__name__


def test_an_encoded_candidate_of_each_kind_validates_against_its_view() -> None:
    assert PoolCandidateView.model_validate(encode_value(POOL)).failed_rules == ["row_usage"]
    assert SearchCandidateView.model_validate(encode_value(SEARCH)).lineage == ["biso: root"]
