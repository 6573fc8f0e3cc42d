from forge.core.research.text_relevance import coverage, is_relevant, relevance

CLAIM = "When utilisation exceeds 85%, dynamic triage staffing will cut median emergency waiting times by 15%"


def test_one_shared_word_is_not_a_relevant_result() -> None:
    assert not is_relevant("Waiting lists for elective surgery in Norway", CLAIM)


def test_a_result_on_the_mechanism_is_relevant_whatever_its_spelling() -> None:
    assert is_relevant("Emergency department waits rise steeply as utilization nears capacity", CLAIM)


def test_a_one_term_subject_needs_only_that_term() -> None:
    assert is_relevant("Percolation on random graphs", "percolation")
    assert not is_relevant("Random graphs", "percolation")


def test_relevance_is_capped_for_long_subjects_and_coverage_is_not() -> None:
    result = "dynamic triage staffing emergency median waiting utilisation exceeds"
    assert relevance(result, CLAIM) == 1.0
    assert 0.5 < coverage(result, CLAIM) < 1.0
    assert relevance("", CLAIM) == coverage("", CLAIM) == 0.0


def test_chinese_results_match_on_character_bigrams() -> None:
    thesis = "按到达率动态调整分诊排班可以缩短急诊等待时间"
    assert is_relevant("急诊排队与利用率 急诊等待时间随利用率上升而急剧增加。", thesis)
    assert not is_relevant("城市交通拥堵的成因", thesis)
