"""The `forge` command in-process: answer in autopilot writes the document and the session JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.cli.main import main


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FORGE_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path


def test_answer_runs_six_phases_in_autopilot_and_writes_both_files(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = data_dir / "out"
    code = main(
        [
            "answer",
            "How can a hospital cut emergency wait times without more staff?",
            "--out",
            str(out),
            "--rounds",
            "2",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0, printed
    for phase in ("DECOMPOSE", "EXPLORE", "SYNTHESIZE", "VALIDATE", "BUILD", "CRYSTALLIZE"):
        assert f"▸ {phase}" in printed
    assert "(round 2)" in printed  # --rounds 2 ran a second synthesis round
    document = next(p for p in out.glob("*.md") if not p.name.endswith(".answer.md")).read_text(encoding="utf-8")
    session = json.loads(next(p for p in out.glob("*.json") if not p.name.endswith(".answer.json")).read_text("utf-8"))
    assert document.startswith("# Knowledge Document: Cut emergency wait times\n") and "offline model" in document
    assert "## Direct Answer" in document
    answer = json.loads(next(out.glob("*.answer.json")).read_text(encoding="utf-8"))
    assert answer["offline"] is True and answer["compliance"]["checks"]  # audited against the hard constraint
    assert next(out.glob("*.answer.md")).read_text(encoding="utf-8").startswith("# Cut emergency wait times\n")
    assert session["finished"] is True and session["state"]["knowledge_document_markdown"] == document
    assert [e["id"] for e in session["events"]] == list(range(1, len(session["events"]) + 1))
    reviews = [e["data"]["summary"] for e in session["events"] if e["type"] == "user_input"]
    assert reviews and all(r.startswith("autopilot: ") for r in reviews)  # marked as the API marks them
    assert "↳ decompose_review: autopilot: " in printed
    assert (data_dir / "var" / "forge.db").exists()


def test_answer_refuses_a_too_short_problem_with_a_message(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["answer", "short", "--out", str(data_dir / "out")]) == 2
    assert "characters" in capsys.readouterr().out


def test_migrate_creates_the_embedded_database(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate"]) == 0
    assert "database at head (sqlite)" in capsys.readouterr().out
    assert (data_dir / "var" / "forge.db").exists()
