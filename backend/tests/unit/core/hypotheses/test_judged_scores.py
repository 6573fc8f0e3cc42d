"""Whose scores a hypothesis carries: the verifier's where it scored, else the word rules (pool-relative
novelty kept); every entry keeps a hypothesis from being scored again; the methodology line counts who."""

import pytest
from support.scripted_search import FRAME, parent

from forge.core.hypotheses.judged_scores import (
    JudgedScores,
    ScoreSource,
    describe_sources,
    model_scores,
    pool_scores,
    scores_of,
    unscored,
)
from forge.core.hypotheses.scores import score_hypothesis, score_pool
from forge.core.selection.composite_score import ScoreVector

POOL = [parent(f"h{n}", "queue buffer", f"waits per hour {n}") for n in range(3)]
HIGH = ScoreVector(9.0, 9.0, 9.0, 9.0, 9.0)


def test_the_verifiers_scores_replace_the_word_rules_only_where_it_scored() -> None:
    judged = {
        "h0": JudgedScores(ScoreSource.VERIFIER, "model", HIGH),
        "h1": JudgedScores(ScoreSource.FALLBACK_WORD_RULES, "model", note="timeout"),
    }
    model = model_scores(judged)
    assert model == {"h0": HIGH}
    rules = score_pool(POOL, FRAME)
    assert pool_scores(POOL, FRAME, model) == [HIGH, rules[1], rules[2]]
    assert pool_scores(POOL, FRAME) == rules
    assert scores_of(POOL[0], FRAME, model) == HIGH and scores_of(POOL[1], FRAME, model) == score_hypothesis(
        POOL[1], FRAME
    )


def test_a_hypothesis_with_any_entry_is_not_scored_again() -> None:
    judged = {"h1": JudgedScores(ScoreSource.OFFLINE_WORD_RULES, "offline word rules")}
    assert [h.id for h in unscored([*POOL, POOL[0]], judged)] == ["h0", "h2"]


def test_only_a_verifiers_entry_carries_scores() -> None:
    with pytest.raises(ValueError):
        JudgedScores(ScoreSource.VERIFIER, "model")
    with pytest.raises(ValueError):
        JudgedScores(ScoreSource.OFFLINE_WORD_RULES, "offline", HIGH)


def test_the_methodology_line_says_who_scored_how_many() -> None:
    judged = {
        "a": JudgedScores(ScoreSource.VERIFIER, "claude", HIGH),
        "b": JudgedScores(ScoreSource.VERIFIER, "claude", HIGH),
        "c": JudgedScores(ScoreSource.FALLBACK_WORD_RULES, "claude", note="x"),
    }
    assert describe_sources(judged) == (
        "Hypothesis scores: 2 by the verifier (claude); 1 by word rules after a failed scoring call."
    )
    assert "offline model's word rules" in describe_sources({"a": JudgedScores(ScoreSource.OFFLINE_WORD_RULES, "o")})
