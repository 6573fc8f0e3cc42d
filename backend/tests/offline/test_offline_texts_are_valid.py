"""The offline model's texts are valid and readable (not fluent), deterministic, labelled as offline and
made of the problem's own terms — for English problems of several shapes, and Chinese and Japanese ones."""

from __future__ import annotations

import re

import pytest
from support.offline_session import run_session

from forge.core.frame.problem_frame import make_frame
from forge.core.research.text_terms import shares_terms
from forge.engine.explore.biso import BisoContext, BisoOutput
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.explore.source_domain_library import select_domains
from forge.offline.frame.problem_frame import frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge, load_offline_knowledge
from forge.offline.offline_model import OFFLINE_LABEL, OfflineModel
from forge.offline.phases.plan_decompose import assumptions, fundamentals, reframings
from forge.offline.phases.plan_explore import adjacent_possible, analogy, contradiction, morphological_box
from forge.offline.phases.synthesis_directions import claim_text, falsifiability, from_analogy, thesis_text
from forge.ports import StructuredRequest
from forge.research.local_corpus import LocalCorpusResearch

PROBLEMS = (
    "How can a hospital cut emergency wait times without more staff?",
    "How can a city keep heat-wave deaths down with a fixed budget?",
    "How can our team make decisions faster without losing buy-in?",
    "Our nightly deploy fails twice a week. How do we fix this?",
    "如何在不增加人手的情况下缩短医院急诊的等待时间？",
    "人手を増やさずに救急の待ち時間を短縮するには？",
)
INVALID = re.compile(r"[{}]|\w\(s\)|\s[.,;:]|\.\.(?!\.)|  |\b(\w+) \1\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def knowledge() -> OfflineKnowledge:
    return load_offline_knowledge()


def texts_for(problem: str, knowledge: OfflineKnowledge) -> dict[str, list[str]]:
    frame = frame_problem(problem)
    choices = select_domains(knowledge.domains, frame, count=2)
    contra = contradiction(frame, knowledge)
    texts: dict[str, list[str]] = {
        "decompose": [*fundamentals(frame), *assumptions(frame), *(r["text"] for r in reframings(frame, knowledge))],
        "explore": [str(contra["description"]), *adjacent_possible(frame, choices, contra["principles"])],
        "claims": [],
        "conditions": [],
    }
    texts["explore"] += [p["name"] for p in morphological_box(frame)["parameters"]]
    for choice in choices:
        written = analogy(choice, frame, ())
        texts["explore"] += [str(written["analogy_description"]), str(written["failure_mode"])]
        direction = from_analogy(
            {"source_domain": choice.domain.name, "description": written["analogy_description"]}, frame, knowledge
        )
        texts["claims"] += [claim_text(direction, frame), thesis_text(direction, frame)]
        texts["conditions"].append(falsifiability(direction, frame))
        context = BisoContext(problem, make_frame(frame.direction_verb, frame.target, frame.target), choice.domain, 1)
        output = offline_biso(StructuredRequest("biso", "", "", problem, BisoOutput, offline_context=context))
        texts["explore"] += [t for h in output.hypotheses for t in (h.title, h.statement, h.observable)]
    return texts


@pytest.mark.parametrize("problem", PROBLEMS)
def test_every_text_is_filled_and_free_of_broken_patterns(problem: str, knowledge: OfflineKnowledge) -> None:
    texts = texts_for(problem, knowledge)
    bad = [t for group in texts.values() for t in group if not t.strip() or INVALID.search(t)]
    assert not bad, bad


@pytest.mark.parametrize("problem", PROBLEMS)
def test_claims_state_the_problems_target_with_a_verb_and_a_test(problem: str, knowledge: OfflineKnowledge) -> None:
    texts = texts_for(problem, knowledge)
    target = frame_problem(problem).target
    assert texts["claims"] and all(" will " in c or " should " in c for c in texts["claims"])
    assert all(target in c and shares_terms(c, problem) for c in texts["claims"])
    assert all("the claim is false if" in c for c in texts["conditions"])


def test_the_same_problem_gives_the_same_texts(knowledge: OfflineKnowledge) -> None:
    assert texts_for(PROBLEMS[0], knowledge) == texts_for(PROBLEMS[0], knowledge)


async def test_a_whole_session_document_is_labelled_offline_and_uses_the_problems_terms() -> None:
    run = await run_session(PROBLEMS[2], OfflineModel(), LocalCorpusResearch.from_directory())
    assert OFFLINE_LABEL in run.document and "decisions faster" in run.document
    sentences = [s for line in run.document.splitlines() if not line.startswith(("```", "  ", "|")) for s in [line]]
    assert not [s for s in sentences if re.search(r"[{}]|\w\(s\)", s)]
