"""Security headers on every kind of response, Host header checks, and compression (never on SSE)."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from support.api_client import api_client

from forge.config import Settings

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
BUILD_INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-1.js"></script></head></html>'


@pytest.fixture
def spa_build(tmp_path: Path) -> Path:
    build = tmp_path / "spa"
    (build / "assets").mkdir(parents=True)
    (build / "index.html").write_text(BUILD_INDEX, encoding="utf-8")
    (build / "assets" / "app-1.js").write_text("console.log('forge');\n" * 200, encoding="utf-8")
    return build


@asynccontextmanager
async def _client(
    settings: Settings, spa_dir: Path, base_url: str = "http://localhost"
) -> AsyncIterator[httpx.AsyncClient]:
    async with api_client(settings, spa_dir=spa_dir, base_url=base_url) as http:
        yield http


@pytest.fixture
async def client(database_url: str, spa_build: Path) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(Settings(database_url=database_url), spa_build) as http:
        yield http


def _assert_security_headers(response: httpx.Response, *, docs: bool = False) -> None:
    headers = response.headers
    assert headers["x-content-type-options"] == "nosniff", response.url
    assert headers["x-frame-options"] == "DENY", response.url
    assert headers["referrer-policy"] == "no-referrer", response.url
    csp = headers["content-security-policy"]
    assert ("frame-ancestors 'none'" in csp and "object-src 'none'" in csp) or docs, csp
    script_src = next(d for d in csp.split("; ") if d.startswith("script-src "))
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, csp
    assert "strict-transport-security" not in headers, "no HSTS without an https FORGE_PUBLIC_URL"


async def test_the_app_its_assets_the_api_and_errors_carry_the_security_headers(client: httpx.AsyncClient) -> None:
    for path in ("/", "/sessions/abc", "/assets/app-1.js", "/api/v1/sessions", "/api/v1/health/", "/api/v1/nope"):
        response = await client.get(path)
        assert response.status_code in (200, 404), (path, response.status_code)
        _assert_security_headers(response)
        assert "script-src 'self';" in response.headers["content-security-policy"], path


async def test_the_sse_stream_carries_the_security_headers(client: httpx.AsyncClient) -> None:
    sid = (await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"]
    assert (await client.post(f"/api/v1/sessions/{sid}/run")).status_code == 200
    async with client.stream("GET", f"/api/v1/sessions/{sid}/stream") as response:
        _assert_security_headers(response)
        await response.aread()


async def test_the_docs_load_their_script_from_a_file_under_a_csp_that_allows_only_the_cdn(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    _assert_security_headers(page, docs=True)
    csp = page.headers["content-security-policy"]
    assert "script-src 'self' https://cdn.jsdelivr.net;" in csp and "frame-ancestors 'none'" in csp
    assert "<script>" not in page.text, "the docs page must not have inline script"
    init = await client.get("/docs/swagger-init.js")
    assert init.status_code == 200 and init.headers["content-type"].startswith("text/javascript")
    assert "'/openapi.json'" in init.text and "SwaggerUIBundle" in init.text
    redoc = await client.get("/redoc")
    assert redoc.status_code == 200 and "<script>" not in redoc.text
    _assert_security_headers(redoc, docs=True)
    assert (await client.get("/openapi.json")).headers["x-content-type-options"] == "nosniff"


async def test_the_start_page_style_is_allowed_by_its_hash_and_nothing_else_inline(
    database_url: str, tmp_path: Path
) -> None:
    async with _client(Settings(database_url=database_url), tmp_path / "no-build") as http:
        page = await http.get("/")
    assert page.status_code == 200 and "<style>" in page.text and "<script" not in page.text
    style_src = next(d for d in page.headers["content-security-policy"].split("; ") if d.startswith("style-src "))
    assert style_src.startswith("style-src 'self' 'sha256-") and "unsafe-inline" not in style_src


@pytest.mark.parametrize("host", ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io:8000", ""])
async def test_a_request_for_another_host_is_refused_before_any_route_runs(
    client: httpx.AsyncClient, host: str
) -> None:
    response = await client.get("/api/v1/sessions", headers={"Host": host})
    assert response.status_code == 400, response.text
    assert "FORGE_ALLOWED_HOSTS" in response.json()["detail"]
    _assert_security_headers(response)
    deleted = await client.delete("/api/v1/sessions/00000000-0000-4000-8000-000000000000", headers={"Host": host})
    assert deleted.status_code == 400


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST."])
async def test_loopback_names_are_served_by_default(client: httpx.AsyncClient, host: str) -> None:
    assert (await client.get("/api/v1/health/", headers={"Host": host})).status_code == 200


async def test_the_public_url_host_is_served_and_https_turns_on_hsts(database_url: str, spa_build: Path) -> None:
    settings = Settings(database_url=database_url, public_url="https://forge.example.org")
    async with _client(settings, spa_build, base_url="https://forge.example.org") as http:
        response = await http.get("/api/v1/health/")
        refused = await http.get("/api/v1/health/", headers={"Host": "other.example.org"})
    assert response.status_code == 200
    assert response.headers["strict-transport-security"].startswith("max-age=31536000")
    assert refused.status_code == 400


async def test_configured_hosts_replace_the_default(database_url: str, spa_build: Path) -> None:
    settings = Settings(database_url=database_url, allowed_hosts=("*.example.org",))
    async with _client(settings, spa_build) as http:
        sub = await http.get("/api/v1/health/", headers={"Host": "forge.example.org"})
        bare = await http.get("/api/v1/health/", headers={"Host": "example.org"})
        loopback = await http.get("/api/v1/health/")
    assert (sub.status_code, bare.status_code, loopback.status_code) == (200, 400, 400)


async def test_json_and_assets_are_gzipped_when_the_client_accepts_it(client: httpx.AsyncClient) -> None:
    for _ in range(8):
        await client.post("/api/v1/sessions", json={"problem": PROBLEM})
    for path in ("/api/v1/sessions", "/openapi.json", "/assets/app-1.js"):
        response = await client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.headers.get("content-encoding") == "gzip", path
        assert "accept-encoding" in response.headers["vary"].lower(), path
    plain = await client.get("/api/v1/sessions", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json()["total"] == 8


async def test_the_sse_stream_is_never_compressed_or_buffered(client: httpx.AsyncClient) -> None:
    sid = (await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"]
    assert (await client.post(f"/api/v1/sessions/{sid}/run")).status_code == 200
    async with client.stream("GET", f"/api/v1/sessions/{sid}/stream", headers={"Accept-Encoding": "gzip"}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in response.headers
        assert response.headers.get("x-accel-buffering") == "no", "proxies (nginx) must not buffer it either"
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
    assert raw.startswith(b"event: phase_change") or raw.startswith(b"id: "), raw[:40]
    with pytest.raises(gzip.BadGzipFile):
        gzip.decompress(raw)
