"""Which adapter serves a route: the language model, its structured generation and research.

Part of the composition root (`bootstrap.build_container` calls these; tests and benches build a
single adapter with them). Invariants: nothing is built at import time, no network call is made
while building, and a route without its key is refused with what to set. Provider SDKs and the
offline model are imported inside the functions, so a deployment loads only what its routes use.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forge.bootstrap.model_routing import ModelRoute, Provider, missing_for
from forge.config import Settings
from forge.core.explore.library_records import SourceDomain
from forge.ports import Embedder, LanguageModel, ResearchProvider, StructuredModel

KNOWLEDGE_DIR = Path(__file__).resolve().parent.parent / "knowledge"


def build_model(route: ModelRoute, settings: Settings) -> LanguageModel:
    """The LanguageModel for a route; no network call is made here. Installs the deployment's prices
    (FORGE_PRICES_FILE over genai-prices' shipped data) for the cost accounting."""
    from forge.providers.library_prices import install_prices_file

    install_prices_file(settings.prices_file)
    if route.provider == Provider.OFFLINE:
        from forge.offline.offline_model import OfflineModel
        from forge.providers.paced_model import PacedModel

        offline = OfflineModel(KNOWLEDGE_DIR)
        delay = settings.offline_step_delay_ms
        return PacedModel(offline, delay / 1000) if delay else offline
    missing = missing_for(route, settings)
    if missing:
        raise ValueError(
            f"{route.name} needs {', '.join(missing)}; set it (see .env.example) or use FORGE_MODEL=offline"
        )
    if route.provider == Provider.ANTHROPIC:
        from forge.providers.anthropic_model import anthropic_model_from_settings
        from forge.providers.model_catalogue import ModelCatalogue

        web_uses = settings.web_search_max_uses if settings.anthropic_web_search else 0
        return anthropic_model_from_settings(
            settings.anthropic_api_key or "",
            route.model,
            base_url=settings.anthropic_base_url,
            context_1m=settings.anthropic_context_1m,
            web_search_max_uses=web_uses,
            web_fetch_max_uses=settings.web_fetch_max_uses if settings.anthropic_web_search else 0,
            catalogue=ModelCatalogue(settings.model_cache_path),
            effort=settings.effort,
        )
    from forge.providers.openai_compatible_model import DEFAULT_TIMEOUT_S, openai_compatible_model_from_settings

    return openai_compatible_model_from_settings(
        settings.openai_api_key,
        route.model,
        base_url=settings.openai_base_url,
        label_prefix=route.provider.value,
        context_window=settings.openai_context_window,
        timeout_s=settings.model_timeout_s or DEFAULT_TIMEOUT_S,
    )


def build_structured_model(
    route: ModelRoute, model: LanguageModel, domains: Sequence[SourceDomain], settings: Settings | None = None
) -> StructuredModel:
    """Structured generation for a route: the offline generators (the offline verifier reads `domains`,
    the shipped library the caller loaded once), or the model's JSON-schema output (forced tools only
    where that is all it accepts; see `providers.structured_output`)."""
    if route.provider == Provider.OFFLINE:
        from pydantic import BaseModel

        from forge.engine.evaluation.answer_requests import ConceptMappingOutput, DirectAnswerOutput
        from forge.engine.evaluation.judge_requests import MacGyverJudgeOutput, MatchedScoreOutput, PairwiseOutput
        from forge.engine.explore.biso import BisoOutput
        from forge.engine.explore.review_mapping_depth import MappingReviewsOutput
        from forge.engine.frame.frame_problem import FrameOutput
        from forge.engine.saga.red_team import RedTeamOutput
        from forge.engine.search.blend_expand import BlendOutput
        from forge.engine.search.operators import OperatorOutput
        from forge.engine.search.structural_operators import StructuralOutput
        from forge.engine.search.transform_space import LogicCheckOutput, TransformOutput
        from forge.engine.solve.requests import AnalysisOutput, AuditOutput, ComplianceOutput, PlanOutput, TalkerOutput
        from forge.engine.verify.requests import PriorArtOutput, VerifyScoresOutput
        from forge.engine.verify.research_relevance import ResearchRelevanceOutput
        from forge.offline.evaluation_offline import offline_answer, offline_grade, offline_mapping, offline_preference
        from forge.offline.explore.biso_offline import offline_biso
        from forge.offline.explore.mapping_review_offline import offline_mapping_reviews
        from forge.offline.frame.problem_frame import offline_frame
        from forge.offline.offline_structured_model import OfflineGenerator, OfflineStructuredModel
        from forge.offline.saga.red_team_offline import offline_red_team
        from forge.offline.search.blend_offline import offline_blend
        from forge.offline.search.search_offline import offline_search
        from forge.offline.search.structural_offline import offline_structural
        from forge.offline.search.transform_offline import offline_logic_check, offline_transform
        from forge.offline.solve.solve_offline import (
            offline_analysis,
            offline_audit,
            offline_compliance,
            offline_plan,
            offline_talker,
        )
        from forge.offline.verify.verify_offline import offline_prior_art, offline_research_relevance, offline_verifier

        generators: dict[type[BaseModel], OfflineGenerator] = {
            FrameOutput: offline_frame,
            BisoOutput: offline_biso,
            MappingReviewsOutput: offline_mapping_reviews,
            OperatorOutput: offline_search,
            RedTeamOutput: offline_red_team,
            AnalysisOutput: offline_analysis,
            PlanOutput: offline_plan,
            AuditOutput: offline_audit,
            TalkerOutput: offline_talker,
            ComplianceOutput: offline_compliance,
            VerifyScoresOutput: offline_verifier(domains),
            PriorArtOutput: offline_prior_art,
            ResearchRelevanceOutput: offline_research_relevance,
            StructuralOutput: offline_structural,
            BlendOutput: offline_blend,
            TransformOutput: offline_transform,
            LogicCheckOutput: offline_logic_check,
            DirectAnswerOutput: offline_answer,
            ConceptMappingOutput: offline_mapping,
            MacGyverJudgeOutput: offline_grade,
            MatchedScoreOutput: offline_grade,
            PairwiseOutput: offline_preference,
        }
        return OfflineStructuredModel(generators, label=model.label)
    return _structured_over_model(route, model, settings)


def _structured_over_model(route: ModelRoute, model: LanguageModel, settings: Settings | None) -> StructuredModel:
    """Anthropic: the method the model's capabilities allow (output_config.format, else forced tools);
    OpenAI-compatible: FORGE_STRUCTURED_OUTPUT (auto: json_schema, then tools if the server refuses)."""
    from forge.core.llm.capabilities import StructuredMethod
    from forge.providers.structured_output import SchemaStructuredModel

    if route.provider == Provider.ANTHROPIC:
        import anthropic

        from forge.providers.anthropic_model import AnthropicModel
        from forge.providers.model_catalogue import shipped_catalogue

        caps = (
            model.capabilities if isinstance(model, AnthropicModel) else shipped_catalogue().capabilities(route.model)
        )
        limit = f"{route.model} accepts neither output_config.format nor forced tool use ({caps.source})"
        return SchemaStructuredModel(model, caps.structured_method, limit=limit, schema_for=anthropic.transform_schema)
    chosen = settings.openai_structured_output if settings is not None else "auto"
    method = StructuredMethod.FORCED_TOOL if chosen == "tools" else StructuredMethod.JSON_SCHEMA
    return SchemaStructuredModel(model, method, fallback_to_tools=chosen == "auto")


def build_research(
    settings: Settings, renderer: StructuredModel | None = None, embedder: Embedder | None = None
) -> ResearchProvider:
    """The local corpus, or a web search API in front of it (the corpus answers when the API fails).
    With an embedder the corpus ranks as memory does: BM25 fused with meaning. The corpus is
    English: with a `renderer` (a real model's structured output), a query in another language is
    also searched in the model's English rendering; without one (or when its call fails), in a
    bilingual dictionary's word-by-word gloss, labelled as such. The same glossary indexes a Chinese
    or Japanese session document's English gloss, so an English query finds it."""
    from forge.research.bilingual_dictionary import DictionaryGlossary
    from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
    from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus

    glossary = DictionaryGlossary()  # reads its dictionaries on the first Chinese or Japanese text only
    corpus = LocalCorpusResearch(load_shipped_corpus(KNOWLEDGE_DIR / "corpus"), embedder, glossary=glossary)
    local = CrossLanguageResearch(corpus, ModelQueryRenderer(renderer) if renderer is not None else None, glossary)
    if settings.research in ("local", "anthropic", "web"):
        return local
    import httpx

    from forge.research.web_search import WebResearchWithFallback, WebSearchResearch, web_search_api

    api = web_search_api(settings)
    client = httpx.AsyncClient(follow_redirects=True)
    return WebResearchWithFallback(WebSearchResearch(api, client, settings.research_timeout_seconds), local)
