"""The offline model's inspectable validation rules: falsification, novelty and the four scores.

Invariants:
    - Pure functions of the claim's text, its cited sources and research hits; each rule's verdict
      comes with the numbers that produced it, so the person can check it.
    - Falsification: a counter-evidence snippet refutes the claim when it shares >= MECHANISM_SHARE
      of the claim's mechanism terms, carries a limiting cue (fails, limits, unless, …) and is not
      already covered by the claim's own "where …, it will not" boundary.
    - Novelty: the claim is novel when no research snippet covers >= NOVELTY_THRESHOLD of its terms.
    - Scores lie in [0, 1] and are rounded to two decimals:
        novelty = 0.5 * distance(far 1.0, medium 0.7, near 0.4, none 0.5) + 0.5 * (1 - closest overlap)
        groundedness = min(1, distinct cited sources / 4), halved when falsification refuted the claim
        falsifiability = 0.25 each for a measurable quantity, a direction, a numeric threshold, a time frame
        significance = 0.5 * target terms covered + 0.25 * constraint kept + 0.25 * a lever named
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from forge.providers.offline.planning import Hit
from forge.providers.offline.problem_frame import ProblemFrame
from forge.providers.offline.term_match import coverage, overlap, stem_set, stems

MECHANISM_SHARE = 0.3
BOUNDARY_SHARE = 0.3
NOVELTY_THRESHOLD = 0.5
SOURCES_FOR_FULL_GROUNDING = 4
DISTANCE_SCORE = {"far": 1.0, "medium": 0.7, "near": 0.4}
NO_DISTANCE = 0.5
LIMIT_CUE = re.compile(
    r"\b(fail\w*|not|no|never|limit\w*|however|unless|only|wors\w*|backfir\w*|collaps\w*|declin\w*|cannot|"
    r"harm\w*|paradox\w*|trade-?offs?|saturat\w*|diminish\w*|counterproductive|breaks? down)\b")
MEASURABLE = re.compile(r"\b(rate|time|times|count|number|share|per|ratio|percent|minutes?|hours?|days?|index|"
                        r"level|proportion|fraction|average|median|variance|length|volume|deaths?|cost)\b|%")
DIRECTION = re.compile(r"\b(fall|falls|rise|rises|drop|drops|increase\w*|decrease\w*|below|above|reduce\w*|"
                       r"higher|lower|improve\w*)\b")
THRESHOLD = re.compile(r"\d+(\.\d+)?\s*%|\b\d+(\.\d+)?\b")
TIME_FRAME = re.compile(r"\b(weeks?|months?|days?|cycles?|years?|quarters?)\b")


@dataclass(frozen=True, slots=True)
class FalsificationVerdict:
    survived: bool
    approach: str
    result: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoveltyVerdict:
    is_novel: bool
    closest_overlap: float
    assessment: str


def claim_parts(text: str) -> tuple[str, str]:
    """(positive part, boundary part) of "…; where <boundary>, it will not."."""
    head, _, tail = text.partition("; where ")
    return head, tail.split(", it will not")[0]


def mechanism_terms(claim: str, frame: ProblemFrame) -> list[str]:
    head, _ = claim_parts(claim)
    banned = stem_set(f"{frame.target} {' '.join(frame.constraints)} extending applied works way does further")
    return [s for s in stems(head) if s not in banned]


def _against(hit: Hit, mechanism: Sequence[str], boundary: str) -> tuple[float, str | None, bool]:
    snippet = f"{hit.title} {hit.snippet}"
    share = len(set(mechanism) & stem_set(snippet)) / len(mechanism) if mechanism else 0.0
    cue = LIMIT_CUE.search(snippet.lower())
    anticipated = bool(boundary) and coverage(boundary, snippet) >= BOUNDARY_SHARE
    return share, cue.group(0) if cue else None, anticipated


def falsify(claim: str, frame: ProblemFrame, query: str, hits: Sequence[Hit]) -> FalsificationVerdict:
    mechanism = mechanism_terms(claim, frame)
    _, boundary = claim_parts(claim)
    judged = [(h, *_against(h, mechanism, boundary)) for h in hits]
    refuting = [j for j in judged if j[1] >= MECHANISM_SHARE and j[2] and not j[3]]
    anticipated = [j for j in judged if j[1] >= MECHANISM_SHARE and j[2] and j[3]]
    approach = (f"Searched for evidence against the claim ('{query}') and checked each of the {len(hits)} "
                f"snippet(s) for the claim's mechanism terms ({', '.join(mechanism[:8]) or 'none'}) together with "
                "a limiting cue (fails, limits, unless, however, …).")
    if refuting:
        hit, share, cue, _ = max(refuting, key=lambda j: j[1])
        result = (f"{len(refuting)} snippet(s) share >= {MECHANISM_SHARE:.0%} of the mechanism terms and limit it "
                  f"outside the claim's stated boundary; strongest: '{hit.title}' ({hit.source}) shares {share:.0%} "
                  f"and says '{cue}'. The claim does not survive as stated.")
    else:
        result = (f"No snippet both shares >= {MECHANISM_SHARE:.0%} of the mechanism terms and limits it outside "
                  f"the claim's boundary ({len(anticipated)} limiting snippet(s) fall inside the boundary it already "
                  "states). It survives this test — absence of refutation in the searched corpus, not proof.")
    ranked = sorted(judged, key=lambda j: -j[1])
    cited = tuple(dict.fromkeys(j[0].source for j in (refuting or ranked)[:2]))
    return FalsificationVerdict(not refuting, approach[:2000], result[:2000], cited)


def novelty(claim: str, frame: ProblemFrame, hits: Sequence[Hit]) -> NoveltyVerdict:
    head, _ = claim_parts(claim)
    if not hits:
        return NoveltyVerdict(True, 0.0, "No research snippet to compare with; novelty is unestablished.")
    scored = [(coverage(head, f"{h.title} {h.snippet}"), -i, h) for i, h in enumerate(hits)]
    share, _, closest = max(scored, key=lambda s: (s[0], s[1]))
    shared = ", ".join(overlap(head, f"{closest.title} {closest.snippet}")[:8])
    is_novel = share < NOVELTY_THRESHOLD
    assessment = (f"Closest of {len(hits)} researched source(s): '{closest.title}' ({closest.source}) covers "
                  f"{share:.0%} of the claim's terms ({shared or 'none'}) — "
                  f"{'below' if is_novel else 'at or above'} the {NOVELTY_THRESHOLD:.0%} threshold, so this "
                  f"combination is {'not' if is_novel else 'largely'} already stated there.")
    return NoveltyVerdict(is_novel, share, assessment[:2000])


def _feature(regex: re.Pattern[str], text: str) -> float:
    return 0.25 if regex.search(text.lower()) else 0.0


def scores(claim: str, condition: str, frame: ProblemFrame, *, distance: str | None, closest_overlap: float,
           cited: Sequence[str], survived: bool) -> dict[str, float]:
    distance_score = DISTANCE_SCORE.get(distance or "", NO_DISTANCE)
    grounded = min(1.0, len(set(cited)) / SOURCES_FOR_FULL_GROUNDING) * (1.0 if survived else 0.5)
    falsifiable = sum(_feature(r, condition) for r in (MEASURABLE, DIRECTION, THRESHOLD, TIME_FRAME))
    head, _ = claim_parts(claim)
    kept = (not frame.constraints) or coverage(frame.constraints[0], claim) >= 0.5
    lever = any(coverage(lever, head) == 1.0 for lever in frame.levers)
    significance = 0.5 * coverage(frame.target, head) + 0.25 * kept + 0.25 * lever
    values = {"novelty": 0.5 * distance_score + 0.5 * (1.0 - closest_overlap), "groundedness": grounded,
              "falsifiability": falsifiable, "significance": significance}
    return {k: round(min(1.0, max(0.0, v)), 2) for k, v in values.items()}
