"""Choosing TRIZ parameters and principles (typed records from `forge.knowledge`) for a problem.

Invariants: deterministic ranking by cue-term hits (after the fixed everyday-word expansion
TRIZ_SYNONYMS), ties by number; fixed fallbacks; the improving and worsening parameters differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.explore.library_records import TrizKnowledge, TrizParameter, TrizPrinciple
from forge.core.research.term_match import cue_hits, expand, synonym_table
from forge.core.research.text_terms import match_keys
from forge.offline.frame.problem_frame import ProblemFrame

# Everyday words -> the TRIZ parameters' cue vocabulary (the parameters speak engineering).
TRIZ_SYNONYMS = synonym_table(
    "staff staffing headcount worker employee nurse doctor people = labor resources; budget money funding spend "
    "spending cost price = cost resources; death mortality injury injuries casualty illness fatality = harm risk "
    "safety; churn attrition dropout turnover leave leaving quit = turnover churn; waste wasting wasted spoil "
    "spoiled leftover = wastage spoilage scrap"
)
FALLBACK_PRINCIPLES = (1, 10, 15, 35)
FALLBACK_IMPROVING = 39  # Productivity
FALLBACK_WORSENING = 36  # Device complexity
_DIRECTION_WORDS = {"decrease": "loss less reduce", "increase": "more gain increase", "achieve": ""}
_LOSS_PREFIX = "Loss of"
_LOSS_BONUS = 0.5


def _rank_parameters(library: TrizKnowledge, text: str, direction: str = "") -> list[tuple[float, TrizParameter]]:
    """Parameters by distinct cue stems hit; for a decrease goal a "Loss of ..." parameter wins ties."""
    stems = match_keys(f"{text} {expand(text, TRIZ_SYNONYMS)}")
    scored = []
    for p in library.parameters:
        hits = len({stem_of for cue in cue_hits(p.cue_terms, stems) for stem_of in match_keys(cue)})
        bonus = _LOSS_BONUS if hits and direction == "decrease" and p.name.startswith(_LOSS_PREFIX) else 0.0
        scored.append((hits + bonus, p))
    return sorted([s for s in scored if s[0] > 0], key=lambda s: (-s[0], s[1].number))


def detect_parameters(library: TrizKnowledge, frame: ProblemFrame) -> tuple[TrizParameter, TrizParameter]:
    """(improving, worsening): the goal's parameter, and the parameter the constraint protects."""
    goal_text = f"{frame.target} {frame.goal_verb} {_DIRECTION_WORDS[frame.goal_direction]}"
    improving_ranked = _rank_parameters(library, goal_text, frame.goal_direction) or _rank_parameters(
        library, frame.problem, frame.goal_direction
    )
    fallback_improving = library.parameter(FALLBACK_IMPROVING) or library.parameters[0]
    improving = improving_ranked[0][1] if improving_ranked else fallback_improving
    limit_text = " ".join(frame.constraints) or " ".join(frame.levers)
    worsening_ranked = [p for _, p in _rank_parameters(library, limit_text) if p.number != improving.number]
    fallback = [
        p
        for p in (library.parameter(FALLBACK_WORSENING), *library.parameters)
        if p is not None and p.number != improving.number
    ]
    return improving, (worsening_ranked or fallback)[0]


def choose_principles(
    library: TrizKnowledge, frame: ProblemFrame, improving: TrizParameter, worsening: TrizParameter, count: int = 3
) -> list[TrizPrinciple]:
    """The matrix cell's first two principles, then cue-term matches, then the fallbacks."""
    stems = match_keys(f"{frame.problem} {frame.target} {' '.join(frame.levers)}")
    cell = library.matrix.lookup(improving.number, worsening.number)
    numbers: list[int] = list(cell)[:2] if isinstance(cell, tuple) else []
    scored = sorted(
        ((len(cue_hits(p.cue_terms, stems)), p.number) for p in library.principles), key=lambda s: (-s[0], s[1])
    )
    numbers += [n for hits, n in scored if hits > 0]
    numbers += list(FALLBACK_PRINCIPLES)
    chosen = [p for n in dict.fromkeys(numbers) if (p := library.principle(n)) is not None]
    return chosen[:count]


def principles_named(library: TrizKnowledge, names: Sequence[str]) -> list[TrizPrinciple]:
    """Principles whose label or name appears in `names` (as written by identify_contradictions)."""
    found = [next((p for p in library.principles if p.name.lower() in n.lower()), None) for n in names]
    return list(dict.fromkeys(p for p in found if p is not None))
