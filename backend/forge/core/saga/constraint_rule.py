"""Layer 4's OFFLINE WORD RULE for hard constraints (seed 000 §5.3): does a hypothesis propose what
a hard constraint forbids? The offline model's way to judge; a real model judges meaning instead
(`engine/saga/constraint_check.py`). Every verdict's reason opens with "Offline word rule:".

The model of a constraint: what it forbids is a CHANGE (increase, decrease, build, change) of a
RESOURCE (staff, budget, price, building, software, working hours; `constraint_lexicon.RESOURCES`),
plus numeric upper bounds on money and time. "without more staff" forbids an increase of staff;
"no new building" the building of one; "keep the current software" any change of software;
"budget under 50k" spending above 50,000; "三个月内完成" anything taking longer than three months.

A hypothesis breaks a forbidden change only when it PROPOSES that change:
    - English: a change word of the forbidden kind ("hire", "add", "more", "raise", "build") whose
      object's head names the resource ("hire two nurses", "add staff", "more staff", "increase the
      number of nurses"); a resource word that only modifies another noun is not the object ("staff
      rotas", "increase staff utilisation"); a verb that changes the resource by itself counts whatever
      its object ("hire a coordinator", "buy scanners" under "no extra budget").
    - Chinese: a change word ("增加", "招聘", "新建", "修改") followed, through numbers, measure words
      and "更多/额外/新", by the resource's name ending the object ("增加两名护士"; not "增加员工培训").
    - Not when negated in its clause: a negator up to five words before it ("without hiring",
      "instead of adding staff", "no new hires", "不增加人手", "无需新增护士").
    - Bounds: a money amount above a money bound, a duration longer than a time bound.
A constraint that forbids nothing this model can read (a requirement, a vague wish) is never broken
offline: the compliance audit of CRYSTALLIZE and a real model judge those.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.saga.constraint_bounds import Bound, exceeded_bound, read_bounds
from forge.core.saga.constraint_lexicon import (
    CHANGE_WORDS,
    CLAUSE_BREAKS,
    FILLERS,
    GRADABLE_SUFFIXES,
    KEEP_WORDS,
    NEGATORS,
    QUANTIFIERS,
    RESOURCES,
    TRANSPARENT,
    ZH_ATTRIBUTES,
    ZH_CHANGE,
    ZH_COUNT_WORDS,
    ZH_FILLER,
    ZH_KEEP,
    ZH_NEGATORS,
    ChangeKind,
    Resource,
    fold_noun,
    verb_candidates,
)

LABEL = "Offline word rule"
_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?|[.;:!?,()]")
_FUNCTION = frozenset(
    """to for in at on by with from into of and or that who which as per than through across during when where
    if is are was were be been being will would can could should may might must do does did so their its our
    this these those has have had without instead rather then also now still thus only just a an the some any
    not no whenever until unless because since once after before while so""".split()
)
_ONE_KIND = {
    k: frozenset(w for w in words if sum(w in other for other in CHANGE_WORDS.values()) == 1)
    for k, words in CHANGE_WORDS.items()
}
_ZH_ONE_KIND = frozenset(
    w for words in ZH_CHANGE.values() for w in words if sum(w in o for o in ZH_CHANGE.values()) == 1
)
_SIZE = frozenset("small big large slight modest sharp steep significant substantial further general overall".split())
_NEGATION_WINDOW = 5
_ZH_WINDOW = 14
_ZH_STOPS = "，。；！？、：,.;!?:"
# Between a change word and the resource: numbers and measure words, an optional "…的" phrase, then a
# noun of up to four characters that modifies the resource ("两名分诊护士", "高峰时段的票价").
_ZH_GAP = re.compile(f"[{ZH_FILLER}]*(?:[^{_ZH_STOPS}的]{{1,6}}的)?[{ZH_FILLER}]*[^{_ZH_STOPS}的{ZH_FILLER}]{{0,4}}")
_ZH_PERSON = re.compile(
    f"[\u4e00-\u9fff]((?:[\u4e00-\u9fff]{{1,2}})[员工师])(?=[{_ZH_STOPS}由和与及并来去以在到为让使]|$)"
)


@dataclass(frozen=True, slots=True)
class ForbiddenChange:
    resource: Resource
    kinds: frozenset[ChangeKind]


@dataclass(frozen=True, slots=True)
class ReadConstraint:
    text: str
    forbidden: tuple[ForbiddenChange, ...]
    bounds: tuple[Bound, ...]

    @property
    def checkable(self) -> bool:
        return bool(self.forbidden or self.bounds)


@dataclass(frozen=True, slots=True)
class RuleVerdict:
    violates: bool
    reason: str


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.casefold().replace("n't", " not"))


def _names(resource: Resource, word: str) -> bool:
    return fold_noun(word) in resource.heads or word in resource.heads


def _is_negative(text: str, tokens: list[str]) -> bool:
    return any(t in NEGATORS for t in tokens) or any(n in text and "不断" not in text for n in ZH_NEGATORS)


def _kinds_named(tokens: list[str], text: str) -> set[ChangeKind]:
    """The kinds of change a constraint names by a word of one kind only ("more", "change", "cut";
    not "new" or "add", which any kind uses)."""
    named = {k for k, words in _ONE_KIND.items() for t in tokens if verb_candidates(t) & words}
    named |= {k for k, words in ZH_CHANGE.items() if any(w in text for w in words if w in _ZH_ONE_KIND)}
    return named


def _forbidden_kinds(resource: Resource, named: set[ChangeKind], keep: bool) -> frozenset[ChangeKind]:
    if keep or (ChangeKind.CHANGE in named and resource.default is not ChangeKind.CHANGE):
        return frozenset(ChangeKind)  # "keep the current software", "do not change staffing": any change
    if resource.default in named or not named:
        return frozenset({resource.default})
    return frozenset(named)


@functools.lru_cache(maxsize=1024)  # pure: a frame's constraints are read once per batch text
def read_constraint(text: str) -> ReadConstraint:
    tokens = _tokens(text)
    bounds = read_bounds(text)
    keep = any(t in KEEP_WORDS for t in tokens) or any(w in text for w in ZH_KEEP)
    if not (keep or _is_negative(text, tokens)):
        return ReadConstraint(text, (), bounds)
    named = _kinds_named(tokens, text)
    bounded = {b.resource for b in bounds}
    forbidden = tuple(
        ForbiddenChange(r, _forbidden_kinds(r, named, keep))
        for r in RESOURCES
        if r.name not in bounded
        and (
            any(_names(r, t) or verb_candidates(t) & r.implied for t in tokens)
            or any(z in text for z in (*r.zh, *r.zh_implied, *r.zh_decrease))
        )
    )
    return ReadConstraint(text, forbidden, bounds)


def judge_by_word_rule(constraint: str, hypothesis: str) -> RuleVerdict:
    """Whether `hypothesis` proposes what `constraint` forbids, with a one-line reason."""
    read = read_constraint(constraint)
    if not read.checkable:
        return RuleVerdict(False, f"{LABEL}: “{constraint}” forbids nothing it can read; not judged offline.")
    for bound in read.bounds:
        found = exceeded_bound(bound, hypothesis)
        if found:
            return RuleVerdict(True, f"{LABEL}: {found}, beyond “{constraint}”.")
    for change in read.forbidden:
        proposal = _english_proposal(change, hypothesis) or _chinese_proposal(change, hypothesis)
        if proposal:
            kinds = "/".join(sorted(k.value for k in change.kinds))
            return RuleVerdict(
                True,
                f"{LABEL}: proposes “{proposal}” ({kinds} of {change.resource.name}), which “{constraint}” forbids.",
            )
    names = ", ".join(c.resource.name for c in read.forbidden) or "the bound"
    return RuleVerdict(False, f"{LABEL}: proposes no forbidden change of {names}.")


def _negated(tokens: list[str], i: int) -> bool:
    for j in range(i - 1, max(-1, i - 1 - _NEGATION_WINDOW), -1):
        if tokens[j] in CLAUSE_BREAKS:
            return False
        if tokens[j] in NEGATORS:
            return True
    return False


def _compound(tokens: list[str], start: int) -> tuple[list[str], int]:
    """The noun compound from `start` (fillers skipped): its words and the index after it."""
    j = start
    while j < len(tokens) and tokens[j] in FILLERS:
        j += 1
    words: list[str] = []
    while j < len(tokens) and len(words) < 4 and tokens[j] not in CLAUSE_BREAKS and tokens[j] not in _FUNCTION:
        words.append(tokens[j])
        j += 1
    return words, j


def _object_end(resource: Resource, tokens: list[str], start: int, depth: int = 0) -> int:
    """The index after the object from `start` when its head names `resource`, else -1."""
    words, end = _compound(tokens, start)
    if not words:  # a nominal change: "an increase in staff", "the addition of nurses"
        nominal = depth == 0 and start < len(tokens) and tokens[start] in ("in", "of")
        return _object_end(resource, tokens, start + 1, depth + 1) if nominal else -1
    head = fold_noun(words[-1])
    if _names(resource, words[-1]) or (head in resource.weak_heads and any(_names(resource, w) for w in words[:-1])):
        return end
    opens_phrase = end < len(tokens) and tokens[end] in ("of", "to", "in", "into", "for", "on")
    if depth == 0 and opens_phrase and all(w in _SIZE or w.endswith((*GRADABLE_SUFFIXES, "al")) for w in words):
        return _object_end(resource, tokens, end + 1, depth + 1)  # "a small general increase in the staff"
    if depth == 0 and opens_phrase and (head in TRANSPARENT or head in resource.weak_heads):
        return _object_end(resource, tokens, end + 1, depth + 1)
    return -1


def _english_proposal(change: ForbiddenChange, text: str) -> str:
    tokens = _tokens(text)
    words = frozenset().union(*(CHANGE_WORDS[k] for k in change.kinds))
    implied = change.resource.default in change.kinds
    for i, token in enumerate(tokens):
        forms = verb_candidates(token)
        if not forms & words or _negated(tokens, i):
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in QUANTIFIERS and following.endswith(GRADABLE_SUFFIXES) and not _names(change.resource, following):
            continue  # "more efficient staff": a comparative, not more staff
        end = _object_end(change.resource, tokens, i + 1)
        if end < 0 and implied and forms & change.resource.implied and following not in ("less", "fewer"):
            end = max(_compound(tokens, i + 1)[1], i + 1)
        if end > 0:
            return " ".join(tokens[i : min(end, i + 8)])
    return ""


def _zh_negated(text: str, at: int) -> bool:
    before = text[max(0, at - 4) : at]
    return any(n in before for n in ZH_NEGATORS) and "不断" not in before


def _zh_object_ends(text: str, end: int) -> bool:
    return not text.startswith(ZH_ATTRIBUTES, end)


def _zh_names(resource: Resource, text: str) -> list[tuple[int, int]]:
    """Where `text` names the resource: its names, and (staff) nouns ending in 员/工/师 ("搬运工")."""
    spans = [m.span() for name in resource.zh for m in re.finditer(re.escape(name), text)]
    if resource.name == "staff":
        spans += [(m.start(1), m.end(1)) for m in _ZH_PERSON.finditer(text)]
    return sorted(spans)


def _zh_change_before(verbs: Sequence[str], text: str, start: int) -> int:
    """Where a change word opens the object that ends at `start` ("增加两名分诊护士"), else -1."""
    lead = text[max(0, start - _ZH_WINDOW) : start]
    for verb in verbs:
        at = lead.rfind(verb)
        if at >= 0 and _ZH_GAP.fullmatch(lead[at + len(verb) :]):
            return start - len(lead) + at
    return -1


def _zh_change_after(verbs: Sequence[str], text: str, end: int) -> int:
    """Where a change word follows the resource ("医生人数翻倍", "把班次延长"), else -1."""
    rest = text[end : end + 8]
    skip = next((len(s) for s in ZH_COUNT_WORDS if rest.startswith(s)), 0)
    skip += 1 if rest[skip : skip + 1] in ("都", "再", "也") else 0
    return next((end + skip for verb in verbs if rest.startswith(verb, skip)), -1)


def _chinese_proposal(change: ForbiddenChange, text: str) -> str:
    r = change.resource
    implied = (
        *(r.zh_implied if r.default in change.kinds else ()),
        *(r.zh_decrease if ChangeKind.DECREASE in change.kinds else ()),
    )
    for verb in implied:
        at = text.find(verb)
        if at >= 0 and not _zh_negated(text, at):
            return text[at : at + len(verb) + 4]
    verbs = [w for k in change.kinds for w in ZH_CHANGE[k]]
    for start, end in _zh_names(r, text):
        if not _zh_object_ends(text, end):
            continue  # "员工培训": the resource only names whose training
        before = _zh_change_before(verbs, text, start)
        if before >= 0 and not _zh_negated(text, before):
            return text[before:end]
        after = _zh_change_after(verbs, text, end)
        if after >= 0 and not _zh_negated(text, after):
            return text[start : after + 2]
    return ""
