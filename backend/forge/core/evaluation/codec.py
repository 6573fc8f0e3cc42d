"""Results to and from JSON-ready dicts: the lines of the resume log and the report's `items`.

Invariant: `result_from_json(result_json(r)) == r` for both kinds; a line of another kind is None.
"""

from __future__ import annotations

from typing import Any

from forge.core.evaluation.records import Arm, ItemResult, PairwiseResult, Preference


def result_json(result: ItemResult) -> dict[str, Any]:
    return {
        "kind": "item",
        "id": result.item_id,
        "arm": result.arm.value,
        "score": result.score,
        "rationale": result.rationale,
        "cost_usd": round(result.cost_usd, 6),
        "seconds": round(result.seconds, 3),
        "model": result.model,
        "answer": result.answer,
        "category": result.category,
        "error": result.error,
    }


def pairwise_json(result: PairwiseResult) -> dict[str, Any]:
    return {
        "kind": "pairwise",
        "id": result.item_id,
        "engine_first": result.engine_first.value,
        "direct_first": result.direct_first.value,
        "winner": result.winner.value if result.winner else "tie",
        "rationale": result.rationale,
        "cost_usd": round(result.cost_usd, 6),
    }


def result_from_json(row: dict[str, Any]) -> ItemResult | PairwiseResult | None:
    if row.get("kind") == "item":
        score = row["score"]
        return ItemResult(
            str(row["id"]),
            Arm(row["arm"]),
            None if score is None else float(score),
            str(row["rationale"]),
            float(row["cost_usd"]),
            float(row["seconds"]),
            str(row["model"]),
            str(row.get("answer", "")),
            str(row.get("category", "")),
            str(row.get("error", "")),
        )
    if row.get("kind") == "pairwise":
        winner = row["winner"]
        return PairwiseResult(
            str(row["id"]),
            Preference(row["engine_first"]),
            Preference(row["direct_first"]),
            None if winner == "tie" else Arm(winner),
            str(row["rationale"]),
            float(row["cost_usd"]),
        )
    return None
