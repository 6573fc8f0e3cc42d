"""docker-compose.yml (not run here: no Docker in the test environment) is valid YAML that runs
PostgreSQL, a one-shot migration, one API and two workers on the task engine, each with a healthcheck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

COMPOSE = Path(__file__).resolve().parents[4] / "docker-compose.yml"


def _services() -> dict[str, Any]:
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return dict(document["services"])


def test_postgres_a_migration_one_api_and_two_workers_with_healthchecks() -> None:
    services = _services()
    assert set(services) == {"db", "migrate", "api", "worker"}
    assert services["worker"]["deploy"]["replicas"] == 2
    assert services["api"]["command"][:2] == ["forge", "serve"] and services["api"]["ports"] == ["8000:8000"]
    assert services["worker"]["command"][:2] == ["forge", "worker"]
    for name in ("db", "api", "worker"):
        assert services[name]["healthcheck"]["test"], f"{name} has no healthcheck"
    assert "/api/v1/health/ready" in " ".join(services["api"]["healthcheck"]["test"])
    assert "/tmp/forge-worker.alive" in services["worker"]["command"]


def test_the_api_and_the_workers_share_one_image_database_and_runner_after_the_migration() -> None:
    services = _services()
    for name in ("api", "worker"):
        env = services[name]["environment"]
        assert env["FORGE_RUNNER"] == "workers" and env["DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert services[name]["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
        assert services[name]["image"] == services["migrate"]["image"]
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert services["api"]["environment"]["FORGE_AUTH"] == "on"  # reachable from the network
