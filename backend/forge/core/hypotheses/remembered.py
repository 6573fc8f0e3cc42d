"""What earlier sessions learned, offered to a new session (seed 004 §4.2–§4.3, §8.3).

Invariants:
    - A session opens with at most RECALL_LIMIT remembered hypotheses, the best by relevance × C
      (BM25 fused with the cosine, `core.research.hybrid_ranking`) among episodes with C ≥
      RETRIEVAL_MIN_C whose cosine similarity to the problem is at least RECALL_MIN_SIMILARITY
      (unrelated hypotheses are not offered, however confident or many words they share). They are a
      copy taken when the session was created: later C changes do not rewrite this session's context.
    - Each starts OFFERED. The decompose review may ACCEPT (pin) or DISMISS each one by episode id.
    - The DECOMPOSE brief shows every offered or accepted one; later briefs show only the accepted
      ones; a dismissed one is never shown to the model again. The text follows the seed's prompt
      format (confidence as a percentage, support and contradiction counts, the original question).
    - `read_memory_block` reads back exactly what `memory_block` wrote (the offline model reads a brief
      with it): text, confidence, rationale, counts and question of each hypothesis, in order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

RECALL_LIMIT = 3
# all-MiniLM-L6-v2 cosines (§10.1): at 0.5 ("related concept"), on MOOSE-Chem's 36 dev papers the
# paper's own hypothesis passes for 35 of 36 background questions and 0.58 other papers' hypotheses
# pass per question (all 36 are chemistry); a library problem against hospital hypotheses stays below
# it (test_memory_at_decompose_review).
RECALL_MIN_SIMILARITY = 0.5
MEMORY_HEADER = (
    "Relevant hypotheses from previous analyses (what earlier sessions found; weigh them, do not assume them):"
)


class MemoryDecision(StrEnum):
    OFFERED = "offered"
    ACCEPTED = "accepted"
    DISMISSED = "dismissed"


@dataclass(frozen=True, slots=True)
class RememberedHypothesis:
    episode_id: str
    text: str
    c: float
    similarity: float
    support_count: int
    contradiction_count: int
    origin_question: str
    origin_session_id: str
    decision: MemoryDecision = MemoryDecision.OFFERED
    rationale: str = ""


def _times(n: int) -> str:
    return f"{n} time" if n == 1 else f"{n} times"


def memory_block(items: Iterable[RememberedHypothesis], *, accepted_only: bool) -> str:
    """The seed's prompt format for the hypotheses a brief may show ("" when there are none)."""
    shown = [
        h
        for h in items
        if h.decision == MemoryDecision.ACCEPTED or (not accepted_only and h.decision == MemoryDecision.OFFERED)
    ]
    if not shown:
        return ""
    lines = [MEMORY_HEADER]
    for n, h in enumerate(shown, start=1):
        pinned = " — pinned by your reviewer" if h.decision == MemoryDecision.ACCEPTED else ""
        lines += [
            "",
            f"Hypothesis {n} (confidence: {round(100 * h.c)}%){pinned}:",
            f"HYPOTHESIS: {h.text}",
            *([f"RATIONALE: {h.rationale}"] if h.rationale else []),
            f"EVIDENCE: Supported {_times(h.support_count)}, contradicted {_times(h.contradiction_count)}",
            f'CONTEXT: Originally from "{h.origin_question}"',
        ]
    return "\n".join(lines)


_ITEM = re.compile(
    r"^Hypothesis \d+ \(confidence: (\d+)%\)(?P<pinned> — pinned by your reviewer)?:\n"
    r"HYPOTHESIS: (?P<text>.*)\n(?:RATIONALE: (?P<rationale>.*)\n)?"
    r"EVIDENCE: Supported (\d+) times?, contradicted (\d+) times?\n"
    r'CONTEXT: Originally from "(?P<question>.*)"$',
    re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class ReadHypothesis:
    """One hypothesis as a brief's memory block states it."""

    text: str
    confidence: float
    support_count: int
    contradiction_count: int
    origin_question: str
    rationale: str = ""
    pinned: bool = False


def read_memory_block(brief: str) -> list[ReadHypothesis]:
    """The hypotheses of the memory block in a brief's text (none when it has no block)."""
    if MEMORY_HEADER not in brief:
        return []
    block = brief[brief.index(MEMORY_HEADER) :]
    return [
        ReadHypothesis(
            m.group("text"),
            int(m.group(1)) / 100,
            int(m.group(5)),
            int(m.group(6)),
            m.group("question"),
            m.group("rationale") or "",
            m.group("pinned") is not None,
        )
        for m in _ITEM.finditer(block)
    ]
