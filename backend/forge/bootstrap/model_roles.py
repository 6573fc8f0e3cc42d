"""Which model answers which role (generator, verifier, red team) and the creative engine's stages
over them: the given models in tests, else models built from the routes (FORGE_MODEL, FORGE_VERIFIER_MODEL).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_model, build_structured_model
from forge.bootstrap.model_routing import Provider, RoleRoutes
from forge.config import Settings
from forge.core.explore.library_records import ShippedKnowledge
from forge.core.search.plan import RuntimeProfile
from forge.knowledge.load_concept_spaces import load_concept_spaces
from forge.ports import (
    Clock,
    LanguageModel,
    StructuredModel,
    UnitOfWorkFactory,
)
from forge.services.hypothesis_queries import pool_reader
from forge.services.pattern_memory import PatternMemory
from forge.services.stages.engine_stages import EngineConfig, EngineStages
from forge.services.stages.score_stage import ScoreStage
from forge.services.stages.search_grounding import LazyHkgGrounding
from forge.services.stages.supervision import Supervisor
from forge.services.stages.verify_claims import PriorArtResearch, VerifyStage

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ModelRoles:
    model: LanguageModel
    verifier: LanguageModel
    structured: StructuredModel | None
    verifier_structured: StructuredModel | None
    red_team: StructuredModel | None
    # Judgments of meaning (issue 37) go to a real model only; offline (None) the word rule / ranker judge.
    constraint_judge: StructuredModel | None = None  # SAGA Layer 4: the red-team model
    domain_judge: StructuredModel | None = None  # Stage B's source-domain feasibility: the generator
    verifier_offline: bool = True  # the verifier route is the offline model: word rules score hypotheses
    relevance_judge: StructuredModel | None = None  # the claim gates' judge of research results: the verifier's


def model_roles(
    settings: Settings,
    routes: RoleRoutes,
    knowledge: ShippedKnowledge,
    model: LanguageModel | None,
    verifier: LanguageModel | None,
    structured: StructuredModel | None,
    verifier_structured: StructuredModel | None,
) -> ModelRoles:
    """The generator, the verifier and their structured models: the given ones (tests), else built
    from the routes. A given `model` without `structured` means no engine stages."""
    built_here = model is None
    given_judge = verifier_structured is not None
    if model is None:
        model = build_model(routes.generator, settings)
        structured = structured or build_structured_model(routes.generator, model, knowledge.domains, settings)
    derive_verifier = verifier is None and structured is not None and verifier_structured is None
    verifier = verifier or (model if routes.verifier == routes.generator else build_model(routes.verifier, settings))
    if derive_verifier and structured is not None:
        same = routes.verifier == routes.generator
        verifier_structured = (
            structured if same else build_structured_model(routes.verifier, verifier, knowledge.domains, settings)
        )
    # SAGA's red team speaks with the verifier's model family (000 §5.3 Layer 2); with a model given
    # (tests), the given structured model answers it too, so a scripted verifier is never consumed.
    red_team = structured
    if built_here and structured is not None and verifier is not model:
        red_team = build_structured_model(routes.verifier, verifier, knowledge.domains, settings)
    constraint_judge = red_team if routes.verifier.provider is not Provider.OFFLINE else None
    domain_judge = structured if routes.generator.provider is not Provider.OFFLINE else None
    # word rules score hypotheses only for the offline verifier (a verifier's structured model given
    # explicitly, as tests do, is a judge whatever the routes say)
    offline = routes.verifier.provider is Provider.OFFLINE and not given_judge
    # the claim gates' judge of which research results bear on a claim (#38): the verifier's structured
    # model when the verifier route is a real model; offline, shared words judge
    relevance_judge = verifier_structured if routes.verifier.provider is not Provider.OFFLINE else None
    judges = (red_team, constraint_judge, domain_judge, offline, relevance_judge)
    return ModelRoles(model, verifier, structured, verifier_structured, *judges)


def engine_stages(
    settings: Settings,
    roles: ModelRoles,
    knowledge: ShippedKnowledge,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    hkg: LazyHkgGrounding,
    concurrency: int | None = None,
    prior_art: PriorArtResearch | None = None,
) -> EngineStages | None:
    """The creative engine's stages, or None without a structured model; `concurrency` (default
    FORGE_ENGINE_CONCURRENCY) is the engine calls in flight (`model_routing.engine_concurrency`);
    `prior_art`: where VERIFY searches prior art when not the session's research provider."""
    if roles.structured is None:
        return None
    concurrency = concurrency or settings.engine_concurrency
    verifier_structured = roles.verifier_structured
    return EngineStages(
        roles.structured,
        roles.model,
        knowledge.domains,
        EngineConfig(
            concurrency,
            settings.hypotheses_per_domain,
            RuntimeProfile(settings.search_profile),
            settings.search_depth,
        ),
        pool_reader(uow_factory),
        supervisor=Supervisor(
            roles.red_team,
            roles.verifier,
            knowledge.domains,
            pool_reader(uow_factory),
            patterns=PatternMemory(uow_factory, clock),
            constraint_judge=roles.constraint_judge,
            generator_label=None if roles.verifier is roles.model else roles.model.label,
        ),
        verify=VerifyStage(
            verifier_structured,
            roles.verifier,
            concurrency=concurrency,
            read_pool=pool_reader(uow_factory),
            prior_art=prior_art,
        )
        if verifier_structured is not None
        else None,
        grounding=hkg,
        concept_spaces=load_concept_spaces(KNOWLEDGE_DIR),
        # the Transform Gate's logic check runs on the verifier role when it is another model
        verifier=verifier_structured if verifier_structured is not roles.structured else None,
        domain_judge=roles.domain_judge,
        # the verifier role scores every new pool hypothesis; the offline model's scorer is the word rules
        scorer=ScoreStage(
            None if roles.verifier_offline else verifier_structured or roles.structured,
            roles.verifier,
            concurrency=concurrency,
        ),
    )
