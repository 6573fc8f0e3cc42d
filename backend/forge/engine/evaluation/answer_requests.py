"""What the arms ask the generator: the direct arm's one plain prompt per suite, and SCAN's engine
arm, the BISO-style concept mapping (rows of the mapping table BISO uses, then the core's
one-to-one constraint and the mapping-quality gate over them).

Invariants:
    - The direct prompt is what a user would type: the problem and the task, no engine method.
    - Each request carries a typed offline context; a real model reads only `input`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.evaluation.records import EvalItem, MacGyverItem, MooseChemItem, ScanItem
from forge.engine.explore.biso import MappingRowOut
from forge.ports import StructuredRequest

SURVEY_CHARS = 6000  # the background survey as given, cut at this length


class DirectAnswerOutput(BaseModel):
    answer: str = Field(min_length=1, description="The answer, as you would give it to the person who asked.")


class ConceptMappingOutput(BaseModel):
    mapping: list[MappingRowOut] = Field(
        min_length=1, description="One row per target concept: the source concept it corresponds to, and why."
    )


@dataclass(frozen=True, slots=True)
class AnswerContext:
    """What the offline stand-in works from: the text asked about and, for SCAN, the concepts."""

    text: str
    target_words: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()


def _scan_text(item: ScanItem) -> str:
    return (
        f"Target domain: {item.target_domain}\nSource domain: {item.source_domain}\n"
        f"Target concepts: {', '.join(item.target_words)}\n"
        f"Source concepts to choose from: {', '.join(item.candidates)}"
    )


def direct_prompt(item: EvalItem) -> str:
    if isinstance(item, MacGyverItem):
        return (
            "Solve this problem using only the items it lists. If it cannot be solved with them, say so and "
            f"why.\n\n{item.problem}"
        )
    if isinstance(item, MooseChemItem):
        return (
            "Propose one research hypothesis that answers this chemistry research question, given the "
            "background survey. Be specific: name the materials, methods and mechanism.\n\n"
            f"Question: {item.question}\n\nBackground survey:\n{item.survey[:SURVEY_CHARS]}"
        )
    return (
        f"{item.target_domain} is like {item.source_domain}. Map each target concept to the source concept it "
        f"corresponds to in this analogy. Answer with one line per target concept: target -> source.\n\n{_scan_text(item)}"
    )


def _answer_context(item: EvalItem) -> AnswerContext:
    if isinstance(item, ScanItem):
        return AnswerContext("", item.target_words, item.candidates)
    return AnswerContext(item.problem if isinstance(item, MacGyverItem) else item.question)


def direct_request(item: EvalItem) -> StructuredRequest[DirectAnswerOutput]:
    return StructuredRequest(
        name="answer",
        purpose="Record your answer.",
        instructions="Answer the request below.",
        input=direct_prompt(item),
        output=DirectAnswerOutput,
        max_tokens=2000,
        offline_context=_answer_context(item),
    )


MAPPING_INSTRUCTIONS = """You map a target domain onto a source domain (structure mapping, as in BISO's mapping table).
For every target concept give one row: the source concept it corresponds to, what that source concept does
(source_relation), what the target concept does (target_relation), the mapping type, a systematicity_group
shared by the rows of one causal story, and an observable_link. Map relations, not surface features: two
concepts correspond when they play the same role in the same system of relations. Keep the mapping
one-to-one: each source concept serves at most one target concept. Choose source concepts from the list."""


def concept_mapping_request(item: ScanItem) -> StructuredRequest[ConceptMappingOutput]:
    return StructuredRequest(
        name="record_concept_mapping",
        purpose=f"Record the mapping of {item.target_domain} onto {item.source_domain}.",
        instructions=MAPPING_INSTRUCTIONS,
        input=_scan_text(item),
        output=ConceptMappingOutput,
        max_tokens=400 * len(item.pairs) + 400,
        offline_context=AnswerContext("", item.target_words, item.candidates),
    )
