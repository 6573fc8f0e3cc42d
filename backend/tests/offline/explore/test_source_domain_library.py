"""Choosing relevant, diverse, distant domains from the source-domain library for the offline model."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.knowledge_examples import make_domain, make_structure

from forge.core.domain_types import SemanticDistance
from forge.core.explore.library_records import SourceDomain, StructureTransfer
from forge.knowledge.load_knowledge import load_source_domains
from forge.offline.explore.source_domain_library import distance_of, fill, find_domain, select_domains
from forge.offline.frame.problem_frame import frame_problem

HOSPITAL = frame_problem("How can a hospital cut emergency wait times without more staff?")
NEAR_SUMMARY = "Studies hospital emergency department wait times, staff rosters and patient queues."
TRANSFER = StructureTransfer(
    "Apply it to {target} through {lever}, {constraint}.", "{target} per week", "If {target} is fixed."
)


def _domain(domain_id: str, summary: str, cues: tuple[str, ...], pattern: str) -> SourceDomain:
    structure = replace(make_structure(pattern, f"{pattern} relation"), transfer=TRANSFER)
    return replace(make_domain(domain_id, summary=summary, cues=cues or ("zzz",)), structures=(structure,))


@pytest.fixture
def library() -> tuple[SourceDomain, ...]:
    return (
        _domain("far_twin", "Studies glaciers and ice sheets.", (), "Pooling"),
        _domain("queues", "Studies how lines form at counters.", ("wait", "waiting", "queue"), "Pooling"),
        _domain("gradients", "Studies heat conduction in crystals.", (), "Gradient"),
        _domain("thresholds", "Studies volcanic eruptions.", (), "Threshold"),
        _domain("near_plain", NEAR_SUMMARY, (), "Plain"),
    )


class TestSelectDomains:
    def test_the_cue_matching_domain_comes_first(self, library: tuple[SourceDomain, ...]) -> None:
        chosen = select_domains(library, HOSPITAL)
        assert chosen[0].domain.id == "queues"
        assert "wait" in chosen[0].cue_hits

    def test_no_two_chosen_domains_share_their_best_pattern(self, library: tuple[SourceDomain, ...]) -> None:
        chosen = select_domains(library, HOSPITAL)
        names = [c.pattern.name for c in chosen]
        assert len(names) == len(set(names)) == 3
        assert "far_twin" not in [c.domain.id for c in chosen]

    def test_a_domain_near_the_problems_own_field_is_not_an_analogy_source(
        self, library: tuple[SourceDomain, ...]
    ) -> None:
        chosen = [c.domain.id for c in select_domains(library, HOSPITAL)]
        assert chosen == ["queues", "gradients", "thresholds"]

    def test_a_suggested_domain_is_chosen_first(self, library: tuple[SourceDomain, ...]) -> None:
        domains = library
        chosen = select_domains(domains, HOSPITAL, suggested=["Near Plain"])
        assert chosen[0].domain.id == "near_plain"

    def test_selection_is_deterministic(self, library: tuple[SourceDomain, ...]) -> None:
        domains = library
        assert select_domains(domains, HOSPITAL) == select_domains(tuple(reversed(domains)), HOSPITAL)


class TestShippedLibrary:
    def test_a_queueing_problem_meets_queueing_theory_first(self) -> None:
        chosen = select_domains(load_source_domains(), HOSPITAL)
        assert chosen[0].domain.name == "Queueing theory"
        assert len({c.domain.id for c in chosen}) == 3

    def test_different_problems_meet_different_domains(self) -> None:
        domains = load_source_domains()
        churn = frame_problem("How can we reduce churn of open-source contributors?")
        heat = frame_problem("How can a city keep heat-wave deaths down with a fixed budget?")
        sets = [frozenset(c.domain.id for c in select_domains(domains, f)) for f in (HOSPITAL, churn, heat)]
        assert len(set(sets)) == 3


class TestLoadAndFill:
    def test_distance_is_computed_from_the_problem_not_a_tag(self, library: tuple[SourceDomain, ...]) -> None:
        by_id = {d.id: d for d in library}
        assert distance_of(by_id["near_plain"], HOSPITAL) is SemanticDistance.NEAR
        assert distance_of(by_id["gradients"], HOSPITAL) is not SemanticDistance.NEAR

    def test_fill_replaces_placeholders_and_makes_verbs_agree(self, library: tuple[SourceDomain, ...]) -> None:
        text = fill("If {target} is fixed, use {lever} {constraint}.", HOSPITAL)
        assert text == f"If emergency wait times are fixed, use {HOSPITAL.lever} without more staff."

    def test_find_domain_by_name_or_id(self, library: tuple[SourceDomain, ...]) -> None:
        domains = library
        assert find_domain(domains, "queues") == find_domain(domains, "Queues")
        assert find_domain(domains, "nowhere") is None
