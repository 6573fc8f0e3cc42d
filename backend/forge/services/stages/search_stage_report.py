"""What a SEARCH stage reports (seed 000 §4.2.1): the round's summary kept in the state, and the
`engine_stage` event's text and counts.

Invariants:
    - Pure functions of the round (and the pool's size, the round's place among `search_depth`).
    - The counts keep one key per operator that made children (`op_<operator>`), beside the totals.
"""

from __future__ import annotations

from forge.core.search.plan import RuntimeProfile
from forge.core.search.summary import SearchSummary
from forge.core.search.transform_gate import TransformStatus
from forge.engine.search.search_round import SearchRound


def summarize_search(run: SearchRound, round_: int, profile: RuntimeProfile) -> SearchSummary:
    selection = run.selection
    return SearchSummary(
        round_,
        profile.value,
        selection.method.value,
        selection.seeds,
        selection.eligible,
        run.calls,
        len(run.children),
        dict(run.operators),
        run.degraded,
        run.skipped,
        len(run.failures),
        selection.coverage_ratio,
        run.transforms,
        run.ungrounded,
        run.concept_space,
        dict(run.hkg_paths),
    )


def search_text(run: SearchRound, pool_size: int, rounds: tuple[int, int]) -> str:
    label = "SEARCH" if rounds[1] <= 1 else f"SEARCH round {rounds[0]}/{rounds[1]}"
    if not run.selection.seeds:
        return (
            f"{label}: none of the {pool_size} hypotheses in the pool passed the mapping gate"
            + (" or was left unexpanded by an earlier round" if rounds[0] > 1 else "")
            + "; nothing to expand."
        )
    made = ", ".join(f"{count} {operator}" for operator, count in run.operators.items()) or "none"
    coverage = run.selection.coverage_ratio
    lineage = sum(1 for s in run.selection.seeds if not str(s).startswith("biso-"))
    return (
        f"{label} over {len(run.selection.seeds)} seeds of {run.selection.eligible} gated hypotheses"
        + (f" (MOME coverage {coverage:.0%})" if coverage is not None else "")
        + (f", {lineage} of them children of earlier rounds" if rounds[0] > 1 else "")
        + f": {run.calls} operator calls made {len(run.children)} new hypotheses ({made})"
        + (f"; {run.degraded} degraded to refine/variant by quota" if run.degraded else "")
        + (f"; {run.ungrounded} HKG application(s) found no hyperpath (no evidence)" if run.ungrounded else "")
        + (
            f"; Transform Gate: {_accepted(run)} accepted, {len(run.transforms) - _accepted(run)} rejected"
            if run.transforms
            else ""
        )
        + (f"; {len(run.failures)} call(s) failed" if run.failures else "")
        + "."
    )


def search_counts(run: SearchRound, rounds: tuple[int, int]) -> dict[str, int]:
    return {
        "depth": rounds[0],
        "search_depth": rounds[1],
        "seeds": len(run.selection.seeds),
        "calls": run.calls,
        "children": len(run.children),
        "operators": len(run.operators),
        "degraded": run.degraded,
        "failed": len(run.failures),
        "ungrounded": run.ungrounded,
        "transforms_accepted": _accepted(run),
        "transforms_rejected": len(run.transforms) - _accepted(run),
        **{f"op_{operator}": count for operator, count in run.operators.items()},
    }


def _accepted(run: SearchRound) -> int:
    return sum(1 for t in run.transforms if t.status is TransformStatus.ACCEPTED)
