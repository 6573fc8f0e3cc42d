"""`forge eval SUITE --data FILE`: the engine against the same model asked directly (issue 40).

Invariants:
    - The models come from the composition root (`build_evaluation_models`); `--judge provider:model`
      sets the verifier route for this run only; FORGE_BUDGET_USD caps the whole evaluation.
    - The engine arm's sessions (MacGyver, MOOSE-Chem) run in the output folder's own database.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from forge.config import Settings
from forge.core.evaluation.records import Arm, Suite

if TYPE_CHECKING:
    from forge.evaluation.run_evaluation import EvalOutcome


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give a whole number of 1 or more")
    return value


def add_eval_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    evaluate = sub.add_parser(
        "eval", help="measure the engine against the same model asked directly (docs/evaluation.md)"
    )
    evaluate.add_argument("suite", choices=[s.value for s in Suite])
    evaluate.add_argument(
        "--data", type=Path, required=True, help="your copy of the suite's data file (see docs/evaluation.md)"
    )
    evaluate.add_argument("--limit", type=_positive, default=None, help="only the first N items")
    evaluate.add_argument("--out", type=Path, default=None, help="folder for the report (default: out/eval-SUITE)")
    evaluate.add_argument("--arms", default="engine,direct", help="comma-separated: engine, direct (default both)")
    evaluate.add_argument("--judge", default=None, help="provider:model for the judge (default: the verifier route)")
    evaluate.add_argument("--concurrency", type=_positive, default=1, help="items worked on at once (default 1)")
    evaluate.add_argument("--seed", type=int, default=0, help="the bootstrap's seed (default 0)")
    evaluate.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_arms(text: str) -> tuple[Arm, ...]:
    names = [a.strip() for a in text.split(",") if a.strip()]
    known = {a.value for a in Arm}
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(f"--arms takes engine and/or direct, comma-separated; not {', '.join(unknown) or 'nothing'}")
    return tuple(Arm(n) for n in dict.fromkeys(names))


async def run_eval_command(settings: Settings, args: argparse.Namespace) -> int:
    from forge.bootstrap.evaluation_models import build_evaluation_models
    from forge.evaluation.engine_sessions import EngineSessions
    from forge.evaluation.run_evaluation import EvalOptions, EvalOutcome, run_evaluation

    suite = Suite(args.suite)
    if not args.data.is_file():
        raise ValueError(f"--data {args.data}: no such file; point it at your copy of the {suite.value} data")
    if args.judge:
        settings = replace(settings, verifier_model=args.judge)
    arms = parse_arms(args.arms)
    out = args.out or Path("out") / f"eval-{suite.value}"
    options = EvalOptions(
        suite, args.data, out, arms, args.limit, max(1, args.concurrency), args.seed, settings.budget_usd, args.quiet
    )
    models = build_evaluation_models(settings)
    needs_sessions = Arm.ENGINE in arms and suite != Suite.SCAN
    out.mkdir(parents=True, exist_ok=True)
    sessions = await EngineSessions.open(settings, out) if needs_sessions else None
    try:
        outcome = await run_evaluation(options, models, sessions)
    finally:
        if sessions is not None:
            await sessions.close()
    if not isinstance(outcome, EvalOutcome):
        raise ValueError(outcome)
    print(_summary(outcome, models.offline))
    return 0


def _summary(outcome: EvalOutcome, offline: bool) -> str:
    lines = [
        f"report:   {outcome.report}",
        f"markdown: {outcome.markdown}",
        f"plot:     {outcome.plot}",
        f"answered {outcome.done} item-arms, {outcome.skipped} already done",
    ]
    if outcome.stopped:
        lines.append(f"stopped: {outcome.stopped}")
    if offline:
        lines.append("OFFLINE: the offline stand-in answered and judged; these numbers are not quality claims.")
    return "\n".join(lines)
