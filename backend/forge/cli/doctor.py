"""`forge doctor`: what each role will use (model, thinking, effort, structured output, prices, what
it lacks: `doctor_models`), which keys are present, whether the database is reachable and migrated,
and what is missing — without making a paid call.

Invariants:
    - No paid call: the IO is a `SELECT` on the configured database, with `--refresh-models` the
      free Models API (`GET /v1/models`), cached for the catalogue, and for a `local:` route its own
      server (`doctor_local_server`: reachability, window, a tool-call check).
    - Secrets are never printed: keys show as present/absent with their last four characters.
"""

from __future__ import annotations

import asyncio

from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import make_url

from forge.bootstrap.model_routing import Provider, resolve_routes, session_budget
from forge.cli.doctor_local_server import local_server_findings
from forge.cli.doctor_models import (
    Finding,
    cross_family_finding,
    refresh_models,
    route_finding,
    self_verification_finding,
)
from forge.config import Settings
from forge.db.engine import create_engine_for
from forge.db.migrate import alembic_config
from forge.providers.library_prices import LIBRARY_PRICES, install_prices_file
from forge.providers.model_catalogue import ModelCatalogue

DB_TIMEOUT_S = 5.0


def _mask(secret: str | None) -> str:
    return f"present (…{secret[-4:]})" if secret else "absent"


def _model_findings(settings: Settings, catalogue: ModelCatalogue) -> list[Finding]:
    try:
        routes = resolve_routes(settings)
        install_prices_file(settings.prices_file)
    except ValueError as error:
        return [Finding("generator", settings.model, False, str(error))]
    findings = [
        route_finding("generator", "FORGE_MODEL", routes.generator, settings, catalogue),
        route_finding("verifier (VALIDATE)", "FORGE_VERIFIER_MODEL", routes.verifier, settings, catalogue),
    ]
    cross = cross_family_finding(routes.generator, routes.verifier, settings)
    findings += [cross] if cross is not None else []
    same = self_verification_finding(routes.generator, routes.verifier)
    findings += [same] if same is not None else []
    findings.append(_research_finding(settings, routes.generator.provider))
    return findings


def _research_finding(settings: Settings, generator: Provider) -> Finding:
    """Which research the session uses; a web API is named with its URL and masked key (not called)."""
    if settings.anthropic_web_search:
        ok = generator == Provider.ANTHROPIC
        fix = None if ok else "FORGE_RESEARCH=anthropic needs an anthropic generator; use searxng, brave or tavily"
        fetch = f" + web fetch (≤{settings.web_fetch_max_uses} pages a call)" if settings.web_fetch_max_uses else ""
        return Finding("researcher", f"Anthropic web search{fetch} + local corpus", ok, fix)
    web = {
        "searxng": ("SearXNG", settings.searxng_url or "", "FORGE_SEARXNG_URL", settings.searxng_url),
        "brave": ("Brave Search", settings.brave_base_url, "BRAVE_SEARCH_API_KEY", settings.brave_api_key),
        "tavily": ("Tavily", settings.tavily_base_url, "TAVILY_API_KEY", settings.tavily_api_key),
    }.get(settings.research)
    if web is None:
        return Finding("researcher", "local corpus (BM25)")
    label, url, variable, needed = web
    key = "" if settings.research == "searxng" else f" (key {_mask(needed)})"
    value = f"{label} at {url or '(no URL)'}{key}, local corpus as fallback"
    return Finding("researcher", value, bool(needed), None if needed else f"set {variable}")


async def _database_state(url: str) -> tuple[bool, str]:
    engine = create_engine_for(url)
    try:
        async with asyncio.timeout(DB_TIMEOUT_S), engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
            tables = await connection.run_sync(lambda c: c.dialect.has_table(c, "alembic_version"))
            current = (
                (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalar() if tables else None
            )
    except Exception as error:
        return False, f"unreachable ({type(error).__name__}: {str(error)[:120]})"
    finally:
        await engine.dispose()
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    return (
        True,
        "reachable, schema at head" if current == head else f"reachable, schema {current or 'empty'} (head {head})",
    )


async def diagnose(settings: Settings, *, refresh: bool = False) -> list[Finding]:
    catalogue = ModelCatalogue(settings.model_cache_path)
    findings = [await refresh_models(settings, catalogue)] if refresh else []
    findings += _model_findings(settings, catalogue)
    findings += await local_server_findings(settings)
    findings += [
        Finding("ANTHROPIC_API_KEY", _mask(settings.anthropic_api_key)),
        Finding("OPENAI_API_KEY", _mask(settings.openai_api_key)),
        Finding("OPENAI_BASE_URL", settings.openai_base_url or "not set"),
    ]
    reachable, state = await _database_state(settings.database_url)
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    fix = None
    if not reachable:
        fix = "start the database or fix DATABASE_URL"
    elif "at head" not in state:
        fix = "run `forge migrate`"
    findings.append(Finding("database", f"{settings.database_kind} {shown}: {state}", fix is None, fix))
    budget = [
        f"{settings.budget_tokens} tokens" if settings.budget_tokens else "",
        f"${settings.budget_usd:.2f}" if settings.budget_usd else "",
    ]
    findings.append(_budget_finding(settings, " and ".join(b for b in budget if b)))
    return findings


def _budget_finding(settings: Settings, shown: str) -> Finding:
    """The budget as the session applies it: by tokens alone where a model's price is unknown."""
    try:
        applied = session_budget(settings, resolve_routes(settings), LIBRARY_PRICES)
    except ValueError as error:
        return Finding("budget", shown, False, str(error))
    if settings.budget_usd is not None and applied.max_usd is None:
        return Finding("budget", f"{shown} (by tokens only: a model has no price)", True, None, warning=True)
    return Finding("budget", shown or "none (FORGE_BUDGET_TOKENS / FORGE_BUDGET_USD)")


def render(findings: list[Finding]) -> str:
    width = max(len(f.topic) for f in findings)
    lines = [
        f"{_mark(f)} {f.topic:<{width}}  {f.value}" + (f"\n  {'':<{width}}  → {f.fix}" if f.fix else "")
        for f in findings
    ]
    problems = sum(1 for f in findings if not f.ok)
    warnings = sum(1 for f in findings if f.ok and f.warning)
    note = f" {warnings} warning(s)." if warnings else ""
    lines.append(("All set." if problems == 0 else f"{problems} problem(s) to fix.") + note)
    return "\n".join(lines)


def _mark(finding: Finding) -> str:
    return "✗" if not finding.ok else "!" if finding.warning else "✓"
