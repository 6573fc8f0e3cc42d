"""The backend serves the built browser app on the API's origin, and explains itself without a build."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from support.api_client import api_client
from support.fresh_database import migrated_sqlite_url

from forge.api.serve_spa import accepted_encodings
from forge.config import Settings


async def _client(tmp_path: Path, spa_dir: Path) -> AsyncIterator[httpx.AsyncClient]:
    url = await migrated_sqlite_url(tmp_path)
    async with api_client(Settings(database_url=url), spa_dir=spa_dir) as http:
        yield http


@pytest.fixture
async def built(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    spa = tmp_path / "spa"
    (spa / "assets").mkdir(parents=True)
    (spa / "index.html").write_text("<!doctype html><div id=root></div>", encoding="utf-8")
    (spa / "assets" / "app-1a2b.js").write_text("console.log('app')", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("not for you", encoding="utf-8")
    async for client in _client(tmp_path, spa):
        yield client


async def test_serves_index_at_root_and_for_client_routes(built: httpx.AsyncClient) -> None:
    for path in ("/", "/sessions/abc", "/sessions/abc/report"):
        response = await built.get(path)
        assert response.status_code == 200, path
        assert "<div id=root>" in response.text
        assert response.headers["cache-control"] == "no-cache"


async def test_serves_hashed_assets_with_a_long_cache(built: httpx.AsyncClient) -> None:
    response = await built.get("/assets/app-1a2b.js")
    assert response.status_code == 200
    assert response.text == "console.log('app')"
    assert "immutable" in response.headers["cache-control"]


async def test_a_missing_asset_is_404_not_the_app(built: httpx.AsyncClient) -> None:
    response = await built.get("/assets/gone.js")
    assert response.status_code == 404
    assert "make build" in response.json()["detail"]


async def test_paths_cannot_escape_the_build_directory(built: httpx.AsyncClient) -> None:
    response = await built.get("/..%2Fsecret.txt")
    assert "not for you" not in response.text


async def test_the_api_is_not_shadowed_by_the_app(built: httpx.AsyncClient) -> None:
    assert (await built.get("/api/v1/health/")).json() == {"status": "ok"}
    missing = await built.get("/api/v1/nope")
    assert missing.status_code == 404
    assert "the API lives under /api/v1" in missing.json()["detail"]
    assert (await built.get("/openapi.json")).status_code == 200


async def test_without_a_build_the_root_explains_how_to_get_one(tmp_path: Path) -> None:
    async for client in _client(tmp_path, tmp_path / "no-build"):
        response = await client.get("/")
        assert response.status_code == 200
        assert "make run" in response.text
        assert "offline model" in response.text


@pytest.fixture
async def precompressed(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    spa = tmp_path / "spa"
    (spa / "assets").mkdir(parents=True)
    (spa / "index.html").write_text("<!doctype html><div id=root></div>", encoding="utf-8")
    script = "console.log('compressed app');" * 200
    (spa / "assets" / "app-9f8e.js").write_text(script, encoding="utf-8")
    (spa / "assets" / "app-9f8e.js.gz").write_bytes(gzip.compress(script.encode()))
    (spa / "assets" / "app-9f8e.js.br").write_bytes(b"brotli bytes stand-in")
    (spa / "assets" / "style-1c2d.css").write_text("body{}" * 300, encoding="utf-8")
    (spa / "assets" / "style-1c2d.css.gz").write_bytes(gzip.compress(b"body{}" * 300))
    async for client in _client(tmp_path, spa):
        yield client


async def _raw(client: httpx.AsyncClient, path: str, accept_encoding: str) -> tuple[httpx.Response, bytes]:
    async with client.stream("GET", path, headers={"Accept-Encoding": accept_encoding}) as response:
        return response, b"".join([chunk async for chunk in response.aiter_raw()])


async def test_a_precompressed_asset_is_sent_as_brotli_when_accepted(precompressed: httpx.AsyncClient) -> None:
    response, body = await _raw(precompressed, "/assets/app-9f8e.js", "gzip, deflate, br")
    assert response.headers["content-encoding"] == "br"
    assert body == b"brotli bytes stand-in"
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["vary"] == "Accept-Encoding"
    assert "immutable" in response.headers["cache-control"]


async def test_gzip_when_brotli_is_not_accepted_or_refused(precompressed: httpx.AsyncClient) -> None:
    for accept in ("gzip", "br;q=0, gzip;q=0.8"):
        response, body = await _raw(precompressed, "/assets/app-9f8e.js", accept)
        assert response.headers["content-encoding"] == "gzip", accept
        assert gzip.decompress(body) == ("console.log('compressed app');" * 200).encode()
    css, _ = await _raw(precompressed, "/assets/style-1c2d.css", "br, gzip")
    assert css.headers["content-encoding"] == "gzip"  # no .br for it: the next accepted one
    assert css.headers["content-type"].startswith("text/css")


async def test_the_plain_file_when_no_compression_is_accepted(precompressed: httpx.AsyncClient) -> None:
    response, body = await _raw(precompressed, "/assets/app-9f8e.js", "identity")
    assert "content-encoding" not in response.headers
    assert body == ("console.log('compressed app');" * 200).encode()
    assert response.headers["vary"] == "Accept-Encoding"


async def test_accept_encoding_is_read_with_its_qualities() -> None:
    assert accepted_encodings("gzip, br;q=0.5, zstd;q=0, *;q=0.1") == {"gzip", "br", "*"}
    assert accepted_encodings("br;q=abc, , gzip ; q=1") == {"gzip"}
    assert accepted_encodings("") == frozenset()
