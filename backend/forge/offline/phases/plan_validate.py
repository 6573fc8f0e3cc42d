"""VALIDATE for the offline model: try to disprove each claim, check its novelty, score it, by
inspectable rules whose verdicts carry the numbers that produced them.

Invariants: feedback from the person is answered first (revise_claim), the text kept: rules do not
rewrite a claim from free text. attempt_falsification follows research aimed at disproving the claim (rule 15); score_claim
comes only after both checks (rules 5 and 6).
    - Falsification: a snippet refutes the claim when it shares >= MECHANISM_SHARE of the terms of the
      claim's action ("<action> will …"), carries a limiting cue (fails, limits, unless, …) and is not
      already covered by the claim's own "Boundary: …".
    - Novelty: novel when no research snippet covers >= NOVELTY_THRESHOLD of its terms.
    - Scores in [0, 1], two decimals: novelty = 0.5 distance (far 1, medium 0.7, near 0.4, none 0.5) +
      0.5 (1 - closest overlap); groundedness = min(1, relevant cited sources / 3), halved if refuted;
      falsifiability = 0.5 each for a number (threshold) and a time frame in the condition; significance =
      0.5 target covered + 0.25 constraint kept + 0.25 min(1, cue terms of the claim's source domain in the
      problem / 2; 0 for a TRIZ claim).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from forge.core.research.term_match import key_terms, overlap
from forge.core.research.text_relevance import coverage, is_relevant
from forge.core.research.text_terms import match_key, match_keys
from forge.offline.explore.source_domain_library import distance_of, find_domain, score_domain
from forge.offline.frame.problem_frame import ProblemFrame, frame_problem
from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import (
    Builder,
    ConversationView,
    Hit,
    PhasePlan,
    Researched,
    Task,
    all_research_hits,
    claims_in,
    phase_summary,
    plan_or_summary,
    schedule,
)
from forge.offline.phases.synthesis_directions import BOUNDARY
from forge.offline.text.wording import shorten

MECHANISM_SHARE = BOUNDARY_SHARE = 0.3
NOVELTY_THRESHOLD = 0.5
SOURCES_FOR_FULL_GROUNDING = 3
CUES_FOR_FULL_RELEVANCE = 2
DISTANCE_SCORE = {"far": 1.0, "medium": 0.7, "near": 0.4}
NO_DISTANCE = 0.5
LIMIT_CUE = re.compile(
    r"\b(fail\w*|not|no|never|limit\w*|however|unless|only|wors\w*|backfir\w*|collaps\w*|declin\w*|cannot|"
    r"harm\w*|paradox\w*|trade-?offs?|saturat\w*|diminish\w*|counterproductive|breaks? down)\b"
)
THRESHOLD = re.compile(r"\d+(\.\d+)?\s*%|\b\d+(\.\d+)?\b")
EXTENDING = re.compile(r"^Extending '.*?': ")
CONNECTIVES = "extending applied adds works way does further governed structure describes whose"
KEPT = "Kept as written: offline rules do not rewrite a claim from free-text feedback; it stays for the verdict."
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
    closest_work: str = "No researched source to compare with."
    sources: tuple[str, ...] = ()


def claim_parts(text: str) -> tuple[str, str]:
    """(positive part, boundary part) of "[Extending '…': ]… It will not where: <boundary>"."""
    head, _, tail = EXTENDING.sub("", text, count=1).partition(f" {BOUNDARY}")
    return head, tail.strip()


def claim_action(claim: str) -> str:
    """The action of "<action> will …" (the whole positive part for other shapes)."""
    return claim_parts(claim)[0].split(" will ", 1)[0]


def mechanism_terms(claim: str, frame: ProblemFrame, limit: int = 50) -> list[str]:
    """The terms of the claim's action (as written), minus the target, the constraint and connectives."""
    return key_terms(claim_action(claim), limit, exclude=[frame.target, *frame.constraints, CONNECTIVES])


def _against(hit: Hit, mechanism: Sequence[str], boundary: str) -> tuple[float, str | None, bool]:
    snippet = f"{hit.title} {hit.snippet}"
    wanted = {match_key(m) for m in mechanism}
    share = len(wanted & match_keys(snippet)) / len(wanted) if wanted else 0.0
    cue = LIMIT_CUE.search(snippet.lower())
    anticipated = bool(boundary) and coverage(snippet, boundary) >= BOUNDARY_SHARE
    return share, cue.group(0) if cue else None, anticipated


def falsify(claim: str, frame: ProblemFrame, query: str, hits: Sequence[Hit]) -> FalsificationVerdict:
    mechanism = mechanism_terms(claim, frame)
    _, boundary = claim_parts(claim)
    judged = [(h, *_against(h, mechanism, boundary)) for h in hits]
    refuting = [j for j in judged if j[1] >= MECHANISM_SHARE and j[2] and not j[3]]
    anticipated = [j for j in judged if j[1] >= MECHANISM_SHARE and j[2] and j[3]]
    terms = ", ".join(mechanism[:8]) or "none"
    approach = (
        f"Searched '{query}'; checked {len(hits)} snippets for the mechanism terms ({terms}) with a limiting cue."
    )
    if refuting:
        hit, share, cue, _ = max(refuting, key=lambda j: j[1])
        result = (
            f"Snippets limiting the mechanism outside the claim's boundary: {len(refuting)}; strongest: "
            f"'{hit.title}' ({hit.source}), {share:.0%} of the mechanism terms, says '{cue}'. Refuted as stated."
        )
    else:
        result = (
            f"No snippet shares >= {MECHANISM_SHARE:.0%} of the mechanism terms and limits it outside the claim's "
            f"boundary (limiting snippets inside the boundary: {len(anticipated)}). It survives: not refuted by "
            "the corpus searched, not proof."
        )
    ranked = [j for j in sorted(judged, key=lambda j: -j[1]) if j[1] > 0]
    cited = tuple(dict.fromkeys(j[0].source for j in (refuting or ranked)[:2]))
    return FalsificationVerdict(not refuting, approach[:2000], result[:2000], cited)


def novelty(claim: str, frame: ProblemFrame, hits: Sequence[Hit]) -> NoveltyVerdict:
    head, _ = claim_parts(claim)
    if not hits:
        return NoveltyVerdict(True, 0.0, "No research snippet to compare with; novelty is unestablished.")
    scored = [(coverage(f"{h.title} {h.snippet}", head), -i, h) for i, h in enumerate(hits)]
    share, _, closest = max(scored, key=lambda s: (s[0], s[1]))
    shared = ", ".join(overlap(head, f"{closest.title} {closest.snippet}")[:8])
    is_novel = share < NOVELTY_THRESHOLD
    assessment = (
        f"Closest of {len(hits)} researched sources: '{closest.title}' ({closest.source}) covers {share:.0%} of "
        f"the claim's terms ({shared or 'none'}); novel below {NOVELTY_THRESHOLD:.0%}: {is_novel}."
    )
    closest_work = f"'{closest.title}', covering {share:.0%} of the claim's terms"
    return NoveltyVerdict(is_novel, share, assessment[:2000], closest_work[:1000], (closest.source,))


@dataclass(frozen=True, slots=True)
class ScoreInputs:
    """The inspectable features a claim is scored on."""

    claim: str
    condition: str
    distance: str | None
    closest_overlap: float
    relevant_sources: int
    survived: bool
    cue_strength: int


def falsifiability_score(condition: str) -> float:
    """0.5 for a number (a threshold) plus 0.5 for a time frame in the condition."""
    return 0.5 * bool(THRESHOLD.search(condition.lower())) + 0.5 * bool(TIME_FRAME.search(condition.lower()))


def scores(inputs: ScoreInputs, frame: ProblemFrame) -> dict[str, float]:
    distance_score = DISTANCE_SCORE.get(inputs.distance or "", NO_DISTANCE)
    grounded = min(1.0, inputs.relevant_sources / SOURCES_FOR_FULL_GROUNDING) * (1.0 if inputs.survived else 0.5)
    falsifiable = falsifiability_score(inputs.condition)
    head, _ = claim_parts(inputs.claim)
    kept = (not frame.constraints) or coverage(inputs.claim, frame.constraints[0]) >= 0.5
    cues = min(1.0, inputs.cue_strength / CUES_FOR_FULL_RELEVANCE)
    significance = 0.5 * coverage(head, frame.target) + 0.25 * kept + 0.25 * cues
    values = {
        "novelty": 0.5 * distance_score + 0.5 * (1.0 - inputs.closest_overlap),
        "groundedness": grounded,
        "falsifiability": falsifiable,
        "significance": significance,
    }
    return {k: round(min(1.0, max(0.0, v)), 2) for k, v in values.items()}


def score_rationale(inputs: ScoreInputs) -> str:
    """The features the scores were computed from, in words (score_claim requires a rationale)."""
    return (
        f"Novelty from the domain's distance ({inputs.distance or 'none'}) and the closest source's overlap "
        f"({inputs.closest_overlap:.0%}); groundedness from relevant cited sources: {inputs.relevant_sources}, "
        f"survived falsification: {inputs.survived}; falsifiability from the condition's threshold and "
        "time window; significance from coverage of the target."
    )


COVERS = re.compile(r"covers (\d+)%")
SCORES = ("novelty", "groundedness", "falsifiability", "significance")


def _action_terms(claim: Mapping[str, Any], frame: ProblemFrame, limit: int) -> str:
    return " ".join(mechanism_terms(str(claim.get("text", "")), frame, limit))


def falsify_queries(claim: Mapping[str, Any], frame: ProblemFrame) -> tuple[str, ...]:
    """Queries aimed at disproving the claim: its action's terms, then its target and source."""
    head, _ = claim_parts(str(claim.get("text", "")))
    target_term = (key_terms(frame.target, 1) or [frame.target])[0]
    source = str(claim.get("cross_domain_source") or "")
    candidates = (
        f"{_action_terms(claim, frame, 4)} {target_term} evidence against",
        f"{frame.target} {source} evidence against".replace("  ", " "),
        " ".join(key_terms(head, 6)),
        f"{source} {' '.join(key_terms(head, 3))} limits".strip(),
    )
    return tuple(dict.fromkeys(c.strip() for c in candidates if c.strip()))


def novelty_queries(claim: Mapping[str, Any], frame: ProblemFrame) -> tuple[str, ...]:
    """Queries looking for the claim already stated: its action with the target."""
    return tuple(dict.fromkeys((f"{_action_terms(claim, frame, 5)} {frame.target}".strip(), frame.target)))


def _falsification_builder(claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    def build(research: Researched) -> Mapping[str, Any]:
        v = falsify(str(claim["text"]), frame, research.query, research.hits)
        return {"approach": v.approach, "result": v.result, "survived": v.survived, "evidence_sources": list(v.sources)}

    return build


def _novelty_builder(view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame) -> Builder:
    def build(_: Researched) -> Mapping[str, Any]:
        v = novelty(str(claim["text"]), frame, all_research_hits(view))
        found = {"closest_prior_work": v.closest_work, "prior_work_sources": list(v.sources)}
        return {**found, "assessment": v.assessment, "is_novel": v.is_novel}

    return build


def relevant_sources(view: ConversationView, claim_text: str, cited: Sequence[str]) -> int:
    """How many cited sources say something about the claim (`is_relevant`, as the research gates judge)."""
    head, _ = claim_parts(claim_text)
    texts = {h.source: f"{h.title} {h.snippet}" for h in all_research_hits(view)}
    return sum(1 for s in dict.fromkeys(cited) if is_relevant(texts.get(s, ""), head))


def cue_strength(claim: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge) -> tuple[int, str | None]:
    """(problem terms that call for the claim's source domain, its semantic distance); (0, None) for a
    claim from a TRIZ principle or a domain the library lacks."""
    domain = find_domain(knowledge.domains, str(claim.get("cross_domain_source") or ""))
    if domain is None:
        return 0, None
    strength = len({s for cue in score_domain(domain, frame)[1] for s in match_keys(cue)})
    return strength, distance_of(domain, frame).value


def _score_builder(
    view: ConversationView, claim: Mapping[str, Any], index: int, frame: ProblemFrame, knowledge: OfflineKnowledge
) -> Builder:
    def build(_: Researched) -> Mapping[str, Any] | None:
        falsified = view.done(f"attempt_falsification:{index}")
        novel = view.done(f"check_novelty:{index}")
        if falsified is None or novel is None:
            return None
        share = COVERS.search(str(novel.call.arguments.get("assessment", "")))
        cited = [str(s) for s in claim.get("evidence_sources", [])]
        cited += [str(s) for s in falsified.call.arguments.get("evidence_sources", [])]
        strength, distance = cue_strength(claim, frame, knowledge)
        inputs = ScoreInputs(
            claim=str(claim["text"]),
            condition=str(claim.get("falsifiability_condition", "")),
            distance=distance,
            closest_overlap=int(share.group(1)) / 100 if share else 0.0,
            relevant_sources=relevant_sources(view, str(claim["text"]), cited),
            survived=bool(falsified.call.arguments.get("survived", False)),
            cue_strength=strength,
        )
        return {**scores(inputs, frame), "rationale": score_rationale(inputs)}

    return build


def claim_tasks(
    view: ConversationView, claim: Mapping[str, Any], frame: ProblemFrame, knowledge: OfflineKnowledge
) -> list[Task]:
    index = int(claim["index"])
    key = {"claim_index": index}
    if claim.get("user_feedback") and "feedback_response" not in claim and not view.done(f"revise_claim:{index}"):
        return [Task("revise_claim", lambda _: {"response": KEPT}, key=key)]
    tasks = [
        Task(
            "attempt_falsification",
            _falsification_builder(claim, frame),
            key=key,
            queries=falsify_queries(claim, frame),
            accept=lambda hits: any(is_relevant(f"{h.title} {h.snippet}", str(claim.get("text", ""))) for h in hits),
        ),
        Task(
            "check_novelty",
            _novelty_builder(view, claim, frame),
            key=key,
            queries=novelty_queries(claim, frame),
            needs_hits=False,
        ),
    ]
    if all(view.done(t.identity) for t in tasks):
        tasks.append(Task("score_claim", _score_builder(view, claim, index, frame, knowledge), key=key))
    return tasks


def _summary(view: ConversationView) -> str:
    lines, refuted = [], []
    for claim in claims_in(view):
        index, text = int(claim["index"]), shorten(str(claim.get("text", "")), 180)
        falsified = view.done(f"attempt_falsification:{index}")
        survived = bool(falsified and falsified.call.arguments.get("survived"))
        refuted += [] if survived else [text]
        scored = view.done(f"score_claim:{index}")
        values = [float(scored.call.arguments.get(k, 0)) for k in SCORES] if scored else [0.0]
        lines.append(f"({index}) {text} — survived falsification: {survived}; mean score {sum(values) / 4:.2f}.")
    return phase_summary(
        f"claims that did not survive the attempt to disprove them: {len(refuted)}, e.g. '{refuted[0]}'."
        if refuted
        else "every claim survived the search for counter-evidence: not refuted by the corpus searched, not proof.",
        " ".join(lines),
        "novelty = 0.5·domain distance + 0.5·(1 − closest source overlap); groundedness = relevant cited sources "
        "/ 3 (halved if refuted); falsifiability = threshold, time frame (0.5 each); "
        "significance = target covered, constraint kept, cue strength.",
        "accept, qualify or reject each claim.",
    )


def plan_validate(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    frame = frame_problem(view.problem)
    tasks = [t for claim in claims_in(view) for t in claim_tasks(view, claim, frame, knowledge)]
    return plan_or_summary(schedule(view, tasks), lambda: _summary(view))
