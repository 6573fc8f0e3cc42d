"""What each checkpoint observes without a model call (Layers 1, 3 and 4, CP-1..3, C-K signals):
pure functions from the session's state and the batch under audit to findings.

Invariants:
    - `due_checkpoints` lists, in order, the checkpoints whose input exists in the current phase
      and round and that are not yet recorded; a session resumed after a crash re-observes only
      those.
    - CP-4 audits the round's BISO batch, CP-5 the round's SEARCH children (shallow rewrites
      against their parents in the pool), CP-6 every scored claim so far (scores are final when
      BUILD opens), CP-7 the accepted claims and the session's patterns before the answer.
    - Layer 3 sightings are recorded per round ("place" = `round <n>`, or the session id for the
      cross-session history the shell may add); the batch's scores are the supervisor's weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.domain_types import ClaimStatus, Phase
from forge.core.explore.library_records import SourceDomain
from forge.core.explore.mapping_quality_gate import GateRule
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.checkpoints import (
    audit_constraints_cp1,
    audit_source_domains_cp3,
    audit_target_domain_cp2,
    scored_claims,
    scored_hypotheses,
)
from forge.core.saga.detectors import (
    Batch,
    detect_collinearity,
    detect_layer_one,
    detect_score_compression,
    detect_source_domain_bias,
)
from forge.core.saga.domain_profile import ProfiledText, build_profile, check_layer_four
from forge.core.saga.patterns import PatternSighting, detect_favourite_patterns, pattern_text, semantic_hash
from forge.core.saga.records import Checkpoint, FastEvent, Finding, FindingKind, Severity
from forge.core.saga.state import SupervisionState
from forge.core.session.forge_state import ForgeState
from forge.core.verify.injection_scan import scan_for_injection

PHASE_CHECKPOINTS: dict[Phase, tuple[Checkpoint, ...]] = {
    Phase.DECOMPOSE: (Checkpoint.CP1,),
    Phase.EXPLORE: (Checkpoint.CP2, Checkpoint.CP3, Checkpoint.CP4),
    Phase.SYNTHESIZE: (Checkpoint.CP5,),
    Phase.BUILD: (Checkpoint.CP6,),
    Phase.CRYSTALLIZE: (Checkpoint.CP7,),
}
PADDING_RULES = frozenset({GateRule.DUPLICATE_RATIO, GateRule.ROW_USAGE})


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
        Checkpoint.CP6: any(c.scores is not None for c in state.all_claims),
        Checkpoint.CP7: True,
    }
    return [
        cp for cp in PHASE_CHECKPOINTS.get(state.current_phase, ()) if ready[cp] and not sup.has_checkpoint(cp.value, r)
    ]


def frame_of(state: ForgeState) -> ProblemFrame:
    if state.problem_frame is not None:
        return state.problem_frame.frame
    return ProblemFrame(
        objective=(state.problem.splitlines() or [""])[0] or "the problem", target_object="", target_outcome=""
    )


def observe_frame(state: ForgeState) -> Observed:
    """CP-1, CP-2 and CP-3 (whichever is asked) share this: the frame and the selection."""
    findings: list[Finding] = []
    if state.problem_frame is not None:
        findings += audit_constraints_cp1(state.problem_frame)
    conflicts = any("conflict" in f.dimensions for f in findings)
    return Observed(tuple(findings), (FastEvent.CONSTRAINT_VIOLATION_FOUND,) if conflicts else ())


def observe_target(state: ForgeState) -> Observed:
    return Observed(tuple(audit_target_domain_cp2(frame_of(state), state.domain_selection)), ())


def observe_sources(state: ForgeState, domains: Sequence[SourceDomain]) -> Observed:
    fields = {d.id: d.field.value for d in domains}
    return Observed(tuple(audit_source_domains_cp3(state.domain_selection, fields)), ())


def observe_pool_batch(
    state: ForgeState,
    batch: Sequence[Hypothesis],
    parents: Sequence[Hypothesis],
    domains: Sequence[SourceDomain],
    history: Sequence[PatternSighting] = (),
) -> Observed:
    """CP-4 (a BISO batch, no parents) and CP-5 (SEARCH children with their parents)."""
    sup, frame = supervision_of(state), frame_of(state)
    scored = scored_hypotheses(batch, frame)
    by_id = {s.id: s for s in scored_hypotheses(parents, frame)}
    findings = detect_layer_one(Batch(tuple(scored), sup.weights), by_id or None)
    padded = [h.id for h in batch if set(h.gate.failed_rules) & PADDING_RULES]
    if padded:
        findings.append(_padding(padded))
    injected = injection_finding({h.id: f"{h.statement} {h.mechanism} {h.observable}" for h in batch})
    findings += [injected] if injected else []
    profile = build_profile(frame, state.state_of_art.summary if state.state_of_art else "", domains)
    findings += check_layer_four(profile, [ProfiledText(h.id, f"{h.statement} {h.mechanism}") for h in batch])
    sightings = tuple(
        _sighting(h, s.composite(sup.weights), f"round {state.current_round}")
        for h, s in zip(batch, scored, strict=True)
    )
    favourite = detect_favourite_patterns(
        [(h.id, s) for h, s in zip(batch, sightings, strict=True)], (*history, *sup.patterns, *sightings)
    )
    if favourite is not None:
        findings.append(favourite)
    events = [FastEvent.SEARCH_ROUND_COMPLETED if parents else FastEvent.BISO_COMPLETED]
    if padded:
        events.append(FastEvent.MAPPING_PADDING_SUSPECTED)
    if injected:
        events.append(FastEvent.VERIFY_INJECTION_DETECTED)
    if any(f.kind is FindingKind.HARD_CONSTRAINT_VIOLATION for f in findings):
        events.append(FastEvent.CONSTRAINT_VIOLATION_FOUND)
    return Observed(tuple(findings), tuple(events), len(batch), sightings, tuple(h.id for h in batch))


def observe_claims(state: ForgeState, domains: Sequence[SourceDomain]) -> Observed:
    """CP-6: the scored claims of the session (Layer 1 on their four scores, Layer 4 on their text)."""
    claims = [c for c in state.all_claims if c.scores is not None]
    batch = Batch(tuple(scored_claims(claims)), {})
    found = [detect_score_compression(batch), detect_collinearity(batch), detect_source_domain_bias(batch)]
    findings = [f for f in found if f is not None]
    texts = {str(c.id): " ".join((c.text, *(e.summary for e in c.evidence))) for c in claims}
    injected = injection_finding(texts)
    findings += [injected] if injected else []
    profile = build_profile(frame_of(state), state.state_of_art.summary if state.state_of_art else "", domains)
    findings += check_layer_four(profile, [ProfiledText(str(c.id), c.text) for c in claims])
    events = (FastEvent.VERIFY_BATCH_SCORED, *((FastEvent.VERIFY_INJECTION_DETECTED,) if injected else ()))
    return Observed(tuple(findings), events, len(claims))


def observe_answer(state: ForgeState, history: Sequence[PatternSighting] = ()) -> Observed:
    """CP-7: accepted claims against the hard constraints, favourite patterns, open critical findings."""
    sup = supervision_of(state)
    accepted = [c for c in state.all_claims if c.status in (ClaimStatus.VALIDATED, ClaimStatus.QUALIFIED)]
    profile = build_profile(frame_of(state), "", ())
    findings = check_layer_four(profile, [ProfiledText(str(c.id), c.text) for c in accepted])
    findings = [f for f in findings if f.kind is FindingKind.HARD_CONSTRAINT_VIOLATION]
    sightings = (*history, *sup.patterns)
    favourite = detect_favourite_patterns([(s.label, s) for s in sup.patterns], sightings)
    if favourite is not None:
        findings.append(favourite)
    open_critical = [f for f in sup.active_findings() if f.finding.severity is Severity.CRITICAL]
    if open_critical:
        findings.append(
            Finding(
                FindingKind.RISK_CONVERGENCE,
                float(len(open_critical)),
                0.0,
                tuple(dict.fromkeys(i for f in open_critical for i in f.finding.hypothesis_ids)),
                f"{len(open_critical)} critical finding(s) are still open ({', '.join(f.id for f in open_critical)}): "
                "the answer must say so, or you dismiss them at the review.",
                severity=Severity.CRITICAL,
            )
        )
    return Observed(tuple(findings), ())


def _sighting(h: Hypothesis, score: float, place: str) -> PatternSighting:
    concepts = [row.source_concept for row in h.mapping.rows]
    return PatternSighting(semantic_hash(pattern_text(h.structure, concepts)), h.structure, place, round(score, 3))


def injection_finding(texts: dict[str, str]) -> Finding | None:
    """Prompt-injection patterns (`injection_scan`) in hypothesis or claim texts, by id."""
    hits = scan_for_injection(texts)
    if not hits:
        return None
    named = "; ".join(f"{h.source}: “{h.excerpt}” ({h.pattern})" for h in hits)
    return Finding(
        FindingKind.INJECTION_SUSPECTED,
        float(len(hits)),
        0.0,
        tuple(dict.fromkeys(h.source for h in hits)),
        f"Text that tries to instruct the model: {named}. Scores of these cannot be trusted.",
        severity=Severity.CRITICAL,
    )


def _padding(ids: Sequence[str]) -> Finding:
    return Finding(
        FindingKind.MAPPING_PADDING,
        float(len(ids)),
        0.0,
        tuple(ids),
        f"Mapping tables that may be padded (duplicate or unused rows): {', '.join(ids)}.",
        severity=Severity.INFO,
    )


def open_finding_lines(state: ForgeState) -> tuple[str, ...]:
    """The supervisor's findings the person did not dismiss, one line each, for the AnswerPack's
    methodology appendix (checkpoint, round, layer, what was seen)."""
    return tuple(
        f"{f.checkpoint.value} round {f.round}, layer {f.finding.layer}: {f.finding.message}"
        for f in supervision_of(state).findings
        if not f.dismissed
    )
