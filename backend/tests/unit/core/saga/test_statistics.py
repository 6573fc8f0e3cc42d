import math

import pytest

from forge.core.saga.statistics import (
    f_survival,
    one_way_anova,
    pearson,
    regularized_incomplete_beta,
    std,
    word_edit_distance,
)


class TestFSurvival:
    def test_matches_the_closed_form_for_two_numerator_degrees_of_freedom(self):
        # For d1 = 2, P(F > f) = (d2 / (d2 + 2f)) ** (d2 / 2) exactly.
        for f, d2 in ((4.10, 10), (1.0, 3), (7.5, 25)):
            assert f_survival(f, 2, d2) == pytest.approx((d2 / (d2 + 2 * f)) ** (d2 / 2), rel=1e-10)

    def test_matches_the_closed_form_for_two_denominator_degrees_of_freedom(self):
        # For d2 = 2, P(F > f) = 1 - (d1 f / (2 + d1 f)) ** (d1 / 2).
        for f, d1 in ((5.0, 3), (0.4, 6)):
            assert f_survival(f, d1, 2) == pytest.approx(1 - (d1 * f / (2 + d1 * f)) ** (d1 / 2), rel=1e-10)

    def test_table_critical_values_give_five_percent(self):
        # F tables (alpha = 0.05): F(3, 20) = 3.10, F(4, 30) = 2.69, F(1, 10) = 4.96
        assert f_survival(3.098, 3, 20) == pytest.approx(0.05, abs=5e-4)
        assert f_survival(2.690, 4, 30) == pytest.approx(0.05, abs=5e-4)
        assert f_survival(4.965, 1, 10) == pytest.approx(0.05, abs=5e-4)

    def test_edges(self):
        assert f_survival(0.0, 2, 5) == 1.0
        assert f_survival(math.inf, 2, 5) == 0.0
        assert regularized_incomplete_beta(2, 3, 0.0) == 0.0
        assert regularized_incomplete_beta(2, 3, 1.0) == 1.0
        # I_x(1, 1) = x
        assert regularized_incomplete_beta(1, 1, 0.3) == pytest.approx(0.3)


class TestOneWayAnova:
    def test_matches_a_hand_computation(self):
        # grand mean 3.5; SSB = 3(2-3.5)^2 + 3(5-3.5)^2 = 13.5 on 1 df; SSW = 2 + 2 = 4 on 4 df -> F = 13.5
        # P(F(1,4) > 13.5) = P(|t_4| > 3.674) = 0.0213
        anova = one_way_anova({"a": [1, 2, 3], "b": [4, 5, 6]})
        assert anova is not None
        assert anova.f == pytest.approx(13.5)
        assert (anova.df_between, anova.df_within) == (1, 4)
        assert anova.p_value == pytest.approx(0.0213, abs=1e-4)
        assert anova.group_means == {"a": 2.0, "b": 5.0}

    def test_three_groups_by_hand(self):
        # means 2, 3, 7; grand 4; SSB = 3*4 + 3*1 + 3*9 = 42 (2 df); SSW = 2+2+2 = 6 (6 df); F = 21 / 1 = 21
        anova = one_way_anova({"x": [1, 2, 3], "y": [2, 3, 4], "z": [6, 7, 8]})
        assert anova is not None
        assert anova.f == pytest.approx(21.0)
        assert anova.p_value == pytest.approx((6 / (6 + 2 * 21)) ** 3)  # the d1 = 2 closed form

    def test_needs_two_groups_and_within_freedom(self):
        assert one_way_anova({"a": [1, 2, 3]}) is None
        assert one_way_anova({"a": [1], "b": [2]}) is None
        assert one_way_anova({"a": [], "b": [1, 2]}) is None

    def test_constant_groups_that_differ_are_certainly_different(self):
        anova = one_way_anova({"a": [1, 1], "b": [3, 3]})
        assert anova is not None and anova.p_value == 0.0


class TestDescriptive:
    def test_std_and_pearson(self):
        assert std([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.0)
        assert std([5]) == 0.0
        assert pearson([1, 2, 3, 4], [2, 4, 6, 8]) == pytest.approx(1.0)
        assert pearson([1, 2, 3, 4], [8, 6, 4, 2]) == pytest.approx(-1.0)
        assert pearson([1, 1, 1], [1, 2, 3]) is None

    def test_word_edit_distance(self):
        assert word_edit_distance("the cat sat", "the cat sat") == 0.0
        assert word_edit_distance("the cat sat", "the dog sat") == pytest.approx(1 / 3)
        assert word_edit_distance("a b", "c d e f") == 1.0
        assert word_edit_distance("", "") == 0.0
