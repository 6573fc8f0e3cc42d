"""The report (JSON and Markdown) and the plot: what each says, and the offline notice in all of them."""

from __future__ import annotations

from forge.core.evaluation.codec import result_from_json, result_json
from forge.core.evaluation.plot import render_plot_svg
from forge.core.evaluation.records import Arm, ItemResult, PairwiseResult, Preference, Suite
from forge.core.evaluation.report import (
    OFFLINE_NOTICE,
    PLOT_OFFLINE_NOTICE,
    ReportContext,
    render_report_markdown,
    report_json,
)
from forge.core.evaluation.summary import summarize

RESULTS = [
    ItemResult("1", Arm.ENGINE, 4.0, "covers two key points", 0.2, 30.0, "gen", "H1"),
    ItemResult("1", Arm.DIRECT, 2.0, "covers one", 0.01, 3.0, "gen", "H2"),
]
PAIRS = [PairwiseResult("1", Preference.A, Preference.B, Arm.ENGINE, "both orders", 0.02)]


def _context(offline: bool) -> ReportContext:
    return ReportContext(
        Suite.MOOSE_CHEM,
        "bench.json",
        "ab" * 32,
        "2026-12-02 08:00 UTC",
        "gen",
        "judge",
        True,
        offline,
        0,
        (Arm.ENGINE, Arm.DIRECT),
    )


def test_the_json_report_holds_items_summary_and_pairwise() -> None:
    report = report_json(_context(False), RESULTS, PAIRS)
    assert report["scale"] == [0.0, 5.0] and report["notice"] == ""
    assert report["items"][0] == result_json(RESULTS[0])
    assert report["summary"]["engine"]["mean"] == 4.0 and report["summary"]["direct"]["n"] == 1
    assert (report["pairwise"]["engine"], report["pairwise"]["tie"], report["pairwise"]["direct"]) == (1, 0, 0)
    assert report["models"] == {"generator": "gen", "judge": "judge"}


def test_the_markdown_names_models_judge_date_data_hash_and_the_table() -> None:
    text = render_report_markdown(_context(False), RESULTS, PAIRS, "plot.svg")
    assert "| engine | 1 | 4.000 |" in text and "| direct | 1 | 2.000 |" in text
    assert "another model family" in text and "2026-12-02 08:00 UTC" in text and "ab" * 32 in text
    assert "engine 1, tie 0, direct 0" in text and "](plot.svg)" in text
    assert OFFLINE_NOTICE not in text


def test_an_offline_run_says_so_in_the_json_the_markdown_and_the_plot() -> None:
    assert report_json(_context(True), RESULTS, PAIRS)["notice"] == OFFLINE_NOTICE
    assert OFFLINE_NOTICE in render_report_markdown(_context(True), RESULTS, PAIRS, "plot.svg")
    summaries = summarize(RESULTS, (Arm.ENGINE, Arm.DIRECT), 0)
    svg = render_plot_svg("t", summaries, RESULTS, (0.0, 5.0), PLOT_OFFLINE_NOTICE)
    assert PLOT_OFFLINE_NOTICE in svg


def test_the_plot_draws_an_interval_and_a_mean_per_arm_and_a_point_per_result() -> None:
    summaries = summarize(RESULTS, (Arm.ENGINE, Arm.DIRECT), 0)
    svg = render_plot_svg("forge eval <x>", summaries, RESULTS, (0.0, 5.0), "")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<line") == 2 and svg.count('r="5"') == 2 and svg.count('r="3"') == 2
    assert "forge eval &lt;x&gt;" in svg and "engine (n=1)" in svg


def test_results_survive_the_log_round_trip() -> None:
    assert result_from_json(result_json(RESULTS[0])) == RESULTS[0]
    assert result_from_json({"kind": "other"}) is None
