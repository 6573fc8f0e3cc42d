"""The evaluation's resume log: `DIR/results.jsonl`, one finished item-arm (or pairwise judgment) per
line, appended as each finishes; and `DIR/run.json`, what the log belongs to.

Invariants:
    - A line is written only when its work is finished, so an interrupted item has no line and is
      redone by the next run; a torn last line (killed mid-write) is ignored.
    - A folder that holds another suite's or another data file's results is refused, not mixed.
"""

from __future__ import annotations

import json
from pathlib import Path

from forge.core.evaluation.codec import pairwise_json, result_from_json, result_json
from forge.core.evaluation.records import Arm, ItemResult, PairwiseResult


class ResultsLog:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "results.jsonl"
        self.items: dict[tuple[str, Arm], ItemResult] = {}
        self.pairwise: dict[str, PairwiseResult] = {}

    def open(self, suite: str, data_sha256: str) -> str | None:
        """Read what earlier runs finished; a refusal (what to do) when the folder is another run's."""
        self.folder.mkdir(parents=True, exist_ok=True)
        run_file = self.folder / "run.json"
        identity = {"suite": suite, "data_sha256": data_sha256}
        if run_file.exists():
            known = json.loads(run_file.read_text(encoding="utf-8"))
            if known != identity:
                return (
                    f"{self.folder} holds results of {known.get('suite')} on another data file "
                    f"(sha256 {str(known.get('data_sha256'))[:12]}…): choose another --out"
                )
        run_file.write_text(json.dumps(identity) + "\n", encoding="utf-8")
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                self._remember(line)
        return None

    def _remember(self, line: str) -> None:
        try:
            record = result_from_json(json.loads(line))
        except (json.JSONDecodeError, KeyError, ValueError):
            return  # a torn line: that work is redone
        if isinstance(record, ItemResult):
            self.items[(record.item_id, record.arm)] = record
        elif isinstance(record, PairwiseResult):
            self.pairwise[record.item_id] = record

    def add(self, record: ItemResult | PairwiseResult) -> None:
        row = result_json(record) if isinstance(record, ItemResult) else pairwise_json(record)
        with self.path.open("a", encoding="utf-8") as log:
            log.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._remember(json.dumps(row))

    @property
    def spent_usd(self) -> float:
        return sum(r.cost_usd for r in self.items.values()) + sum(p.cost_usd for p in self.pairwise.values())
