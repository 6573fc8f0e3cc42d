"""`forge hkg ingest | stats | traverse` in-process: readable paths, clear failures, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.hkg_reference import hub_trap

from forge.cli.main import main
from forge.core.hkg.hypergraph_jsonl import dump_hypergraph_jsonl
from forge.core.hkg.hyperpath_enumeration import MAX_EXPANDED_PATHS


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FORGE_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path


def _jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


GAS = [
    {"type": "node", "id": "t", "label": "temperature", "aliases": ["heat level"]},
    {"type": "node", "id": "p", "label": "pressure"},
    {"type": "node", "id": "v", "label": "volume"},
    {"type": "node", "id": "x", "label": "unlinked"},
    {"type": "hyperedge", "id": "gas-law", "relation": "constrains", "nodes": ["t", "p"],
     "provenance": [{"source": "physics.pdf", "locator": "p. 12", "text": "DO NOT PRINT"}]},
    {"type": "hyperedge", "id": "piston", "relation": "moves", "nodes": ["p", "v"], "provenance": ["notes.md"]},
    {"type": "hyperedge", "id": "alone", "relation": "is", "nodes": ["x"]},
]  # fmt: skip


def test_stats_without_an_ingested_file_describe_the_demo(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hkg", "stats"]) == 0
    printed = capsys.readouterr().out
    assert "demo hypergraph" in printed
    assert "hyperedges" in printed


def test_traverse_on_the_demo_prints_paths_with_labels_relations_and_sources(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hkg", "traverse", "--from", "entropy", "--to", "queue", "--k", "2"]) == 0
    printed = capsys.readouterr().out
    assert "HKG_PATH_FOUND: 2 path(s)" in printed
    assert "path 1 ·" in printed and "path 2 ·" in printed
    assert "source: knowledge/source_domains.json#" in printed


def test_ingest_then_traverse_uses_the_ingested_file(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _jsonl(data_dir / "gas.jsonl", GAS)
    assert main(["hkg", "ingest", str(source)]) == 0
    assert "hyperedges" in capsys.readouterr().out
    assert (data_dir / "var" / "hkg" / "hypergraph.jsonl").is_file()
    code = main(["hkg", "traverse", "--from", "heat level", "--to", "volume", "--max-len", "3"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "from 'heat level' → temperature [t] (alias, 0.92)" in printed
    assert "1. —constrains— [gas-law]  source: physics.pdf#p. 12" in printed
    assert "via pressure [p]" in printed
    assert "2. —moves— [piston]  source: notes.md" in printed
    assert "DO NOT PRINT" not in printed


def test_no_path_exits_1_with_path_not_found(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["hkg", "ingest", str(_jsonl(data_dir / "gas.jsonl", GAS))])
    assert main(["hkg", "traverse", "--from", "temperature", "--to", "unlinked"]) == 1
    assert "PATH_NOT_FOUND" in capsys.readouterr().err


def test_max_len_shorter_than_the_path_is_path_not_found(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["hkg", "ingest", str(_jsonl(data_dir / "gas.jsonl", GAS))])
    assert main(["hkg", "traverse", "--from", "temperature", "--to", "volume", "--max-len", "1"]) == 1
    assert "no hyperpath of at most 1 hyperedges" in capsys.readouterr().err


def test_unknown_terms_exit_1_naming_them(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["hkg", "ingest", str(_jsonl(data_dir / "gas.jsonl", GAS))])
    assert main(["hkg", "traverse", "--from", "zebra", "--to", "volume"]) == 1
    assert "no node matches 'zebra'" in capsys.readouterr().err


def test_a_bad_jsonl_line_exits_2_with_its_number_and_keeps_the_previous_hypergraph(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["hkg", "ingest", str(_jsonl(data_dir / "gas.jsonl", GAS))])
    bad = data_dir / "bad.jsonl"
    bad.write_text('{"type": "node", "id": "a"}\n{"type": "node", "id": \n', encoding="utf-8")
    assert main(["hkg", "ingest", str(bad)]) == 2
    assert f"{bad}: line 2: not JSON" in capsys.readouterr().err
    assert main(["hkg", "stats"]) == 0
    assert "ingested hypergraph" in capsys.readouterr().out


def test_a_missing_file_and_bad_settings_exit_2(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hkg", "ingest", str(data_dir / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["hkg", "traverse", "--from", "a", "--to", "b", "--k", "0"]) == 2
    assert "k must be between" in capsys.readouterr().err


def test_graphml_is_ingested_as_two_node_hyperedges(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    graphml = data_dir / "g.graphml"
    graphml.write_text(
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="undirected">'
        '<node id="a"/><node id="b"/><node id="c"/><edge source="a" target="b"/><edge source="b" target="c"/>'
        "</graph></graphml>",
        encoding="utf-8",
    )
    assert main(["hkg", "ingest", str(graphml)]) == 0
    capsys.readouterr()
    assert main(["hkg", "traverse", "--from", "a", "--to", "c"]) == 0
    assert "source: g.graphml#edge edge:0" in capsys.readouterr().out


def test_a_traversal_cut_at_its_work_bound_says_so(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trap = hub_trap().contents
    source = data_dir / "trap.jsonl"
    source.write_text(dump_hypergraph_jsonl(trap.nodes, trap.hyperedges), encoding="utf-8")
    assert main(["hkg", "ingest", str(source)]) == 0
    assert main(["hkg", "traverse", "--from", "s", "--to", "t"]) == 0
    printed = capsys.readouterr().out
    assert "HKG_PATH_FOUND: 1 path(s)" in printed
    assert f"the search stopped at its work bound ({MAX_EXPANDED_PATHS:,} partial paths)" in printed
