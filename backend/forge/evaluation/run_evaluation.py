"""`forge eval SUITE`: read the data file, run each arm on each item (a few at once), judge, and write
`report.json`, `report.md` and `plot.svg` in the output folder; resumable through its results log.

Invariants:
    - Read -> pure -> write: the data file is read once, the core parses it, scores and renders the
      report; this module only runs the arms and writes files.
    - A rerun skips every item-arm (and pairwise judgment) already in the log; the report always
      covers everything the log holds for the chosen items.
    - `budget_usd` caps the whole evaluation (what earlier runs spent counts): no item starts once
      the spend reaches it, and the report says it stopped.
    - At most `concurrency` items are worked on at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from forge.bootstrap.evaluation_models import EvaluationModels
from forge.core.evaluation.datasets import DataProblem, read_items
from forge.core.evaluation.plot import render_plot_svg
from forge.core.evaluation.records import JUDGED, SCALES, Arm, EvalItem, Suite
from forge.core.evaluation.report import (
    OFFLINE_NOTICE,
    PLOT_OFFLINE_NOTICE,
    ReportContext,
    render_report_markdown,
    report_json,
)
from forge.core.evaluation.summary import summarize
from forge.evaluation.item_work import SessionArm, answer_of, pairwise_of, score_of
from forge.evaluation.results_log import ResultsLog


@dataclass(frozen=True, slots=True)
class EvalOptions:
    suite: Suite
    data: Path
    out: Path
    arms: tuple[Arm, ...] = (Arm.ENGINE, Arm.DIRECT)
    limit: int | None = None
    concurrency: int = 1
    seed: int = 0
    budget_usd: float | None = None
    quiet: bool = False


@dataclass(frozen=True, slots=True)
class EvalOutcome:
    report: Path
    markdown: Path
    plot: Path
    done: int  # item-arms answered in this run
    skipped: int  # item-arms found finished in the log
    stopped: str


class _ProgressBar:
    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.done, self.quiet = total, 0, quiet

    def step(self, spent: float) -> None:
        self.done += 1
        if not self.quiet:
            filled = int(30 * self.done / max(1, self.total))
            print(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} items  ${spent:.4f}",
                end="",
                file=sys.stderr,
                flush=True,
            )
            if self.done == self.total:
                print(file=sys.stderr, flush=True)


class _Run:
    def __init__(
        self, options: EvalOptions, models: EvaluationModels, sessions: SessionArm | None, log: ResultsLog
    ) -> None:
        self.options, self.models, self.sessions, self.log = options, models, sessions, log
        self.done, self.stopped = 0, ""
        self.gate = asyncio.Semaphore(max(1, options.concurrency))

    def over_budget(self) -> bool:
        cap = self.options.budget_usd
        if cap is not None and self.log.spent_usd >= cap:
            self.stopped = (
                f"FORGE_BUDGET_USD={cap:g} reached (spent ${self.log.spent_usd:.4f}); rerun with a higher cap to go on"
            )
        return bool(self.stopped)

    async def item(self, item: EvalItem, bar: _ProgressBar) -> None:
        async with self.gate:
            for arm in self.options.arms:
                if (item.id, arm) in self.log.items or self.over_budget():
                    continue
                started = time.perf_counter()
                answer = await answer_of(arm, item, self.models, self.sessions)
                self.log.add(await score_of(item, arm, answer, self.models, time.perf_counter() - started))
                self.done += 1
            await self._pairwise(item)
            bar.step(self.log.spent_usd)

    async def _pairwise(self, item: EvalItem) -> None:
        suite = self.options.suite
        engine, direct = self.log.items.get((item.id, Arm.ENGINE)), self.log.items.get((item.id, Arm.DIRECT))
        if suite not in JUDGED or item.id in self.log.pairwise or engine is None or direct is None:
            return
        if engine.answer and direct.answer and not self.over_budget():
            self.log.add(await pairwise_of(item, suite, engine.answer, direct.answer, self.models.judge))


def _context(options: EvalOptions, models: EvaluationModels, digest: str, stopped: str) -> ReportContext:
    return ReportContext(
        options.suite,
        str(options.data),
        digest,
        datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        models.generator.label,
        models.judge.label,
        models.judge.family != models.generator.family,
        models.offline,
        options.seed,
        options.arms,
        stopped,
    )


def _write_outputs(
    options: EvalOptions, context: ReportContext, log: ResultsLog, items: Sequence[EvalItem]
) -> tuple[Path, Path, Path]:
    ids = {i.id for i in items}
    results = [r for (i, arm), r in log.items.items() if i in ids and arm in options.arms]
    pairwise = [p for i, p in log.pairwise.items() if i in ids]
    scale = SCALES[options.suite]
    report, markdown, plot = options.out / "report.json", options.out / "report.md", options.out / "plot.svg"
    report.write_text(
        json.dumps(report_json(context, results, pairwise), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    markdown.write_text(render_report_markdown(context, results, pairwise, plot.name), encoding="utf-8")
    summaries = summarize(results, options.arms, options.seed, scale[0])
    notice = PLOT_OFFLINE_NOTICE if context.offline else ""
    plot.write_text(
        render_plot_svg(f"forge eval {options.suite.value}", summaries, results, scale, notice), encoding="utf-8"
    )
    return report, markdown, plot


async def run_evaluation(
    options: EvalOptions, models: EvaluationModels, sessions: SessionArm | None
) -> EvalOutcome | str:
    """The evaluation's files, or what to fix (a bad data file, a folder of another run)."""
    raw = options.data.read_bytes()
    parsed = read_items(options.suite, raw.decode("utf-8"))
    if isinstance(parsed, DataProblem):
        return f"{options.data}: {parsed.message}"
    items = parsed[: options.limit] if options.limit else parsed
    digest = hashlib.sha256(raw).hexdigest()
    log = ResultsLog(options.out)
    refused = log.open(options.suite.value, digest)
    if refused:
        return refused
    skipped = sum(1 for i in items for a in options.arms if (i.id, a) in log.items)
    if models.offline and not options.quiet:
        print(OFFLINE_NOTICE, file=sys.stderr)
    run = _Run(options, models, sessions, log)
    bar = _ProgressBar(len(items), options.quiet)
    await asyncio.gather(*(run.item(item, bar) for item in items))
    report, markdown, plot = _write_outputs(options, _context(options, models, digest, run.stopped), log, items)
    return EvalOutcome(report, markdown, plot, run.done, skipped, run.stopped)
