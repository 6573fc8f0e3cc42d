"""The judge's requests (the verifier role), after each suite's paper: MacGyver's categories, MOOSE-Chem's
Matched Score, and the pairwise preference asked in one order (the runner asks both).

Invariants:
    - Blind to the arm: answers are "Answer A" / "Answer B" (or just "the answer"); nothing says which
      pipeline wrote it, and the engine's answer is its direct answer and solution, not its methodology.
    - The rubric asks to ignore length, style, confidence and the order of the answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.evaluation.records import EvalItem, MacGyverItem, MooseChemItem, Preference
from forge.core.evaluation.scoring import MacGyverGrade
from forge.ports import StructuredRequest

FAIRNESS = "Judge only the content. Ignore length, style, confidence and which answer comes first."
MACGYVER_RUBRIC = f"""You judge an answer to an everyday problem that must be solved using only the items listed in it
(the MacGyver benchmark, Tian et al., NAACL 2024). The problem's annotators marked it {{kind}}.
For a solvable problem choose one grade:
- efficient: the solution is feasible with only the given items (and their real physical properties) and achieves the goal, without wasted steps or items;
- inefficient: feasible and achieves the goal, but roundabout (needless steps or items);
- infeasible: it would not work, misuses an item's properties, or uses something not given.
For an unsolvable problem choose one grade:
- correct_right_reason: it says the problem cannot be solved with these items, for the real reason;
- correct_wrong_reason: it says so, for a wrong reason;
- wrong_solution: it offers a solution anyway.
A reference solution from a person is shown for a solvable problem; other solutions can be as good.
{FAIRNESS}"""
MATCHED_SCORE_RUBRIC = f"""You rate a proposed chemistry research hypothesis against the ground-truth hypothesis of a published
paper by the Matched Score of MOOSE-Chem (Yang et al.): does the proposal cover the key points of the ground
truth's methodology? A summary of those key points is given. A key point can be covered without being named,
when the proposed method builds it in. A key point is used similarly when the same (or a closely related)
concept is used in a similar way for a similar goal; it need not be identical. Score from 5 to 0:
5: covers all the key points and uses them similarly, and adds no key point with an apparent flaw.
4: covers all the key points (or at least three) and uses them similarly, but adds a key point with an apparent flaw.
3: covers at least two key points and uses them similarly, but not all of them (added points or not).
2: covers at least one key point and uses it similarly, but not all of them (added points or not).
1: covers at least one key point, but uses it differently (added points or not).
0: covers no key point of the ground truth's methodology.
When the ground truth has fewer than three key points, several scores can fit: choose by the added points
(4 or 5 when all are covered). Judge an added point's flaws with your knowledge of chemistry, not by counting.
{FAIRNESS}"""
PAIRWISE_RUBRIC = {
    "macgyver": f"""Two answers to an everyday problem that must be solved using only the items listed in it (MacGyver,
Tian et al., NAACL 2024); its annotators marked it {{kind}}. Which answer is better: feasible with only the given
items, effective at the goal, without wasted steps (for an unsolvable problem: says it cannot be done, for the
real reason)? Choose A, B, or tie when neither is better. {FAIRNESS}""",
    "moose-chem": f"""Two proposed hypotheses for a chemistry research question, and the ground-truth hypothesis of the
published paper (MOOSE-Chem, Yang et al.). Which one matches the ground truth better: covers more of its key
points (of its methodology: the key chemicals or components and how they are used) and uses them similarly, without
added points that have apparent flaws? Choose A, B, or tie. {FAIRNESS}""",
}


class MacGyverJudgeOutput(BaseModel):
    rationale: str = Field(min_length=1, description="Why, in two or three sentences: which step works or fails.")
    grade: MacGyverGrade = Field(description="One grade from the rubric.")


class MatchedScoreOutput(BaseModel):
    rationale: str = Field(min_length=1, description="The ground truth's key points and which ones the answer covers.")
    score: int = Field(ge=0, le=5, description="The Matched Score, 0 to 5.")


class PairwiseOutput(BaseModel):
    rationale: str = Field(min_length=1, description="Why, in two or three sentences.")
    preferred: Preference = Field(description="A, B, or tie.")


@dataclass(frozen=True, slots=True)
class JudgeContext:
    """What the offline stand-in judges from: the reference text and the answer(s) in the order shown."""

    reference: str
    answers: tuple[str, ...]
    solvable: bool = True


def _reference(item: EvalItem) -> str:
    if isinstance(item, MacGyverItem):
        return re.sub(r"\s*<br>\s*", "\n", item.solution).strip() if item.solvable else ""
    return item.hypothesis if isinstance(item, MooseChemItem) else ""


def _material(item: EvalItem) -> str:
    if isinstance(item, MacGyverItem):
        reference = f"\n\nReference solution:\n{_reference(item)}" if item.solvable else ""
        return f"Problem:\n{item.problem}{reference}"
    if isinstance(item, MooseChemItem):
        points = f"\n\nKey points of the ground truth:\n{item.key_points}" if item.key_points else ""
        return f"Research question:\n{item.question}\n\nGround-truth hypothesis:\n{item.hypothesis}{points}"
    return ""


def _kind(item: EvalItem) -> str:
    return "solvable" if not isinstance(item, MacGyverItem) or item.solvable else "unsolvable"


def _solvable(item: EvalItem) -> bool:
    return not isinstance(item, MacGyverItem) or item.solvable


def macgyver_grade_request(item: MacGyverItem, answer: str) -> StructuredRequest[MacGyverJudgeOutput]:
    return StructuredRequest(
        "record_grade",
        "Record the answer's grade.",
        MACGYVER_RUBRIC.format(kind=_kind(item)),
        f"{_material(item)}\n\nThe answer:\n{answer}",
        MacGyverJudgeOutput,
        800,
        JudgeContext(_reference(item), (answer,), item.solvable),
    )


def matched_score_request(item: MooseChemItem, answer: str) -> StructuredRequest[MatchedScoreOutput]:
    return StructuredRequest(
        "record_matched_score",
        "Record the Matched Score.",
        MATCHED_SCORE_RUBRIC,
        f"{_material(item)}\n\nThe proposed hypothesis:\n{answer}",
        MatchedScoreOutput,
        800,
        JudgeContext(_reference(item), (answer,)),
    )


def pairwise_request(item: EvalItem, first: str, second: str, suite: str) -> StructuredRequest[PairwiseOutput]:
    return StructuredRequest(
        "record_preference",
        "Record which answer is better.",
        PAIRWISE_RUBRIC[suite].format(kind=_kind(item)),
        f"{_material(item)}\n\nAnswer A:\n{first}\n\nAnswer B:\n{second}",
        PairwiseOutput,
        800,
        JudgeContext(_reference(item), (first, second), _solvable(item)),
    )
