"""What the engine knows of one SEARCH operator (seed 000 §4.2): an `ApplicationSpec` — its
instructions, the request it makes, what an answer becomes and, for an HKG operator, what it asks
the hypergraph first — and the records an application passes through on the way.

Invariants:
    - `ask` returns None when nothing may be asked (an HKG operator whose traversal found no path):
      no request, no child, never evidence without a path.
    - `answer` turns the model's answer into a child (`Hypothesis`), a refusal (`str`: why it is not
      usable) or a `PendingTransform` whose gate closes after the logic check; an answer of another
      type than the operator's own is a refusal, never a guess.
    - Child ids are `search-<stem>-<n>-<operator>`, with n the application's place in the plan and
      stem `<round>` for the first SEARCH round of a session round, `<round>-d<k>` for its k-th.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hkg.structural_grounding import GroundingRequest
from forge.core.hypotheses.pool import Hypothesis, HypothesisId
from forge.core.search.concept_space import ConceptSpace
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.core.search.operator_specs import SearchOperator
from forge.core.search.plan import OperatorApplication
from forge.core.search.transform_gate import TransformProposal
from forge.engine.search.transform_space import TransformOutput
from forge.ports import StructuredRequest


@dataclass(frozen=True, slots=True)
class RequestInputs:
    """What an operator's request is made from."""

    operator: SearchOperator
    parents: tuple[Hypothesis, ...]
    problem: str
    frame: ProblemFrame
    trace: HyperpathTrace | None  # the HKG traversal (HKG operators only)
    space: ConceptSpace  # the target domain's concept space (transform_space)


@dataclass(frozen=True, slots=True)
class Prepared:
    place: int  # 1-based place in the plan
    application: OperatorApplication
    parents: tuple[Hypothesis, ...]
    request: StructuredRequest[Any] | None  # None: the HKG found no path, nothing is asked
    trace: HyperpathTrace | None = None
    round_: int = 0
    depth: int = 0  # the SEARCH round inside the session round, 0-based

    @property
    def stem(self) -> str:
        """`<round>` for the first SEARCH round of a session round, `<round>-d<depth + 1>` after it."""
        return f"{self.round_}" if self.depth == 0 else f"{self.round_}-d{self.depth + 1}"

    @property
    def child_id(self) -> HypothesisId:
        return HypothesisId(f"search-{self.stem}-{self.place}-{self.application.operator.value}")


@dataclass(frozen=True, slots=True)
class PendingTransform:
    prepared: Prepared
    proposal_id: str
    proposal: TransformProposal
    output: TransformOutput
    audit: tuple[str, ...]  # reasons the structural audit found (empty: the logic check decides)


Answered = Hypothesis | str | PendingTransform


@dataclass(frozen=True, slots=True)
class ApplicationSpec:
    instructions: str  # the operator's own part of the request's instructions
    ask: Callable[[RequestInputs], StructuredRequest[Any] | None]
    answer: Callable[[Prepared, BaseModel, ConceptSpace], Answered]
    ground: Callable[[Sequence[Hypothesis], ProblemFrame], GroundingRequest] | None = None  # HKG operators


def unexpected(value: BaseModel) -> str:
    return f"unexpected answer type {type(value).__name__}"
