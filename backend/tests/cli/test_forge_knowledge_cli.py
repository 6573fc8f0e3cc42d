"""`forge knowledge domains | triz I W` in-process: the shipped library and matrix, clear failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.cli.main import main


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FORGE_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path


def test_domains_lists_every_domain_and_counts_structures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knowledge", "domains"]) == 0
    printed = capsys.readouterr().out
    assert "thermodynamics" in printed and "Electric power grids" in printed
    assert printed.strip().splitlines()[-1].startswith("36 domains, 180 structures")


def test_domains_with_structures_shows_their_relations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knowledge", "domains", "--structures"]) == 0
    assert "- Carnot ceiling: the efficiency of any heat engine" in capsys.readouterr().out


def test_triz_prints_the_cell_in_matrix_order_with_sub_principles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knowledge", "triz", "19", "9"]) == 0
    printed = capsys.readouterr().out
    labels = [line.strip() for line in printed.splitlines() if line.startswith("  ") and not line.startswith("    ")]
    assert labels == ["8. Anti-weight", "15. Dynamics", "35. Parameter changes"]
    assert "- Break down the object into parts" in printed


def test_triz_says_when_the_classic_cell_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knowledge", "triz", "1", "2"]) == 0
    assert "no principles for this pair" in capsys.readouterr().out


@pytest.mark.parametrize(("improving", "worsening", "words"), [("0", "3", "1 to 39"), ("4", "4", "diagonal")])
def test_triz_refuses_bad_pairs_with_exit_2(
    capsys: pytest.CaptureFixture[str], improving: str, worsening: str, words: str
) -> None:
    assert main(["knowledge", "triz", improving, worsening]) == 2
    captured = capsys.readouterr()
    assert words in captured.err and captured.out == ""
