"""The structural-mapping quality gate, rule layer (seed 000 §4.2.6): zero model cost, anti-padding.

A `MappingTable` maps source concepts and relations onto target concepts and relations. Its rows are
judged row by row, then seven rules are checked:
    EFFECTIVE_ROWS          >= 6 effective rows (counted by information increment, not raw count)
    RELATION_COMPLETENESS   every row has a source_relation and a target_relation
    DUPLICATE_RATIO         near-duplicate rows / all rows <= 0.3
    ROW_USAGE               effective rows used by the downstream artifacts / effective rows >= 0.7
    TYPE_COVERAGE           effective rows cover >= 2 mapping types
    SYSTEMATICITY_GROUP     some systematicity group holds >= 3 effective rows
    OBSERVABLE_LINK         every effective row has an observable_link

Row judgements (deterministic, on content terms of `forge.core.research.text_terms`):
    duplicate   its terms overlap an earlier row's by Jaccard >= DUPLICATE_JACCARD
    effective   relation-complete, not a duplicate, and adds >= MIN_NEW_TERMS terms not seen in any
                earlier effective row (the information increment)
    used        its target concept or target relation shares a content term with the downstream text
                (the hypothesis statement, observable, failure modes that the table is meant to support)

A table failing any rule caps the mapping score at `FAILED_SCORE_CAP` (4.0 on the 0-10 scale).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.research.text_terms import term_set

MIN_EFFECTIVE_ROWS = 6
MAX_DUPLICATE_RATIO = 0.3
MIN_ROW_USAGE = 0.7
MIN_MAPPING_TYPES = 2
MIN_GROUP_SIZE = 3
DUPLICATE_JACCARD = 0.8
MIN_NEW_TERMS = 2
FAILED_SCORE_CAP = 4.0


class MappingType(str, Enum):
    ENTITY = "entity"  # a thing corresponds to a thing
    ATTRIBUTE = "attribute"  # a property or variable corresponds to one
    RELATION = "relation"  # a first-order relation between two things
    HIGHER_ORDER = "higher_order"  # a relation between relations: causal chain, feedback loop, constraint


class GateRule(str, Enum):
    EFFECTIVE_ROWS = "effective_rows"
    RELATION_COMPLETENESS = "relation_completeness"
    DUPLICATE_RATIO = "duplicate_ratio"
    ROW_USAGE = "row_usage"
    TYPE_COVERAGE = "type_coverage"
    SYSTEMATICITY_GROUP = "systematicity_group"
    OBSERVABLE_LINK = "observable_link"


@dataclass(frozen=True, slots=True)
class MappingRow:
    source_concept: str
    source_relation: str
    target_concept: str
    target_relation: str
    mapping_type: MappingType
    systematicity_group: str = ""
    observable_link: str = ""

    @property
    def relation_complete(self) -> bool:
        return bool(self.source_relation.strip() and self.target_relation.strip())

    @property
    def terms(self) -> frozenset[str]:
        return term_set(f"{self.source_concept} {self.source_relation} {self.target_concept} {self.target_relation}")


@dataclass(frozen=True, slots=True)
class MappingTable:
    rows: tuple[MappingRow, ...]


@dataclass(frozen=True, slots=True)
class RowJudgement:
    index: int
    duplicate_of: int | None
    new_terms: int
    effective: bool
    used: bool


@dataclass(frozen=True, slots=True)
class RuleOutcome:
    rule: GateRule
    passed: bool
    measured: float
    required: str
    detail: str


@dataclass(frozen=True, slots=True)
class MappingGateVerdict:
    outcomes: tuple[RuleOutcome, ...]
    rows: tuple[RowJudgement, ...]

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)

    @property
    def failed_rules(self) -> tuple[GateRule, ...]:
        return tuple(o.rule for o in self.outcomes if not o.passed)

    @property
    def effective_rows(self) -> tuple[int, ...]:
        return tuple(r.index for r in self.rows if r.effective)

    def capped(self, mapping_score: float) -> float:
        """The mapping score after the gate: at most FAILED_SCORE_CAP when any rule failed."""
        return mapping_score if self.passed else min(mapping_score, FAILED_SCORE_CAP)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def judge_rows(table: MappingTable, downstream_text: str) -> tuple[RowJudgement, ...]:
    downstream = term_set(downstream_text)
    row_terms = [row.terms for row in table.rows]  # once per row, not once per pair
    seen: set[str] = set()
    judgements: list[RowJudgement] = []
    for index, row in enumerate(table.rows):
        terms = row_terms[index]
        duplicate_of = next((j for j in range(index) if _jaccard(terms, row_terms[j]) >= DUPLICATE_JACCARD), None)
        new_terms = len(terms - seen)
        effective = row.relation_complete and duplicate_of is None and new_terms >= MIN_NEW_TERMS
        if effective:
            seen |= terms
        used = bool(term_set(f"{row.target_concept} {row.target_relation}") & downstream)
        judgements.append(RowJudgement(index, duplicate_of, new_terms, effective, used))
    return tuple(judgements)


def _outcome(rule: GateRule, measured: float, passed: bool, required: str, detail: str) -> RuleOutcome:
    return RuleOutcome(rule, passed, round(measured, 4), required, detail)


def _count_rules(table: MappingTable, rows: Sequence[RowJudgement]) -> list[RuleOutcome]:
    effective = [r for r in rows if r.effective]
    incomplete = [r.index for r in rows if not table.rows[r.index].relation_complete]
    duplicates = sum(1 for r in rows if r.duplicate_of is not None)
    ratio = duplicates / len(rows) if rows else 0.0
    return [
        _outcome(
            GateRule.EFFECTIVE_ROWS,
            len(effective),
            len(effective) >= MIN_EFFECTIVE_ROWS,
            f">= {MIN_EFFECTIVE_ROWS}",
            f"{len(effective)} of {len(rows)} rows add new information",
        ),
        _outcome(
            GateRule.RELATION_COMPLETENESS,
            len(incomplete),
            not incomplete,
            "0 rows without a source and target relation",
            f"rows without both relations: {incomplete}" if incomplete else "every row maps a relation",
        ),
        _outcome(
            GateRule.DUPLICATE_RATIO,
            ratio,
            ratio <= MAX_DUPLICATE_RATIO,
            f"<= {MAX_DUPLICATE_RATIO}",
            f"{duplicates} of {len(rows)} rows repeat an earlier row",
        ),
    ]


def _structure_rules(table: MappingTable, rows: Sequence[RowJudgement]) -> list[RuleOutcome]:
    effective = [table.rows[r.index] for r in rows if r.effective]
    used = sum(1 for r in rows if r.effective and r.used)
    usage = used / len(effective) if effective else 0.0
    types = {row.mapping_type for row in effective}
    groups = Counter(row.systematicity_group.strip() for row in effective if row.systematicity_group.strip())
    largest = groups.most_common(1)[0] if groups else ("", 0)
    unlinked = [r.index for r in rows if r.effective and not table.rows[r.index].observable_link.strip()]
    return [
        _outcome(
            GateRule.ROW_USAGE,
            usage,
            usage >= MIN_ROW_USAGE,
            f">= {MIN_ROW_USAGE}",
            f"{used} of {len(effective)} effective rows are used by the hypothesis, observable or failure modes",
        ),
        _outcome(
            GateRule.TYPE_COVERAGE,
            len(types),
            len(types) >= MIN_MAPPING_TYPES,
            f">= {MIN_MAPPING_TYPES} mapping types",
            f"types: {', '.join(sorted(t.value for t in types)) or 'none'}",
        ),
        _outcome(
            GateRule.SYSTEMATICITY_GROUP,
            largest[1],
            largest[1] >= MIN_GROUP_SIZE,
            f"a group of >= {MIN_GROUP_SIZE} effective rows",
            f"largest group '{largest[0]}' has {largest[1]} effective rows" if largest[1] else "no groups",
        ),
        _outcome(
            GateRule.OBSERVABLE_LINK,
            len(unlinked),
            not unlinked,
            "every effective row links an observable",
            f"effective rows without observable_link: {unlinked}" if unlinked else "every effective row is linked",
        ),
    ]


def check_mapping_table(table: MappingTable, downstream_text: str) -> MappingGateVerdict:
    """All seven rules on `table`; `downstream_text` is what the table must support (statement, observable...)."""
    rows = judge_rows(table, downstream_text)
    return MappingGateVerdict(tuple(_count_rules(table, rows) + _structure_rules(table, rows)), rows)


def failure_lines(verdict: MappingGateVerdict) -> list[str]:
    """One line per failed rule, in words a model can act on: the rule, what it measured, what it needs."""
    return [f"- {o.rule.value}: {o.detail} (needs {o.required})" for o in verdict.outcomes if not o.passed]
