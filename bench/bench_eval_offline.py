"""Benchmark: `forge eval` end to end on the suites' dev files, offline (no key, no network).

Data (bench only, never shipped): `../shared/data/` beside the repository — MacGyver
(`macgyver/macgyver_dev_1200.jsonl`), MOOSE-Chem (`moose-chem/benchmark_dev_36.json`), SCAN
(`scan-analogies/scan_dev.jsonl`); see each folder's SOURCE.md. `--data-dir` points elsewhere.

Runs each suite with both arms on its first `--limit` items into a fresh folder, then again into the
same folder (the resume must answer nothing), and prints per suite:
    RESULT suite=<name> items=<n> engine_mean=<f> direct_mean=<f> engine_s=<f> direct_s=<f> rerun_answered=<n> offline=true
The offline stand-in's scores measure word rules, not quality: this checks that the evaluation runs,
what it costs in time, and that it resumes.
Run: backend/.venv/bin/python bench/bench_eval_offline.py [--data-dir DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

from forge.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "scan": "scan-analogies/scan_dev.jsonl",
    "macgyver": "macgyver/macgyver_dev_1200.jsonl",
    "moose-chem": "moose-chem/benchmark_dev_36.json",
}


def _run(suite: str, data: Path, out: Path, limit: int) -> str:
    printed = io.StringIO()
    args = ["eval", suite, "--data", str(data), "--out", str(out), "--limit", str(limit), "--quiet"]
    with contextlib.redirect_stdout(printed):
        code = main(args)
    if code != 0:
        raise SystemExit(f"forge eval {suite} failed ({code}): {printed.getvalue()}")
    return printed.getvalue()


def _bench(suite: str, data: Path, limit: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / suite
        _run(suite, data, out, limit)
        rerun = _run(suite, data, out, limit)
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    answered = rerun.split("answered ", 1)[1].split(" ", 1)[0]
    engine, direct = report["summary"]["engine"], report["summary"]["direct"]
    return (
        f"RESULT suite={suite} items={engine['n']} engine_mean={engine['mean']:.3f} direct_mean={direct['mean']:.3f} "
        f"engine_s={engine['seconds']:.1f} direct_s={direct['seconds']:.1f} rerun_answered={answered} "
        f"offline={str(report['offline']).lower()}"
    )


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--limit", type=int, default=3)
    args = parser.parse_args()
    os.environ["FORGE_MODEL"] = "offline"
    os.environ.pop("FORGE_VERIFIER_MODEL", None)
    os.environ.pop("FORGE_BUDGET_USD", None)
    for suite, name in FILES.items():
        print(_bench(suite, args.data_dir / name, args.limit), flush=True)


if __name__ == "__main__":
    run()
