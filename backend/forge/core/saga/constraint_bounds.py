"""Numeric upper bounds in a hard constraint, for Layer 4's offline word rule: money ("budget under
50k", "no more than $2m", "预算不超过50万") and time ("within 3 months", "三个月内完成"), and the
amounts and durations of a hypothesis that exceed them.

Invariants:
    - A bound is read only with an upper-bound word (under, below, at most, no more than, within,
      up to, 不超过, 以内, 内); money needs a currency sign or a money word, time a unit (day, week,
      month, quarter, year; 天, 周, 个月, 季度, 年).
    - Amounts are compared in one unit (money as written, time in days); a hypothesis is over a bound
      only when it states a larger amount of the same measure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UPPER = re.compile(
    r"\b(?:under|below|at most|no more than|less than|max(?:imum)?|up to|within|not exceed\w*|cap(?:ped)? at|"
    r"inside|in under|no longer than)\b|不超过|不高于|以内|之内|内完成|内",
    re.I,
)
_MONEY_WORDS = re.compile(
    r"\b(?:budget|cost|costs|spend\w*|capital|invest\w*|dollars?|euros?|pounds?|usd|eur|gbp)\b|预算|费用|资金|投入|成本|元",
    re.I,
)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9, "万": 1e4, "亿": 1e8}
_NUMBER = r"(\d+(?:[.,]\d+)*|[一二两三四五六七八九十百千半]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty|thirty)"
_MONEY = re.compile(
    r"([$€£¥]?)\s*"
    + _NUMBER
    + r"\s*((?:k|thousand|million|m|bn|billion)\b|万|亿)?\s*(元|dollars?\b|euros?\b|pounds?\b)?",
    re.I,
)
_DURATION = re.compile(_NUMBER + r"[\s-]*(days?|weeks?|months?|quarters?|years?|天|日|周|星期|个月|月|季度|年)", re.I)
_DAYS = {"day": 1, "天": 1, "日": 1, "week": 7, "周": 7, "星期": 7, "month": 30, "个月": 30, "月": 30,
         "quarter": 91, "季度": 91, "year": 365, "年": 365}  # fmt: skip
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18, "twenty": 20, "thirty": 30}  # fmt: skip
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}


@dataclass(frozen=True, slots=True)
class Bound:
    resource: str  # "budget" (money) or "hours" (time), as in constraint_lexicon.RESOURCES
    limit: float  # money as written; time in days
    text: str  # the bound as the constraint says it


def number_of(word: str) -> float | None:
    """A number written in digits, English words (one..thirty) or Chinese numerals (五十, 十八, 两, 半)."""
    word = word.strip().casefold()
    if word[:1].isdigit():
        return float(word.replace(",", ""))
    if word in _WORDS:
        return float(_WORDS[word])
    if word == "半":
        return 0.5
    total, digit = 0, 0
    for ch in word:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch in _ZH_UNITS:
            total += (digit or 1) * _ZH_UNITS[ch]
            digit = 0
        else:
            return None
    return float(total + digit) if total + digit else None


def _unit_days(unit: str) -> int:
    unit = unit.casefold()
    return _DAYS.get(unit.rstrip("s"), _DAYS.get(unit, 0))


def _durations(text: str) -> list[tuple[float, str]]:
    found = []
    for m in _DURATION.finditer(text):
        n = number_of(m.group(1))
        if n is not None and _unit_days(m.group(2)):
            found.append((n * _unit_days(m.group(2)), m.group(0).strip()))
    return found


def _amounts(text: str, need_sign: bool) -> list[tuple[float, str]]:
    found = []
    for m in _MONEY.finditer(text):
        sign, raw, scale, word = m.group(1), m.group(2), (m.group(3) or "").casefold(), m.group(4)
        n = number_of(raw)
        rest = text[m.end() : m.end() + 8].casefold()
        if n is None or _DURATION.match(text[m.start(2) :]) or rest.lstrip().startswith(("%", "percent")):
            continue
        if need_sign and not (sign or word or scale):
            continue
        found.append((n * _SCALE.get(scale, 1.0), m.group(0).strip()))
    return found


def read_bounds(constraint: str) -> tuple[Bound, ...]:
    if not _UPPER.search(constraint):
        return ()
    bounds: list[Bound] = []
    durations = _durations(constraint)
    if durations:
        bounds.append(Bound("hours", max(d for d, _ in durations), durations[0][1]))
    elif _MONEY_WORDS.search(constraint) or re.search(r"[$€£¥]", constraint):
        amounts = _amounts(constraint, need_sign=False)
        if amounts:
            bounds.append(Bound("budget", max(a for a, _ in amounts), amounts[0][1]))
    return tuple(bounds)


def exceeded_bound(bound: Bound, hypothesis: str) -> str:
    """What in `hypothesis` goes beyond `bound` ("states 2 years"), or "" when nothing does."""
    if bound.resource == "hours":
        over = [(d, t) for d, t in _durations(hypothesis) if d > bound.limit]
    else:
        over = [(a, t) for a, t in _amounts(hypothesis, need_sign=True) if a > bound.limit]
    return f"states “{over[0][1]}”" if over else ""
