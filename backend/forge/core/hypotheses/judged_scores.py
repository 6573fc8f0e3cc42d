"""Whose five scores a hypothesis carries (seed 000 §4.3.2): the verifier model's judgement where it
gave one, else the word rules of `scores` — the offline model's scorer, or the fallback when a scoring
call failed. Every consumer (SEARCH's seeds, Pareto/MOME, SAGA Layer 1, the red team's targets, the
AnswerPack ranking, the selection plot) reads scores through `pool_scores` / `scores_of`.

Invariants:
    - Pure. A `JudgedScores` with source VERIFIER carries the model's `ScoreVector`; the two
      word-rule sources carry none (the rules are computed where they are read, pool-relative
      divergence included, exactly as without a model) and say why in `note`.
    - A hypothesis with an entry is never sent to the scorer again (`unscored`), whatever its source:
      one pass over the pool, the cache keyed by hypothesis id.
    - `pool_scores` keeps the word rules' pool-relative divergence for rule-scored hypotheses and
      takes the verifier's five numbers as they are for model-scored ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.hypotheses.scores import score_hypothesis, score_pool
from forge.core.selection.composite_score import ScoreVector


class ScoreSource(str, Enum):
    VERIFIER = "verifier"  # the verifier role's model scored it
    OFFLINE_WORD_RULES = "offline_word_rules"  # the offline model's scorer: word rules, no model call
    FALLBACK_WORD_RULES = "fallback_word_rules"  # the scoring call failed; word rules stand in


@dataclass(frozen=True, slots=True)
class JudgedScores:
    source: ScoreSource
    judge: str  # the scoring model's label ("offline word rules" when none)
    scores: ScoreVector | None = None  # only for VERIFIER
    note: str = ""  # why word rules stand in (the failed call's message)

    def __post_init__(self) -> None:
        if (self.source is ScoreSource.VERIFIER) != (self.scores is not None):
            raise ValueError("a verifier's entry carries its scores; a word-rule entry carries none")


def model_scores(judged: Mapping[str, JudgedScores]) -> dict[str, ScoreVector]:
    """The verifier's scores by hypothesis id (word-rule entries left out)."""
    return {hid: j.scores for hid, j in judged.items() if j.scores is not None}


def unscored(hypotheses: Sequence[Hypothesis], judged: Mapping[str, JudgedScores]) -> list[Hypothesis]:
    """The hypotheses without an entry yet, in order, each once."""
    seen: set[str] = set()
    todo = []
    for h in hypotheses:
        if h.id not in judged and h.id not in seen:
            seen.add(h.id)
            todo.append(h)
    return todo


def scores_of(hypothesis: Hypothesis, frame: ProblemFrame, model: Mapping[str, ScoreVector]) -> ScoreVector:
    """One hypothesis's scores: the verifier's, else its word rules."""
    return model.get(hypothesis.id) or score_hypothesis(hypothesis, frame)


def pool_scores(
    pool: Sequence[Hypothesis], frame: ProblemFrame, model: Mapping[str, ScoreVector] | None = None
) -> list[ScoreVector]:
    """Every hypothesis's scores for selection: the verifier's where it scored, else the word rules
    with divergence relative to the pool (`score_pool`)."""
    rules = score_pool(pool, frame)
    if not model:
        return rules
    return [model.get(h.id) or rule for h, rule in zip(pool, rules, strict=True)]


def describe_sources(judged: Mapping[str, JudgedScores]) -> str:
    """One line for the AnswerPack's methodology: who scored how many hypotheses."""
    counts: dict[str, int] = {}
    for j in judged.values():
        key = {
            ScoreSource.VERIFIER: f"the verifier ({j.judge})",
            ScoreSource.OFFLINE_WORD_RULES: "the offline model's word rules",
            ScoreSource.FALLBACK_WORD_RULES: "word rules after a failed scoring call",
        }[j.source]
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return "Hypothesis scores: word rules (no scoring stage ran)."
    return "Hypothesis scores: " + "; ".join(f"{n} by {who}" for who, n in counts.items()) + "."
