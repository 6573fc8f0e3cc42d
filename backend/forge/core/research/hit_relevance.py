"""Which research results a model judged to be about a claim: what the claim gates (rules 14 and 15)
read when a real model is present, instead of counting shared words (issue #38).

Invariants:
    - Pure: the judgment is a value the shell obtained from the verifier's model; nothing here asks.
    - `results_to_judge` offers the results of this phase's research the model has read, each source
      once (its latest showing), newest first, at most MAX_JUDGED: the ones a recording call may cite.
    - A judgment names the model that made it (`judged_by`) and keeps every result's one-line reason,
      so a refusal can say why, in the model's words, none was about the claim.
    - Meaning is judged across languages: a Chinese claim and an English result about its mechanism
      are related, which shared words cannot show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit

MAX_JUDGED = 12


@dataclass(frozen=True, slots=True)
class ResultJudgment:
    source: str
    title: str
    about_subject: bool
    reason: str


@dataclass(frozen=True, slots=True)
class RelevanceJudgment:
    """One model's reading of the results offered, against one subject (claim, problem or domain)."""

    judged_by: str
    results: tuple[ResultJudgment, ...]

    @property
    def about(self) -> tuple[ResultJudgment, ...]:
        return tuple(r for r in self.results if r.about_subject)

    def refusal_detail(self, shown: int = 2) -> str:
        """The model's reasons for the first `shown` results it judged not about the subject."""
        others = [r for r in self.results if not r.about_subject][:shown]
        return "; ".join(f"“{r.title or r.source}”: {r.reason}" for r in others)


def results_to_judge(state: ForgeState, limit: int = MAX_JUDGED) -> tuple[ResearchHit, ...]:
    """The read results of this phase's research, each source once, newest first."""
    seen: dict[str, ResearchHit] = {}
    for record in reversed(state.read_research_this_phase):
        for hit in record.hits:
            seen.setdefault(hit.source, hit)
    return tuple(seen.values())[:limit]


def judged_results(
    judged_by: str, offered: Sequence[ResearchHit], verdicts: Sequence[tuple[int, bool, str]]
) -> RelevanceJudgment:
    """The model's verdicts (1-based result number, about the subject?, reason) on the results offered;
    a number outside the list is ignored, a result without a verdict counts as not about the subject."""
    said = {number: (about, reason) for number, about, reason in verdicts if 1 <= number <= len(offered)}
    return RelevanceJudgment(
        judged_by,
        tuple(
            ResultJudgment(hit.source, hit.title, *said.get(number, (False, "no verdict given")))
            for number, hit in enumerate(offered, start=1)
        ),
    )
