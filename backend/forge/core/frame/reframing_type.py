"""Which kind of reframing a person wrote: inferred from its wording, so a reframing added at the
decompose review is typed like the model's (scope, entity, variable or domain change).

Invariants:
    - Pure and deterministic: fixed, inspectable cue phrases per type (English, with a few Chinese and
      Japanese cues); the type with the most cue hits wins, ties going to the earlier type in
      CUE_ORDER (domain, entity, variable, scope); no hit at all -> SCOPE_CHANGE, the most general.
    - Cues are matched on word boundaries for Latin text and as substrings for CJK text.
"""

from __future__ import annotations

import re

from forge.core.domain_types import ReframingType

CUES: dict[ReframingType, tuple[str, ...]] = {
    ReframingType.DOMAIN_CHANGE: (
        "as a problem of",
        "as an? [a-z-]+ problem",
        "like an?",
        "treat it as",
        "think of it as",
        "as if it were",
        "analogy",
        "analogous",
        "borrow",
        "the way [a-z]+ do",
        "what would an?",
        "in the language of",
        "field",
        "discipline",
        "看作",
        "当作",
        "类比",
        "借鉴",
        "として考え",
        "見立て",
        "類推",
    ),
    ReframingType.ENTITY_QUESTION: (
        "who",
        "whose",
        "whom",
        "is the real problem",
        "the real problem",
        "symptom",
        "the wrong",
        "the right thing",
        "a different actor",
        "instead of the",
        "rather than the",
        "what if the",
        "谁",
        "症状",
        "真正的问题",
        "誰",
        "本当の問題",
    ),
    ReframingType.VARIABLE_CHANGE: (
        "optimi[sz]e",
        "maximi[sz]e",
        "minimi[sz]e",
        "metric",
        "measure",
        "variability",
        "variance",
        "average",
        "median",
        "peak",
        "per [a-z]+",
        "ratio",
        "rate of",
        "instead of reducing",
        "instead of increasing",
        "rather than reducing",
        "rather than increasing",
        "quantity",
        "指标",
        "衡量",
        "波动",
        "指標",
        "ばらつき",
    ),
    ReframingType.SCOPE_CHANGE: (
        "only",
        "first for",
        "narrow",
        "widen",
        "broader",
        "wider",
        "whole system",
        "entire",
        "segment",
        "just the",
        "subset",
        "region",
        "范围",
        "只",
        "範囲",
        "だけ",
    ),
}
CUE_ORDER = tuple(CUES)


def _hits(cues: tuple[str, ...], lowered: str) -> int:
    count = 0
    for cue in cues:
        if cue.isascii():
            count += bool(re.search(rf"\b(?:{cue})\b", lowered))
        else:
            count += cue in lowered
    return count


def infer_reframing_type(text: str) -> ReframingType:
    """The reframing type whose cues the text hits most (see the module docstring)."""
    lowered = " ".join(text.lower().split())
    scored = [(_hits(CUES[kind], lowered), -i, kind) for i, kind in enumerate(CUE_ORDER)]
    hits, _, kind = max(scored)
    return kind if hits > 0 else ReframingType.SCOPE_CHANGE
