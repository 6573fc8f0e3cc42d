"""`forge eval` offline, end to end, on a tiny data file of each suite in its published format (written
here, not the suites' text): both arms run, the report, its Markdown and the plot are written and say
they are offline, and a rerun skips every finished item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.cli.main import main

MACGYVER = [
    {
        "id": "t1",
        "problem": "Your phone fell behind a heavy bookcase. Tools available: a wire coat hanger, tape, a torch. "
        "How do you get the phone back using only these items?",
        "solvable": True,
        "unconventional": True,
        "solution": "Step1: Unbend the wire coat hanger into a hook. <br>\nStep2: Light the gap with the torch. <br>\n"
        "Step3: Hook the phone and pull it out.",
        "label": "efficient",
    }
]
MOOSE_CHEM = [
    {
        "id": 0,
        "title": "A tough hydrogel electrolyte",
        "background_question": "How can a hydrogel electrolyte be both tough and highly conductive?",
        "background_question_strict": None,
        "background_survey": "Hydrogel electrolytes trade toughness for ionic conductivity; salts weaken polymer chains.",
        "background_survey_strict": None,
        "ground_truth_hypothesis": "Adding a kosmotropic salt to a poly(vinyl alcohol) hydrogel and freezing it in one "
        "direction aligns the chains, so the gel is tough and conducts ions well.",
    }
]
SCAN = [
    {
        "target_domain": "city",
        "source_domain": "body",
        "target_word": "road",
        "source_word": "artery",
        "alternatives": ["vein"],
    },
    {
        "target_domain": "city",
        "source_domain": "body",
        "target_word": "mayor",
        "source_word": "brain",
        "alternatives": [],
    },
    {
        "target_domain": "city",
        "source_domain": "body",
        "target_word": "park",
        "source_word": "lung",
        "alternatives": [],
    },
]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORGE_MODEL", "offline")
    monkeypatch.delenv("FORGE_VERIFIER_MODEL", raising=False)
    monkeypatch.delenv("FORGE_BUDGET_USD", raising=False)


def _write(tmp_path: Path, suite: str) -> Path:
    if suite == "moose-chem":
        path = tmp_path / "benchmark.json"
        path.write_text(json.dumps(MOOSE_CHEM), encoding="utf-8")
        return path
    rows = MACGYVER if suite == "macgyver" else SCAN
    path = tmp_path / f"{suite}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("suite", ["scan", "macgyver", "moose-chem"])
def test_each_suite_runs_offline_writes_report_and_plot_and_resumes(
    suite: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["eval", suite, "--data", str(_write(tmp_path, suite)), "--out", str(out), "--concurrency", "2"]
    assert main(args) == 0
    first = capsys.readouterr()
    assert "answered 2 item-arms, 0 already done" in first.out and "OFFLINE" in first.out
    assert "1/1 items" in first.err  # the progress bar
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["offline"] is True and report["notice"].startswith("OFFLINE")
    assert {i["arm"] for i in report["items"]} == {"engine", "direct"}
    assert all(i["error"] == "" and i["answer"] for i in report["items"]), report["items"]
    assert set(report["summary"]) == {"engine", "direct"}
    judged = suite != "scan"
    assert len(report["pairwise"]["items"]) == (1 if judged else 0)
    assert "OFFLINE" in (out / "report.md").read_text(encoding="utf-8")
    assert "OFFLINE" in (out / "plot.svg").read_text(encoding="utf-8")
    logged = (out / "results.jsonl").read_text(encoding="utf-8")

    assert main(args) == 0  # the rerun finds everything done
    assert "answered 0 item-arms, 2 already done" in capsys.readouterr().out
    assert (out / "results.jsonl").read_text(encoding="utf-8") == logged


@pytest.mark.usefixtures("offline")
def test_scan_engine_arm_maps_through_the_engine_and_scores_against_gold(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        main(
            ["eval", "scan", "--data", str(_write(tmp_path, "scan")), "--out", str(out), "--arms", "engine", "--quiet"]
        )
        == 0
    )
    (item,) = json.loads((out / "report.json").read_text(encoding="utf-8"))["items"]
    assert item["id"] == "city -> body" and item["arm"] == "engine"
    assert item["answer"].splitlines()[0].startswith("road -> ")
    assert item["rationale"].startswith(f"{round(item['score'] * 3)} of 3 target concepts")


@pytest.mark.usefixtures("offline")
def test_a_folder_of_another_data_file_is_refused_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    data = _write(tmp_path, "scan")
    assert main(["eval", "scan", "--data", str(data), "--out", str(out), "--arms", "direct", "--quiet"]) == 0
    data.write_text(data.read_text(encoding="utf-8").replace("lung", "lungs"), encoding="utf-8")
    assert main(["eval", "scan", "--data", str(data), "--out", str(out), "--quiet"]) == 2
    assert "choose another --out" in capsys.readouterr().err


@pytest.mark.usefixtures("offline")
def test_bad_data_and_unknown_arms_say_what_to_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"target_domain": "x"}\n', encoding="utf-8")
    assert main(["eval", "scan", "--data", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "SCAN JSONL" in capsys.readouterr().err
    assert main(["eval", "scan", "--data", str(bad), "--arms", "engine,oracle"]) == 2
    assert "not oracle" in capsys.readouterr().err
    assert main(["eval", "scan", "--data", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_limit_below_one_is_refused_by_the_parser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["eval", "scan", "--data", str(tmp_path / "x.jsonl"), "--limit", "0"])
    assert refused.value.code == 2 and "give a whole number of 1 or more" in capsys.readouterr().err
