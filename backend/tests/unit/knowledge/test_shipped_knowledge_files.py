"""Validates the knowledge data shipped with the offline model (forge/knowledge)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

KNOWLEDGE_DIR = Path(__file__).resolve().parents[3] / "forge" / "knowledge"
CORPUS_DIR = KNOWLEDGE_DIR / "corpus"

REQUIRED_DOMAIN_IDS = {
    "thermodynamics",
    "queueing_theory",
    "epidemiology",
    "ecology",
    "control_theory",
    "immunology",
    "market_design",
    "evolution",
    "percolation",
    "network_science",
    "game_theory",
    "fluid_dynamics",
}
DOMAIN_KEYS = {
    "id",
    "name",
    "summary",
    "cue_terms",
    "key_variables",
    "structural_patterns",
    "semantic_distance",
}
PATTERN_KEYS = {
    "name",
    "source_relation",
    "mechanism",
    "mapping_template",
    "observable_template",
    "failure_mode",
}
TEMPLATE_KEYS = ("mapping_template", "observable_template", "failure_mode")
ALLOWED_PLACEHOLDERS = {"target", "lever", "constraint"}
SEMANTIC_DISTANCES = {"near", "medium", "far"}
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
CUE_WORD = re.compile(r"^[a-z]{3,}$")
CORPUS_URI = re.compile(r"^corpus://[a-z0-9][a-z0-9\-]*/[a-z0-9][a-z0-9\-]*$")


def _load(name: str) -> Any:
    return json.loads((KNOWLEDGE_DIR / name).read_text(encoding="utf-8"))


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def _non_empty_str(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _front_matter(path: Path) -> tuple[dict[str, str], str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines and lines[0].strip() == "---", f"{path.name} must start with '---'"
    close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    assert close is not None, f"{path.name} front matter is not closed"
    fields: dict[str, str] = {}
    for line in lines[1:close]:
        key, sep, value = line.partition(":")
        assert sep, f"{path.name}: front-matter line is not 'key: value': {line!r}"
        fields[key.strip()] = value.strip()
    return fields, "\n".join(lines[close + 1 :]).strip()


def test_at_least_sixteen_source_domains_including_the_required_ones() -> None:
    domains = _load("source_domains.json")
    assert isinstance(domains, list)
    assert len(domains) >= 16
    assert {d["id"] for d in domains} >= REQUIRED_DOMAIN_IDS


def test_source_domain_ids_are_unique_snake_case() -> None:
    ids = [d["id"] for d in _load("source_domains.json")]
    assert len(ids) == len(set(ids))
    assert all(SNAKE_CASE.match(i) for i in ids), ids


def test_every_source_domain_has_exactly_the_expected_fields() -> None:
    for d in _load("source_domains.json"):
        assert set(d) == DOMAIN_KEYS, d.get("id")
        assert _non_empty_str(d["name"]) and _non_empty_str(d["summary"]), d["id"]
        assert d["semantic_distance"] in SEMANTIC_DISTANCES, d["id"]
        assert 4 <= len(d["key_variables"]) <= 8, d["id"]
        for variable in d["key_variables"]:
            assert set(variable) == {"name", "meaning"}, d["id"]
            assert _non_empty_str(variable["name"]) and _non_empty_str(variable["meaning"]), d["id"]
        assert 3 <= len(d["structural_patterns"]) <= 5, d["id"]
        for pattern in d["structural_patterns"]:
            assert set(pattern) == PATTERN_KEYS, (d["id"], pattern.get("name"))
            assert all(_non_empty_str(pattern[key]) for key in PATTERN_KEYS), (d["id"], pattern["name"])


def test_source_domain_cue_terms_are_distinct_lowercase_single_words() -> None:
    for d in _load("source_domains.json"):
        cues = d["cue_terms"]
        assert 12 <= len(cues) <= 25, (d["id"], len(cues))
        assert len(cues) == len(set(cues)), d["id"]
        assert all(isinstance(c, str) and CUE_WORD.match(c) for c in cues), d["id"]


def test_most_source_domains_are_medium_or_far_from_everyday_problems() -> None:
    distances = [d["semantic_distance"] for d in _load("source_domains.json")]
    assert sum(1 for x in distances if x in {"medium", "far"}) > len(distances) / 2


def test_every_source_domain_maps_target_and_lever() -> None:
    for d in _load("source_domains.json"):
        for pattern in d["structural_patterns"]:
            where = (d["id"], pattern["name"])
            for key in TEMPLATE_KEYS:
                assert "target" in _placeholders(pattern[key]), (*where, key)
            assert "lever" in _placeholders(pattern["mapping_template"]), where


def test_templates_use_only_allowed_placeholders() -> None:
    for d in _load("source_domains.json"):
        for pattern in d["structural_patterns"]:
            for key in TEMPLATE_KEYS:
                fields = _placeholders(pattern[key])
                assert fields <= ALLOWED_PLACEHOLDERS, (d["id"], pattern["name"], key, fields)
                assert all(name for name in fields), (d["id"], pattern["name"], key)


def test_templates_can_be_filled_with_plain_values() -> None:
    values = {"target": "emergency wait times", "lever": "staff rosters", "constraint": "no extra budget"}
    for d in _load("source_domains.json"):
        for pattern in d["structural_patterns"]:
            for key in TEMPLATE_KEYS:
                filled = pattern[key].format(**values)
                assert "{" not in filled and "}" not in filled, (d["id"], pattern["name"], key)


def test_non_template_domain_text_has_no_braces() -> None:
    for d in _load("source_domains.json"):
        texts = [d["name"], d["summary"], *(v["name"] + v["meaning"] for v in d["key_variables"])]
        texts += [p[k] for p in d["structural_patterns"] for k in ("name", "source_relation", "mechanism")]
        assert not any("{" in t or "}" in t for t in texts), d["id"]


def test_triz_principles_are_the_forty_in_standard_order() -> None:
    principles = _load("triz_principles.json")
    assert [p["number"] for p in principles] == list(range(1, 41))
    assert principles[0]["name"].startswith("Segmentation")
    assert principles[22]["name"].startswith("Feedback")
    assert principles[39]["name"].startswith("Composite")
    for p in principles:
        assert set(p) == {"number", "name", "description", "abstract_form", "cue_terms"}, p["number"]
        assert _non_empty_str(p["name"]) and _non_empty_str(p["description"]), p["number"]
        assert 5 <= len(p["cue_terms"]) <= 12, p["number"]
        assert all(CUE_WORD.match(c) for c in p["cue_terms"]), p["number"]


def test_every_triz_principle_abstract_form_mentions_only_the_target() -> None:
    for p in _load("triz_principles.json"):
        assert _placeholders(p["abstract_form"]) == {"target"}, p["number"]


def test_triz_parameters_are_the_thirty_nine_in_standard_order() -> None:
    parameters = _load("triz_parameters.json")
    assert [p["number"] for p in parameters] == list(range(1, 40))
    assert parameters[0]["name"].startswith("Weight of moving")
    assert parameters[8]["name"] == "Speed"
    assert parameters[26]["name"] == "Reliability"
    assert parameters[38]["name"] == "Productivity"
    for p in parameters:
        assert set(p) == {"number", "name", "cue_terms"}, p["number"]
        assert 5 <= len(p["cue_terms"]) <= 15, p["number"]
        assert len(p["cue_terms"]) == len(set(p["cue_terms"])), p["number"]
        assert all(CUE_WORD.match(c) for c in p["cue_terms"]), p["number"]


def test_corpus_has_enough_documents_with_front_matter() -> None:
    files = sorted(CORPUS_DIR.glob("*.md"))
    assert len(files) >= 24
    for path in files:
        fields, _ = _front_matter(path)
        for key in ("title", "source", "topics"):
            assert fields.get(key), f"{path.name} lacks {key}"


def test_corpus_sources_are_unique_corpus_uris() -> None:
    sources = [_front_matter(path)[0]["source"] for path in sorted(CORPUS_DIR.glob("*.md"))]
    assert len(sources) == len(set(sources))
    assert all(CORPUS_URI.match(s) for s in sources), sources


def test_corpus_bodies_are_short_documents_without_web_links() -> None:
    for path in sorted(CORPUS_DIR.glob("*.md")):
        _, body = _front_matter(path)
        words = len(body.split())
        assert 120 <= words <= 400, (path.name, words)
        assert "http://" not in body and "https://" not in body, path.name
