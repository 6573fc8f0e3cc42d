"""Loading the source-domain library and choosing relevant, diverse, distant domains."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forge.providers.offline.offline_knowledge import DEFAULT_KNOWLEDGE_DIR
from forge.providers.offline.problem_frame import frame_problem
from forge.providers.offline.source_domain_library import (
    fill,
    find_domain,
    load_source_domains,
    select_domains,
)

HOSPITAL = frame_problem("How can a hospital cut emergency wait times without more staff?")


def _pattern(name: str) -> dict[str, str]:
    return {
        "name": name,
        "source_relation": f"{name} relation",
        "mechanism": f"{name} mechanism",
        "mapping_template": "Apply it to {target} through {lever}, {constraint}.",
        "observable_template": "{target} per week",
        "failure_mode": "If {target} is fixed, it fails.",
    }


def _domain(domain_id: str, distance: str, cues: list[str], pattern: str) -> dict[str, Any]:
    return {
        "id": domain_id,
        "name": domain_id.replace("_", " ").title(),
        "summary": f"{domain_id} summary",
        "cue_terms": cues,
        "key_variables": [{"name": "x", "meaning": "a variable"}],
        "structural_patterns": [_pattern(pattern)],
        "semantic_distance": distance,
    }


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    domains = [
        _domain("far_twin", "far", [], "Pooling"),
        _domain("queues", "near", ["wait", "waiting", "queue"], "Pooling"),
        _domain("gradients", "far", [], "Gradient"),
        _domain("thresholds", "medium", [], "Threshold"),
        _domain("near_plain", "near", [], "Plain"),
    ]
    (tmp_path / "source_domains.json").write_text(json.dumps(domains), encoding="utf-8")
    return tmp_path


class TestSelectDomains:
    def test_the_cue_matching_domain_comes_first(self, library_dir: Path) -> None:
        chosen = select_domains(load_source_domains(library_dir), HOSPITAL)
        assert chosen[0].domain.id == "queues"
        assert "wait" in chosen[0].cue_hits

    def test_no_two_chosen_domains_share_their_best_pattern(self, library_dir: Path) -> None:
        chosen = select_domains(load_source_domains(library_dir), HOSPITAL)
        names = [c.pattern.name for c in chosen]
        assert len(names) == len(set(names)) == 3
        assert "far_twin" not in [c.domain.id for c in chosen]

    def test_far_and_medium_domains_are_preferred_over_near_ones(self, library_dir: Path) -> None:
        chosen = [c.domain.id for c in select_domains(load_source_domains(library_dir), HOSPITAL)]
        assert chosen == ["queues", "gradients", "thresholds"]

    def test_a_suggested_domain_is_chosen_first(self, library_dir: Path) -> None:
        domains = load_source_domains(library_dir)
        chosen = select_domains(domains, HOSPITAL, suggested=["Near Plain"])
        assert chosen[0].domain.id == "near_plain"

    def test_selection_is_deterministic(self, library_dir: Path) -> None:
        domains = load_source_domains(library_dir)
        assert select_domains(domains, HOSPITAL) == select_domains(tuple(reversed(domains)), HOSPITAL)


class TestShippedLibrary:
    def test_a_queueing_problem_meets_queueing_theory_first(self) -> None:
        chosen = select_domains(load_source_domains(DEFAULT_KNOWLEDGE_DIR), HOSPITAL)
        assert chosen[0].domain.name == "Queueing theory"
        assert len({c.domain.id for c in chosen}) == 3

    def test_different_problems_meet_different_domains(self) -> None:
        domains = load_source_domains(DEFAULT_KNOWLEDGE_DIR)
        churn = frame_problem("How can we reduce churn of open-source contributors?")
        heat = frame_problem("How can a city keep heat-wave deaths down with a fixed budget?")
        sets = [frozenset(c.domain.id for c in select_domains(domains, f)) for f in (HOSPITAL, churn, heat)]
        assert len(set(sets)) == 3


class TestLoadAndFill:
    def test_a_malformed_domain_fails_loudly_naming_the_file(self, tmp_path: Path) -> None:
        (tmp_path / "source_domains.json").write_text(json.dumps([{"id": "broken"}]), encoding="utf-8")
        with pytest.raises(ValueError, match=r"source_domains\.json"):
            load_source_domains(tmp_path)

    def test_fill_replaces_placeholders_and_makes_verbs_agree(self, library_dir: Path) -> None:
        text = fill("If {target} is fixed, use {lever} {constraint}.", HOSPITAL)
        assert text == "If emergency wait times are fixed, use staff without more staff."

    def test_find_domain_by_name_or_id(self, library_dir: Path) -> None:
        domains = load_source_domains(library_dir)
        assert find_domain(domains, "queues") == find_domain(domains, "Queues")
        assert find_domain(domains, "nowhere") is None
