"""The VERIFY stage that opens VALIDATE: the verifier role scores every claim of the round that has
no verdict yet (`engine.run_verify`), and the verdicts join the state in one committed step.

Invariants:
    - Pending exactly while the phase is VALIDATE and a claim of the round lacks a verification; a
      run resumed after a crash verifies only the claims still missing one.
    - Every claim handed to the verifier gets a verification (ABSTAINED when its samples failed), so
      the stage never runs twice for the same claim and never blocks the phase.
    - The verifier's calls are priced as the verifier model (another family than the generator when
      configured); they are batched by `run_verify` (k + 1 scoring calls and at most one prior-art
      call per `VERIFY_BATCH` items, plus a repair per item an answer left out), and `calls` counts
      them all. Prior-art research joins `research_log` (provenance), not this phase's searches:
      it does not unlock the agent's own falsification gate (rule 15).
    - Prior art is searched with `prior_art` when given (FORGE_RESEARCH=anthropic: the model's
      server-side web search, the local corpus standing in when it fails), else with the session's
      research provider (a web search API, or the local corpus when no web is configured). The
      server searches' tokens and per-search fees are priced as their model (`PricedSearches`).
    - Events: one `verify_injection_detected` per flagged claim, one `research_warning` per research
      warning, the usage of the calls, then `engine_stage` `verify` with the statuses counted.
    - `verify_hypotheses` is the same VERIFY on pool hypotheses (the AnswerPack's ranking candidates,
      seed 000 §7 stage 6): only those without a verdict are sent; their verdicts join
      `ForgeState.hypothesis_verifications` by hypothesis id. With a pool reader the stage verifies
      them at VALIDATE in the same pass as the claims (one set of items, read by item id), so CP-6
      (when BUILD opens) audits VERIFY's scores over the candidates and the claims — enough items for
      compression and collinearity — and the Solve stage finds them judged (it verifies only what a
      later round added). The stage event counts the claims' statuses, all `calls` and `searches`,
      and the candidates' `hypotheses`, `hypothesis_calls` (the calls that asked about one, shared
      ones included) and `hypothesis_searches`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from forge.agent.call_model import account_usage
from forge.agent.tool_context import ToolContext
from forge.core.answer.build import session_ranking_candidates
from forge.core.domain_types import Phase, SessionId
from forge.core.hypotheses.pool import Hypothesis
from forge.core.llm.messages import Usage
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.prior_art_search import SearchScope, scope_of
from forge.core.verify.verdicts import K_SAMPLES, VerifyStatus
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink
from forge.engine.verify.requests import claim_material, hypothesis_material
from forge.engine.verify.score_claims import STAGE, VerifyRun, VerifySetting, run_verify, split_run
from forge.ports import LanguageModel, ResearchProvider, StructuredModel


class PricedSearches(Protocol):
    """Searches run by a model (server-side web search): their usage, priced as that model."""

    @property
    def model(self) -> LanguageModel: ...

    def take_usage(self, session_id: SessionId | None) -> Usage: ...


@dataclass(frozen=True, slots=True)
class PriorArtResearch:
    """Where VERIFY searches prior art instead of the session's research provider, and the searches
    to price (a model's server-side web search), if any."""

    research: ResearchProvider
    priced: PricedSearches | None = None


PoolReader = Callable[[SessionId], Awaitable[Sequence[Hypothesis]]]


class VerifyStage:
    def __init__(
        self,
        structured: StructuredModel,
        priced_as: LanguageModel,
        *,
        k: int = K_SAMPLES,
        concurrency: int = DEFAULT_CONCURRENCY,
        read_pool: PoolReader | None = None,
        prior_art: PriorArtResearch | None = None,
    ) -> None:
        self._read_pool = read_pool  # None: the ranking candidates wait for the Solve stage
        self._structured = structured
        self._priced_as = priced_as
        self._k = k
        self._concurrency = concurrency
        self._prior_art = prior_art.research if prior_art else None
        self._priced_searches = prior_art.priced if prior_art else None

    def _search_usage(self, ctx: ToolContext) -> tuple[SessionEvent, ...]:
        searches = self._priced_searches
        if searches is None:
            return ()
        usage = searches.take_usage(ctx.session_id)
        return (account_usage(ctx, searches.model, usage),) if usage.total or usage.web_searches else ()

    def _searcher(self, ctx: ToolContext) -> str:
        return (self._prior_art or ctx.research).name

    @property
    def verifier_label(self) -> str:
        return self._priced_as.label

    def pending(self, state: ForgeState) -> bool:
        return state.current_phase is Phase.VALIDATE and any(
            c.id not in state.verifications for c in state.current_round_claims
        )

    def _setting(self, ctx: ToolContext) -> VerifySetting:
        state = ctx.state
        return VerifySetting(
            ctx.session_id,
            state.problem,
            state.current_round,
            self._prior_art or ctx.research,
            ctx.clock,
            ctx.new_id,
            tuple(state.session_documents),
            tuple(state.user_insights),
            self._k,
            self._concurrency,
        )

    async def verify_hypotheses(
        self, ctx: ToolContext, hypotheses: Sequence[Hypothesis], progress: ProgressSink
    ) -> tuple[SessionEvent, ...]:
        """VERIFY on the pool hypotheses the AnswerPack would rank that have no verdict yet."""
        state = ctx.state
        todo = [h for h in hypotheses if h.id not in state.hypothesis_verifications]
        if not todo:
            return ()
        materials = [hypothesis_material(i, h) for i, h in enumerate(todo)]
        run = await run_verify(self._structured, materials, self._setting(ctx), progress)
        state.hypothesis_verifications.update({h.id: v for h, v in zip(todo, run.verifications, strict=True)})
        state.research_log.extend(run.research)
        warnings = [ev.research_warning(self._searcher(ctx), w) for w in dict.fromkeys(run.warnings)]
        usage: tuple[SessionEvent, ...] = (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()
        usage += self._search_usage(ctx)
        summary = _candidates_summary(todo, run, f"by {self._priced_as.label}, {run.calls} calls")
        counts = {"hypotheses": len(todo)} | {k: n for k, n in verify_counts(run).items() if k != "claims"}
        return (*warnings, *usage, ev.engine_stage(STAGE, summary, counts))

    async def run(self, ctx: ToolContext, progress: ProgressSink) -> tuple[SessionEvent, ...]:
        """The round's claims and the ranking candidates without a verdict, in one VERIFY pass."""
        state = ctx.state
        todo = [(i, c) for i, c in enumerate(state.current_round_claims) if c.id not in state.verifications]
        candidates = await self._unjudged_candidates(ctx)
        materials = [claim_material(i, c) for i, c in todo] + [
            hypothesis_material(i, h) for i, h in enumerate(candidates)
        ]
        run = await run_verify(self._structured, materials, self._setting(ctx), progress)
        claims, judged = split_run(run, len(todo))
        state.verifications.update({v.claim_id: v for v in claims.verifications})
        state.hypothesis_verifications.update({h.id: v for h, v in zip(candidates, judged.verifications, strict=True)})
        state.research_log.extend(run.research)
        index = {c.id: i for i, c in todo}
        injections = [
            ev.verify_injection_detected(str(v.claim_id), index[v.claim_id], v.injection)
            for v in claims.verifications
            if v.injection
        ]
        warnings = [ev.research_warning(self._searcher(ctx), w) for w in dict.fromkeys(run.warnings)]
        usage: tuple[SessionEvent, ...] = (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()
        usage += self._search_usage(ctx)
        summary = verify_summary(replace(claims, calls=run.calls), self._priced_as.label)
        counts = verify_counts(claims) | {"calls": run.calls}
        if candidates:
            summary += " " + _candidates_summary(
                candidates, judged, "in the same calls" if todo else f"{judged.calls} calls"
            )
            more = verify_counts(judged)
            counts |= {
                "hypotheses": len(candidates),
                "hypothesis_calls": more["calls"],  # the calls that asked about a candidate, shared ones too
                "hypothesis_searches": more["searches"],
            }
            counts |= {k: counts[k] + more[k] for k in ("searches", "web_searches")}
        return (*injections, *warnings, *usage, ev.engine_stage(STAGE, summary, counts))

    async def _unjudged_candidates(self, ctx: ToolContext) -> list[Hypothesis]:
        """Stage 6 at VALIDATE: the pool's ranking candidates without a verdict, so CP-6 audits them
        with the claims (none without a pool reader: they wait for the Solve stage)."""
        if self._read_pool is None:
            return []
        candidates = session_ranking_candidates(ctx.state, await self._read_pool(ctx.session_id))
        return [h for h in candidates if h.id not in ctx.state.hypothesis_verifications]


def _candidates_summary(candidates: Sequence[Hypothesis], run: VerifyRun, where: str) -> str:
    return (
        f"VERIFY of the AnswerPack's ranking candidates ({where}, {len(run.research)} prior-art searches): "
        + "; ".join(f"{h.id}: {_verdict_text(v)}" for h, v in zip(candidates, run.verifications, strict=True))
        + ". Only the ones that passed rank."
    )


def verify_counts(run: VerifyRun) -> dict[str, int]:
    statuses = Counter(v.status for v in run.verifications)
    return {
        "claims": len(run.verifications),
        "calls": run.calls,
        **{status.value: statuses.get(status, 0) for status in VerifyStatus},
        "injections": sum(1 for v in run.verifications if v.injection),
        "searches": len(run.research),
        # the ones the web answered (the rest fell back to the local corpus, each with a warning)
        "web_searches": sum(1 for r in run.research if scope_of(r.provider) is SearchScope.WEB),
        "position_inconsistent": sum(1 for v in run.verifications if v.position_consistent is False),
    }


def verify_summary(run: VerifyRun, verifier: str) -> str:
    if not run.verifications:
        return "VERIFY: no claim to verify."
    parts = [f"claim {n + 1}: {_verdict_text(v)}" for n, v in enumerate(run.verifications)]
    return (
        f"VERIFY by {verifier} ({run.calls} calls, {len(run.research)} prior-art searches{_searched_where(run)}): "
        + "; ".join(parts)
        + (f". {len(run.warnings)} research warning(s)" if run.warnings else "")
        + "."
    )


def _searched_where(run: VerifyRun) -> str:
    """Where the prior art was searched: the web (which provider) and/or the local corpus."""
    searches = [s for v in run.verifications for s in v.prior_art_searches]
    web = sorted({s.provider for s in searches if s.scope is SearchScope.WEB})
    places = ([f"on the web ({', '.join(web)})"] if web else []) + (
        ["in the local corpus"] if any(s.scope is SearchScope.LOCAL_CORPUS for s in searches) else []
    )
    return f" {' and '.join(places)}" if places else ""


def _verdict_text(v: ClaimVerification) -> str:
    flags = [" injection flagged" if v.injection else "", " position bias" if v.position_consistent is False else ""]
    flags.append(" novelty unverified" if v.novelty is not None and v.novelty.unverified else "")
    return f"{v.status.value} (final {v.final_score:.1f}, confidence {v.confidence:.2f}{''.join(flags)})"
