"""The evaluation's report: `report.json` (items, per-arm summary, pairwise) and `report.md`.

Invariants:
    - Offline runs say so at the top of both (their numbers measure the stand-in, not quality).
    - The report names the models, the judge (and whether it is of another family than the
      generator), the date, the data file and its SHA-256, and each suite's score scale and protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from forge.core.evaluation.codec import pairwise_json, result_json
from forge.core.evaluation.records import JUDGED, SCALES, Arm, ItemResult, PairwiseResult, Suite
from forge.core.evaluation.summary import ArmSummary, summarize, tally

OFFLINE_NOTICE = (
    "OFFLINE: these numbers come from the built-in offline stand-in (word rules, no language model). "
    "They check that the evaluation runs end to end; they are not quality claims."
)
PLOT_OFFLINE_NOTICE = "OFFLINE stand-in (word rules, no language model): these numbers are not quality claims."
PROTOCOLS = {
    Suite.SCAN: "SCAN (Czinczoll et al., 2022): share of target concepts mapped to the gold source word or an alternative; no judge.",
    Suite.MACGYVER: "MacGyver (Tian et al., NAACL 2024): 1 when the judge finds the solution feasible and effective with only the given items, or, for an unsolvable problem, when it says so for the right reason.",
    Suite.MOOSE_CHEM: "MOOSE-Chem (Yang et al., ICLR 2025): the judge's Matched Score (0-5) against the paper's ground-truth hypothesis.",
}


@dataclass(frozen=True, slots=True)
class ReportContext:
    suite: Suite
    data_file: str
    data_sha256: str
    date: str
    generator: str
    judge: str
    judge_other_family: bool
    offline: bool
    seed: int
    arms: tuple[Arm, ...]
    stopped: str = ""  # why the run stopped before every item was done (budget), else empty


def report_json(
    context: ReportContext, results: Sequence[ItemResult], pairwise: Sequence[PairwiseResult]
) -> dict[str, Any]:
    summaries = summarize(results, context.arms, context.seed, SCALES[context.suite][0])
    wins = tally(pairwise)
    return {
        "suite": context.suite.value,
        "offline": context.offline,
        "notice": OFFLINE_NOTICE if context.offline else "",
        "protocol": PROTOCOLS[context.suite],
        "scale": list(SCALES[context.suite]),
        "data_file": context.data_file,
        "data_sha256": context.data_sha256,
        "date": context.date,
        "models": {"generator": context.generator, "judge": context.judge if context.suite in JUDGED else ""},
        "judge_other_family": context.judge_other_family,
        "stopped": context.stopped,
        "items": [result_json(r) for r in results],
        "summary": {
            s.arm.value: {
                "n": s.n,
                "mean": round(s.mean, 4),
                "ci95": [round(s.low, 4), round(s.high, 4)],
                "cost_usd": round(s.cost_usd, 4),
                "seconds": round(s.seconds, 2),
                "failed": s.failed,
            }
            for s in summaries
        },
        "pairwise": {
            "engine": wins.engine_wins,
            "tie": wins.ties,
            "direct": wins.direct_wins,
            "items": [pairwise_json(p) for p in pairwise],
        },
    }


def _summary_rows(summaries: Sequence[ArmSummary]) -> list[str]:
    rows = ["| arm | n | mean | 95% interval | cost (USD) | time (s) | no answer |", "|---|---|---|---|---|---|---|"]
    for s in summaries:
        rows.append(
            f"| {s.arm.value} | {s.n} | {s.mean:.3f} | {s.low:.3f} – {s.high:.3f} | {s.cost_usd:.4f} | {s.seconds:.1f} | {s.failed} |"
        )
    return rows


def render_report_markdown(
    context: ReportContext, results: Sequence[ItemResult], pairwise: Sequence[PairwiseResult], plot_file: str
) -> str:
    summaries = summarize(results, context.arms, context.seed, SCALES[context.suite][0])
    low, high = SCALES[context.suite]
    lines = [f"# forge eval: {context.suite.value}", ""]
    if context.offline:
        lines += [f"> **{OFFLINE_NOTICE}**", ""]
    if context.stopped:
        lines += [f"> Stopped early: {context.stopped}", ""]
    lines += [PROTOCOLS[context.suite], f"Scores run from {low:g} to {high:g}.", ""]
    lines += [*_summary_rows(summaries), ""]
    if context.suite in JUDGED:
        wins = tally(pairwise)
        lines += [
            f"Pairwise (judge asked in both orders; a tie when they disagree): engine {wins.engine_wins}, "
            f"tie {wins.ties}, direct {wins.direct_wins}.",
            "",
        ]
    family = (
        "another model family than the generator"
        if context.judge_other_family
        else "the generator's own family (a different family is recommended)"
    )
    lines += [
        f"- Generator: {context.generator}",
        f"- Judge: {context.judge}; {family}"
        if context.suite in JUDGED
        else "- Judge: none (scored against the gold words)",
        f"- Date: {context.date}",
        f"- Data: {context.data_file} (SHA-256 {context.data_sha256})",
        f"- Bootstrap seed: {context.seed}",
        "",
        f"![score per arm and cost against score]({plot_file})",
        "",
    ]
    return "\n".join(lines)
