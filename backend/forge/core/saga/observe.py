"""What each checkpoint observes without a model call (Layers 1, 3 and 4, CP-1..3, C-K signals):
pure functions from the session's state and the batch under audit to findings. Each builds the
checkpoint's `Observation` and runs `detector_table.detect_at`: which detectors run where is the
table's, never wired here.

Invariants:
    - `due_checkpoints` lists, in order, the checkpoints whose input exists in the current phase
      and round and that are not yet recorded; a session resumed after a crash re-observes only
      those.
    - CP-4 audits the round's BISO batch, CP-5 the round's SEARCH children (shallow rewrites
      against their parents in the pool), CP-6 VERIFY's scores of every item it judged so far (the
      pool's ranking candidates and the claims, `scored_verifications`: enough items for compression
      and collinearity to mean something) and the claims' text, CP-7 the accepted claims and the
      session's patterns before the answer.
    - Layer 3 sightings are recorded per round ("place" = `round <n>`, or the session id for the
      cross-session history the shell may add); the batch's scores are the supervisor's weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.domain_types import ClaimStatus, Phase
from forge.core.explore.library_records import SourceDomain
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.judged_scores import model_scores
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.checkpoints import (
    CHECKPOINT_PHASE,
    VERIFY_WEIGHTS,
    VerifiedItem,
    scored_hypotheses,
    scored_verifications,
)
from forge.core.saga.detector_table import Observation, detect_at
from forge.core.saga.detectors import Batch
from forge.core.saga.domain_profile import ConstraintFlag, ProfiledText, build_profile
from forge.core.saga.patterns import PatternSighting, pattern_text, semantic_hash
from forge.core.saga.records import Checkpoint, FastEvent, Finding, FindingKind, Severity
from forge.core.saga.state import SupervisionState
from forge.core.search.operator_specs import SearchOperator
from forge.core.search.transform_gate import TransformStatus
from forge.core.session.forge_state import ForgeState

# SEARCH operators whose child exists only when the HKG traversal found a path (structure found).
STRUCTURAL_OPERATORS = frozenset({SearchOperator.HYPERPATH_EXPAND.value, SearchOperator.HYPERBRIDGE.value})
HKG_NOT_FOUND = FastEvent.HKG_PATH_NOT_FOUND.value

PHASE_CHECKPOINTS: dict[Phase, tuple[Checkpoint, ...]] = {
    phase: tuple(cp for cp, recorded_in in CHECKPOINT_PHASE.items() if recorded_in is phase)
    for phase in dict.fromkeys(CHECKPOINT_PHASE.values())
}


@dataclass(frozen=True, slots=True)
class Observed:
    findings: tuple[Finding, ...]
    fast_events: tuple[FastEvent, ...]
    batch_size: int = 0
    sightings: tuple[PatternSighting, ...] = ()
    sighted: tuple[str, ...] = ()  # the hypothesis of each sighting (same order)


def supervision_of(state: ForgeState) -> SupervisionState:
    return state.supervision or SupervisionState()


def due_checkpoints(state: ForgeState) -> list[Checkpoint]:
    sup, r = supervision_of(state), state.current_round
    ready = {
        Checkpoint.CP1: state.problem_frame is not None,
        Checkpoint.CP2: state.domain_selection is not None,
        Checkpoint.CP3: state.domain_selection is not None,
        Checkpoint.CP4: state.biso is not None and state.biso.round == r,
        Checkpoint.CP5: state.search is not None and state.search.round == r,
        Checkpoint.CP6: bool(state.verifications or state.hypothesis_verifications)
        or any(c.scores is not None for c in state.all_claims),
        Checkpoint.CP7: True,
    }
    return [
        cp
        for cp in PHASE_CHECKPOINTS.get(state.current_phase, ())
        if ready[cp] and not sup.has_checkpoint(cp.value, r, search_round_of(state, cp))
    ]


def search_round_of(state: ForgeState, cp: Checkpoint) -> int:
    """The SEARCH round a CP-5 pass follows (each SEARCH round of a session round gets its own);
    1 for every other checkpoint."""
    if cp is Checkpoint.CP5 and state.search is not None and state.search.round == state.current_round:
        return max(1, state.search.depth)
    return 1


def frame_of(state: ForgeState) -> ProblemFrame:
    if state.problem_frame is not None:
        return state.problem_frame.frame
    return ProblemFrame(
        objective=(state.problem.splitlines() or [""])[0] or "the problem", target_object="", target_outcome=""
    )


def hard_constraints_of(state: ForgeState) -> tuple[str, ...]:
    return tuple(frame_of(state).hard_constraints)


def pool_texts(batch: Sequence[Hypothesis]) -> list[ProfiledText]:
    """What Layer 4 holds against the hard constraints at CP-4/5: each hypothesis's statement and mechanism."""
    return [ProfiledText(h.id, f"{h.statement} {h.mechanism}") for h in batch]


def claim_texts(state: ForgeState, checkpoint: Checkpoint) -> list[ProfiledText]:
    """What Layer 4 holds against the hard constraints at CP-6 (scored claims) and CP-7 (accepted ones)."""
    if checkpoint is Checkpoint.CP6:
        return [ProfiledText(str(c.id), c.text) for c in state.all_claims if c.scores is not None]
    accepted = (ClaimStatus.VALIDATED, ClaimStatus.QUALIFIED)
    return [ProfiledText(str(c.id), c.text) for c in state.all_claims if c.status in accepted]


def _reported(findings: Sequence[Finding], kind: FindingKind, event: FastEvent) -> tuple[FastEvent, ...]:
    return (event,) if any(f.kind is kind for f in findings) else ()


def observe_frame(state: ForgeState) -> Observed:
    """CP-1: the frame's constraint audit."""
    findings = detect_at(Checkpoint.CP1, Observation(audited_frame=state.problem_frame))
    conflicts = any("conflict" in f.dimensions for f in findings)
    return Observed(tuple(findings), (FastEvent.CONSTRAINT_VIOLATION_FOUND,) if conflicts else ())


def observe_target(state: ForgeState) -> Observed:
    """CP-2: the target domain, and source domains chosen too close to it."""
    observation = Observation(frame=frame_of(state), selection=state.domain_selection)
    return Observed(tuple(detect_at(Checkpoint.CP2, observation)), ())


def observe_sources(state: ForgeState, domains: Sequence[SourceDomain]) -> Observed:
    """CP-3: the source domains' fields and distances."""
    fields = {d.id: d.field.value for d in domains}
    observation = Observation(selection=state.domain_selection, domain_fields=fields)
    return Observed(tuple(detect_at(Checkpoint.CP3, observation)), ())


def observe_pool_batch(
    state: ForgeState,
    checkpoint: Checkpoint,
    batch: Sequence[Hypothesis],
    parents: Sequence[Hypothesis],
    domains: Sequence[SourceDomain],
    history: Sequence[PatternSighting] = (),
    flags: Sequence[ConstraintFlag] | None = None,
) -> Observed:
    """CP-4 (a BISO batch, no parents) and CP-5 (SEARCH children with their parents); `flags`: a
    model's constraint check of the batch (None: the offline word rule judges). The batch's scores are
    the verifier's where it scored (`judged_scores`), else the word rules."""
    sup, frame, judged = supervision_of(state), frame_of(state), model_scores(state.hypothesis_scores)
    scored = scored_hypotheses(batch, frame, judged)
    sightings = tuple(
        _sighting(h, s.composite(sup.weights), f"round {state.current_round}")
        for h, s in zip(batch, scored, strict=True)
    )
    observation = Observation(
        batch=Batch(tuple(scored), sup.weights),
        parents={s.id: s for s in scored_hypotheses(parents, frame, judged)},
        hypotheses=batch,
        texts={h.id: f"{h.statement} {h.mechanism} {h.observable}" for h in batch},
        profile=build_profile(frame, state.state_of_art.summary if state.state_of_art else "", domains),
        profiled=pool_texts(batch),
        constraint_flags=flags,
        sighted=[(h.id, s) for h, s in zip(batch, sightings, strict=True)],
        known=(*history, *sup.patterns, *sightings),
    )
    findings = detect_at(checkpoint, observation)
    events = (
        FastEvent.SEARCH_ROUND_COMPLETED if parents else FastEvent.BISO_COMPLETED,
        *(search_events(state, batch) if checkpoint is Checkpoint.CP5 else ()),
        *_reported(findings, FindingKind.MAPPING_PADDING, FastEvent.MAPPING_PADDING_SUSPECTED),
        *_reported(findings, FindingKind.INJECTION_SUSPECTED, FastEvent.VERIFY_INJECTION_DETECTED),
        *_reported(findings, FindingKind.HARD_CONSTRAINT_VIOLATION, FastEvent.CONSTRAINT_VIOLATION_FOUND),
    )
    return Observed(tuple(findings), events, len(batch), sightings, tuple(h.id for h in batch))


def verified_items(state: ForgeState, pool: Sequence[Hypothesis]) -> list[VerifiedItem]:
    """Every item VERIFY judged: the pool hypotheses (ranking candidates), then the claims."""
    by_id: dict[str, Hypothesis] = {h.id: h for h in pool}
    items = []
    for hid, v in state.hypothesis_verifications.items():
        h = by_id.get(hid)
        domain, text = (h.domain_name, f"{h.statement} {h.mechanism}") if h is not None else ("", hid)
        items.append(VerifiedItem(hid, domain, text, v))
    for c in state.all_claims:
        if (cv := state.verifications.get(c.id)) is not None:
            items.append(VerifiedItem(str(c.id), c.cross_domain_source or "own field", c.text, cv))
    return items


def search_events(state: ForgeState, children: Sequence[Hypothesis]) -> tuple[FastEvent, ...]:
    """What the SEARCH round reported beyond its completion: an HKG path found (a hyperpath_expand
    or hyperbridge child exists only on a found path) or not found, a blend made, transform
    proposals and the gate's decisions (the summary covers the session round's SEARCH so far)."""
    operators = {h.operator for h in children}
    search = state.search
    transforms = search.transforms if search is not None else ()
    not_found = search is not None and (search.ungrounded > 0 or search.hkg_paths.get(HKG_NOT_FOUND, 0) > 0)
    happened = {
        FastEvent.HKG_PATH_FOUND: bool(operators & STRUCTURAL_OPERATORS),
        FastEvent.HKG_PATH_NOT_FOUND: not_found,
        FastEvent.BLEND_EXPAND_COMPLETED: SearchOperator.BLEND_EXPAND.value in operators,
        FastEvent.TRANSFORM_PROPOSED: bool(transforms),
        FastEvent.TRANSFORM_ACCEPTED_OR_REJECTED: any(t.status is not TransformStatus.PROPOSED for t in transforms),
    }
    return tuple(event for event, seen in happened.items() if seen)


def observe_verified(
    state: ForgeState,
    domains: Sequence[SourceDomain],
    pool: Sequence[Hypothesis],
    flags: Sequence[ConstraintFlag] | None = None,
) -> Observed:
    """CP-6: Layer 1 on VERIFY's scores of every item it judged; Layer 4 (`flags`: a model's constraint
    check of the claims, None: the offline word rule) and the injection scan on the scored claims' text."""
    items = verified_items(state, pool)
    claims = [c for c in state.all_claims if c.scores is not None]
    observation = Observation(
        batch=Batch(tuple(scored_verifications(items)), VERIFY_WEIGHTS),
        texts={str(c.id): " ".join((c.text, *(e.summary for e in c.evidence))) for c in claims},
        profile=build_profile(frame_of(state), state.state_of_art.summary if state.state_of_art else "", domains),
        profiled=claim_texts(state, Checkpoint.CP6),
        constraint_flags=flags,
    )
    findings = detect_at(Checkpoint.CP6, observation)
    inconsistent = any(i.verification.position_consistent is False for i in items)
    events = (
        FastEvent.VERIFY_BATCH_SCORED,
        *((FastEvent.VERIFY_POSITION_INCONSISTENT,) if inconsistent else ()),
        *_reported(findings, FindingKind.INJECTION_SUSPECTED, FastEvent.VERIFY_INJECTION_DETECTED),
    )
    return Observed(tuple(findings), events, len(observation.batch.hypotheses))


def observe_answer(
    state: ForgeState, history: Sequence[PatternSighting] = (), flags: Sequence[ConstraintFlag] | None = None
) -> Observed:
    """CP-7: accepted claims against the hard constraints, favourite patterns, open critical findings."""
    sup = supervision_of(state)
    observation = Observation(
        profile=build_profile(frame_of(state), "", ()),
        profiled=claim_texts(state, Checkpoint.CP7),
        constraint_flags=flags,
        sighted=[(s.label, s) for s in sup.patterns],
        known=(*history, *sup.patterns),
        open_critical=[f for f in sup.active_findings() if f.finding.severity is Severity.CRITICAL],
    )
    patched = bool(sup.adopted) or (state.answer_pack is not None and bool(state.answer_pack.solve.constraints_added))
    return Observed(
        tuple(detect_at(Checkpoint.CP7, observation)), (FastEvent.CONSTRAINT_PATCH_APPLIED,) if patched else ()
    )


def _sighting(h: Hypothesis, score: float, place: str) -> PatternSighting:
    concepts = [row.source_concept for row in h.mapping.rows]
    return PatternSighting(semantic_hash(pattern_text(h.structure, concepts)), h.structure, place, round(score, 3))


def open_finding_lines(state: ForgeState) -> tuple[str, ...]:
    """The supervisor's findings the person did not dismiss, one line each, for the AnswerPack's
    methodology appendix (checkpoint, round, layer, what was seen)."""
    return tuple(
        f"{f.checkpoint.value} round {f.round}, layer {f.finding.layer}: {f.finding.message}"
        for f in supervision_of(state).findings
        if not f.dismissed
    )
