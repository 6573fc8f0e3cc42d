"""The models `forge eval` uses outside a session: the generator (the direct arm, SCAN's mapping) and
the judge (the verifier route, or `--judge provider:model`), built by the composition root's adapters.

Invariant: the same routes, adapters and prices as a session's, so the direct arm is the same model
the engine's sessions use; nothing calls the network here.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_model, build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider, resolve_routes
from forge.config import Settings
from forge.core.llm.pricing import ModelPrice, price_for
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.ports import StructuredModel
from forge.providers.library_prices import LIBRARY_PRICES


@dataclass(frozen=True, slots=True)
class EvaluationModel:
    structured: StructuredModel
    label: str
    price: ModelPrice | None  # None: free (offline, local) or unpriced
    family: str  # the provider, for "is the judge of another family"


@dataclass(frozen=True, slots=True)
class EvaluationModels:
    generator: EvaluationModel
    judge: EvaluationModel
    offline: bool  # the generator is the offline stand-in: the numbers are not quality claims


def _model(route: ModelRoute, settings: Settings) -> EvaluationModel:
    knowledge = load_shipped_knowledge(KNOWLEDGE_DIR)
    model = build_model(route, settings)
    structured = build_structured_model(route, model, knowledge.domains, settings)
    return EvaluationModel(structured, model.label, price_for(route.model, LIBRARY_PRICES), route.provider.value)


def build_evaluation_models(settings: Settings) -> EvaluationModels:
    """The generator and the judge for `settings` (whose verifier route is the judge)."""
    routes = resolve_routes(settings)
    generator = _model(routes.generator, settings)
    judge = generator if routes.verifier == routes.generator else _model(routes.verifier, settings)
    return EvaluationModels(generator, judge, routes.generator.provider == Provider.OFFLINE)
