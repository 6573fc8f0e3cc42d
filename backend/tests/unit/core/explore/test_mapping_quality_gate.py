"""The mapping-quality gate's seven rules, each passing and failing on hand-made tables."""

from __future__ import annotations

from dataclasses import replace

from forge.core.explore.mapping_quality_gate import (
    FAILED_SCORE_CAP,
    GateRule,
    MappingRow,
    MappingTable,
    MappingType,
    check_mapping_table,
    failure_lines,
)

R, H, A = MappingType.RELATION, MappingType.HIGHER_ORDER, MappingType.ATTRIBUTE

# Thermodynamics -> a software team's codebase; every row brings its own vocabulary.
GOOD_ROWS = (
    MappingRow(
        "entropy",
        "grows without work input",
        "code disorder",
        "grows without refactoring",
        H,
        "decay",
        "lint warnings per week",
    ),
    MappingRow(
        "energy through-flow",
        "sustains order",
        "refactoring budget",
        "sustains structure",
        H,
        "decay",
        "hours of refactoring",
    ),
    MappingRow(
        "heat sink",
        "absorbs exported entropy",
        "deprecation queue",
        "absorbs removed modules",
        H,
        "decay",
        "modules deleted",
    ),
    MappingRow(
        "temperature gradient",
        "drives heat flux",
        "ownership gap",
        "drives knowledge transfer",
        R,
        "flow",
        "review comments",
    ),
    MappingRow(
        "thermal conductivity",
        "sets flux per gradient",
        "pairing frequency",
        "sets transfer rate",
        A,
        "flow",
        "pairing sessions",
    ),
    MappingRow(
        "quasi-static process",
        "dissipates less",
        "incremental migration",
        "breaks fewer builds",
        R,
        "pace",
        "failed builds",
    ),
    MappingRow(
        "Carnot limit", "caps efficiency", "review capacity", "caps merge throughput", A, "limits", "merges per day"
    ),
)
DOWNSTREAM = (
    "Code disorder grows without refactoring unless a refactoring budget sustains structure; the deprecation queue "
    "absorbs removed modules; the ownership gap drives knowledge transfer at a rate set by pairing frequency; "
    "incremental migration breaks fewer builds; review capacity caps merge throughput."
)


def _check(rows: tuple[MappingRow, ...], downstream: str = DOWNSTREAM):  # type: ignore[no-untyped-def]
    return check_mapping_table(MappingTable(rows), downstream)


def test_a_well_built_table_passes_every_rule() -> None:
    verdict = _check(GOOD_ROWS)
    assert verdict.passed, verdict.outcomes
    assert verdict.failed_rules == ()
    assert verdict.effective_rows == tuple(range(7))
    assert verdict.capped(8.5) == 8.5


def test_fails_effective_rows_below_six() -> None:
    verdict = _check(GOOD_ROWS[:5])
    assert verdict.failed_rules == (GateRule.EFFECTIVE_ROWS,)


def test_failure_lines_name_each_failed_rule_with_what_it_measured_and_needs() -> None:
    assert failure_lines(_check(GOOD_ROWS[:5])) == ["- effective_rows: 5 of 5 rows add new information (needs >= 6)"]
    assert failure_lines(_check(GOOD_ROWS)) == []


def test_padding_rows_that_add_no_new_terms_are_not_effective() -> None:
    padded = (
        *GOOD_ROWS[:5],
        MappingRow(
            "entropy energy",
            "sustains order grows",
            "code disorder budget",
            "sustains structure grows",
            R,
            "decay",
            "x",
        ),
        MappingRow("heat sink entropy", "absorbs order", "deprecation disorder", "absorbs structure", R, "decay", "y"),
    )
    verdict = _check(padded)
    assert GateRule.EFFECTIVE_ROWS in verdict.failed_rules
    assert len(verdict.effective_rows) == 5


def test_fails_relation_completeness_when_a_row_maps_entities_only() -> None:
    rows = (*GOOD_ROWS, MappingRow("boiler", "", "build server", "", MappingType.ENTITY, "decay", "builds"))
    verdict = _check(rows)
    assert verdict.failed_rules == (GateRule.RELATION_COMPLETENESS,)
    assert 7 not in verdict.effective_rows


def test_duplicate_ratio_passes_at_three_tenths_and_fails_above() -> None:
    copies = tuple(replace(row, observable_link="") for row in GOOD_ROWS[:4])
    assert _check(GOOD_ROWS + copies[:3]).passed  # 3 of 10
    verdict = _check(GOOD_ROWS + copies)  # 4 of 11
    assert verdict.failed_rules == (GateRule.DUPLICATE_RATIO,)


def test_fails_row_usage_when_the_hypothesis_ignores_most_rows() -> None:
    verdict = _check(GOOD_ROWS, "Code disorder grows without refactoring; the refactoring budget sustains structure.")
    assert verdict.failed_rules == (GateRule.ROW_USAGE,)


def test_fails_type_coverage_with_a_single_mapping_type() -> None:
    verdict = _check(tuple(replace(row, mapping_type=R) for row in GOOD_ROWS))
    assert verdict.failed_rules == (GateRule.TYPE_COVERAGE,)


def test_fails_systematicity_without_a_group_of_three() -> None:
    rows = tuple(replace(row, systematicity_group=f"g{i // 2}") for i, row in enumerate(GOOD_ROWS))
    verdict = _check(rows)
    assert verdict.failed_rules == (GateRule.SYSTEMATICITY_GROUP,)


def test_fails_observable_link_when_an_effective_row_has_none() -> None:
    rows = (*GOOD_ROWS[:6], replace(GOOD_ROWS[6], observable_link="  "))
    verdict = _check(rows)
    assert verdict.failed_rules == (GateRule.OBSERVABLE_LINK,)


def test_a_failing_table_caps_the_mapping_score() -> None:
    verdict = _check(GOOD_ROWS[:3])
    assert not verdict.passed
    assert verdict.capped(9.0) == FAILED_SCORE_CAP
    assert verdict.capped(2.5) == 2.5


def test_every_rule_reports_what_it_measured() -> None:
    verdict = _check(GOOD_ROWS)
    assert [o.rule for o in verdict.outcomes] == list(GateRule)
    assert all(o.detail and o.required for o in verdict.outcomes)
