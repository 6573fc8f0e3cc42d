"""The offline word rule of Layer 4: a hard constraint forbids a change of a resource (or sets a bound),
and a hypothesis breaks it only when it proposes that change — negation and scope understood, in
English and Chinese; every verdict carries its labelled reason."""

from __future__ import annotations

import pytest

from forge.core.saga.constraint_lexicon import ChangeKind
from forge.core.saga.constraint_rule import judge_by_word_rule, read_constraint

STAFF = "without more staff"


@pytest.mark.parametrize(
    "hypothesis",
    [
        "Hire two nurses for the night shift.",
        "Add staff to the triage desk at peak hours.",
        "Put more staff on the front door between 6 and 10 pm.",
        "Increase the number of nurses on the evening shift.",
        "Recruit a flow coordinator who watches the board.",
        "A small general increase in the staff then multiplies the rate.",
    ],
)
def test_proposing_more_staff_breaks_without_more_staff(hypothesis: str) -> None:
    verdict = judge_by_word_rule(STAFF, hypothesis)
    assert verdict.violates
    assert (
        verdict.reason.startswith("Offline word rule: proposes “") and "“without more staff” forbids" in verdict.reason
    )


@pytest.mark.parametrize(
    "hypothesis",
    [
        "Redesign the staff rotas so breaks never fall on the arrival peak.",
        "Change the payoffs through the staff, not the patients.",
        "Increase staff utilisation by pooling the two queues.",
        "Instead of hiring more nurses, pool the triage queues.",
        "No new hires are needed: stream low-acuity patients to a fast lane.",
        "More efficient staff deployment follows from a shared board.",
        "Smooth arrivals at the staff, an option that works without more staff.",
        "Staff the fast track with existing nurses moved from the quiet ward.",
    ],
)
def test_mentioning_or_negating_staff_does_not_break_it(hypothesis: str) -> None:
    verdict = judge_by_word_rule(STAFF, hypothesis)
    assert not verdict.violates, verdict.reason
    assert verdict.reason.startswith("Offline word rule:")


@pytest.mark.parametrize(
    ("constraint", "hypothesis", "violates"),
    [
        ("不增加人手", "增加两名护士负责夜班分诊", True),
        ("不增加人手", "招聘更多员工应对高峰", True),
        ("不增加人手", "调整员工排班以匹配到达高峰", False),
        ("不增加人手", "增加员工培训，让分诊更快", False),
        ("不招聘", "在不增加人手的情况下合并两条队列", False),
        ("不招聘", "扩招护士十名", True),
        ("不涨价", "高峰时段提高票价", True),
        ("不涨价", "公布实时价格以分散客流", False),
        ("三个月内完成", "新建大楼需要两年", True),
        ("预算不超过50万", "投入200万元购置新设备", True),
    ],
)
def test_chinese_constraints_are_read_the_same_way(constraint: str, hypothesis: str, violates: bool) -> None:
    assert judge_by_word_rule(constraint, hypothesis).violates is violates


@pytest.mark.parametrize(
    ("constraint", "hypothesis", "violates"),
    [
        ("no new building", "Build a new wing for the fast track.", True),
        ("no new building", "Convert the existing corridor into a waiting bay without construction.", False),
        ("no software change", "Modify the booking software to release slots in batches.", True),
        ("no software change", "Change how the triage desk hands over patients.", False),
        ("no price increase", "Raise ticket prices at the peak.", True),
        ("no price increase", "Show live prices so riders spread across the day.", False),
        ("budget under $50k", "Buy a $200k scanner for the fast track.", True),
        ("budget under $50k", "Spend $20k on signage and floor markings.", False),
        ("within 3 months", "A two-year rebuild of the ward layout.", True),
        ("within 3 months", "A six-week pilot on the evening shift.", False),
        ("keep the current software", "Replace the scheduling app with a new platform.", True),
        ("without cutting staff", "Cut two porter posts and automate transport.", True),
        ("without cutting staff", "Cut the paperwork each porter fills in.", False),
    ],
)
def test_other_resources_and_bounds(constraint: str, hypothesis: str, violates: bool) -> None:
    assert judge_by_word_rule(constraint, hypothesis).violates is violates


def test_a_constraint_is_read_as_the_change_it_forbids() -> None:
    staff = read_constraint("without more staff")
    assert [(c.resource.name, set(c.kinds)) for c in staff.forbidden] == [("staff", {ChangeKind.INCREASE})]
    building = read_constraint("no new building")
    assert [(c.resource.name, set(c.kinds)) for c in building.forbidden] == [("building", {ChangeKind.BUILD})]
    assert read_constraint("budget under 50k").bounds[0].limit == 50_000
    assert not read_constraint("must be measurable").checkable


def test_a_requirement_it_cannot_read_is_never_broken_offline() -> None:
    verdict = judge_by_word_rule("must be measurable", "Hire ten nurses")
    assert not verdict.violates and "not judged offline" in verdict.reason
