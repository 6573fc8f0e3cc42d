"""Validates the shipped knowledge files (forge/knowledge) as written, before any loader reads them."""

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
DOMAIN_KEYS = {"id", "name", "field", "summary", "cue_terms", "key_variables", "structures"}
STRUCTURE_KEYS = {
    "name",
    "source_relation",
    "mechanism",
    "key_variables",
    "dynamics",
    "typical_observables",
    "failure_modes",
    "references",
    "transfer",
}
LIST_KEYS = ("key_variables", "typical_observables", "failure_modes", "references")
TEXT_KEYS = ("name", "source_relation", "mechanism", "dynamics")
TEMPLATE_KEYS = ("mapping", "observable", "failure")
ALLOWED_PLACEHOLDERS = {"target", "lever", "constraint"}
FIELDS = {"physical", "biological", "social", "formal", "engineering"}
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
CUE_WORD = re.compile(r"^[a-z]{3,}$")
CORPUS_URI = re.compile(r"^corpus://[a-z0-9][a-z0-9\-]*/[a-z0-9][a-z0-9\-]*$")
# A reference names its author(s) and a year in parentheses: "Shannon, C. E. (1948). ..."
REFERENCE = re.compile(r"^[A-Za-z][^()]*\((?:1[6-9]|20)\d\d[a-z]?\)\. .{10,}")


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


def _structures() -> list[tuple[str, dict[str, Any]]]:
    return [(d["id"], st) for d in _load("source_domains.json") for st in d["structures"]]


def test_at_least_thirty_six_domains_covering_every_field() -> None:
    domains = _load("source_domains.json")
    assert isinstance(domains, list)
    assert len(domains) >= 36
    assert {d["id"] for d in domains} >= REQUIRED_DOMAIN_IDS
    fields = [d["field"] for d in domains]
    assert set(fields) == FIELDS
    assert min(fields.count(f) for f in FIELDS) >= 5, fields


def test_source_domain_ids_are_unique_snake_case() -> None:
    ids = [d["id"] for d in _load("source_domains.json")]
    assert len(ids) == len(set(ids))
    assert all(SNAKE_CASE.match(i) for i in ids), ids


def test_every_source_domain_has_exactly_the_expected_fields() -> None:
    for d in _load("source_domains.json"):
        assert set(d) == DOMAIN_KEYS, d.get("id")
        assert _non_empty_str(d["name"]) and _non_empty_str(d["summary"]), d["id"]
        assert 4 <= len(d["key_variables"]) <= 8, d["id"]
        for variable in d["key_variables"]:
            assert set(variable) == {"name", "meaning"}, d["id"]
            assert _non_empty_str(variable["name"]) and _non_empty_str(variable["meaning"]), d["id"]
        assert len(d["structures"]) >= 5, d["id"]


def test_every_structure_has_its_science_written_out() -> None:
    for domain_id, st in _structures():
        where = (domain_id, st.get("name"))
        assert set(st) == STRUCTURE_KEYS, where
        assert all(_non_empty_str(st[key]) for key in TEXT_KEYS), where
        for key in LIST_KEYS:
            assert st[key] and all(_non_empty_str(item) for item in st[key]), (*where, key)
        assert len(st["mechanism"]) >= 80 and len(st["dynamics"]) >= 50, where


def test_structure_names_are_unique_within_a_domain() -> None:
    for d in _load("source_domains.json"):
        names = [st["name"].lower() for st in d["structures"]]
        assert len(names) == len(set(names)), d["id"]


def test_every_structure_cites_dated_references() -> None:
    for domain_id, st in _structures():
        assert 1 <= len(st["references"]) <= 4, (domain_id, st["name"])
        for reference in st["references"]:
            assert REFERENCE.match(reference), (domain_id, st["name"], reference)


def test_source_domain_cue_terms_are_distinct_lowercase_single_words() -> None:
    for d in _load("source_domains.json"):
        cues = d["cue_terms"]
        assert 12 <= len(cues) <= 25, (d["id"], len(cues))
        assert len(cues) == len(set(cues)), d["id"]
        assert all(isinstance(c, str) and CUE_WORD.match(c) for c in cues), d["id"]


def test_every_transfer_maps_target_and_lever() -> None:
    for domain_id, st in _structures():
        transfer = st["transfer"]
        assert set(transfer) == set(TEMPLATE_KEYS), (domain_id, st["name"])
        for key in TEMPLATE_KEYS:
            assert "target" in _placeholders(transfer[key]), (domain_id, st["name"], key)
        assert "lever" in _placeholders(transfer["mapping"]), (domain_id, st["name"])


def test_templates_use_only_allowed_placeholders() -> None:
    for domain_id, st in _structures():
        for key in TEMPLATE_KEYS:
            fields = _placeholders(st["transfer"][key])
            assert fields <= ALLOWED_PLACEHOLDERS, (domain_id, st["name"], key, fields)
            assert all(name for name in fields), (domain_id, st["name"], key)


def test_templates_can_be_filled_with_plain_values() -> None:
    values = {"target": "emergency wait times", "lever": "staff rosters", "constraint": "no extra budget"}
    for domain_id, st in _structures():
        for key in TEMPLATE_KEYS:
            filled = st["transfer"][key].format(**values)
            assert "{" not in filled and "}" not in filled, (domain_id, st["name"], key)


def test_non_template_domain_text_has_no_braces() -> None:
    for d in _load("source_domains.json"):
        texts = [d["name"], d["summary"], *(v["name"] + v["meaning"] for v in d["key_variables"])]
        for st in d["structures"]:
            texts += [st[k] for k in TEXT_KEYS] + [item for k in LIST_KEYS for item in st[k]]
        assert not any("{" in t or "}" in t for t in texts), d["id"]


def test_triz_principle_cues_are_the_forty_in_standard_order() -> None:
    principles = _load("triz_principles.json")
    assert [p["number"] for p in principles] == list(range(1, 41))
    for p in principles:
        assert set(p) == {"number", "description", "abstract_form", "cue_terms"}, p["number"]
        assert _non_empty_str(p["description"]), p["number"]
        assert 5 <= len(p["cue_terms"]) <= 12, p["number"]
        assert all(CUE_WORD.match(c) for c in p["cue_terms"]), p["number"]


def test_every_triz_principle_abstract_form_mentions_only_the_target() -> None:
    for p in _load("triz_principles.json"):
        assert _placeholders(p["abstract_form"]) == {"target"}, p["number"]


def test_triz_parameter_cues_are_the_thirty_nine_in_standard_order() -> None:
    parameters = _load("triz_parameters.json")
    assert [p["number"] for p in parameters] == list(range(1, 40))
    for p in parameters:
        assert set(p) == {"number", "cue_terms"}, p["number"]
        assert 5 <= len(p["cue_terms"]) <= 15, p["number"]
        assert len(p["cue_terms"]) == len(set(p["cue_terms"])), p["number"]
        assert all(CUE_WORD.match(c) for c in p["cue_terms"]), p["number"]


def test_the_classic_matrix_file_names_the_parameters_and_principles_in_order() -> None:
    classic = _load("triz_matrix.json")
    names = [p["name"] for p in classic["parameters"]]
    assert names[0] == "Weight of moving object" and names[8] == "Speed" and names[38] == "Productivity"
    principles = [p["name"] for p in classic["principles"]]
    assert principles[0] == "Segmentation" and principles[22] == "Feedback" and principles[39].startswith("Composite")
    assert all(p["sub_principles_en"] for p in classic["principles"])


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
