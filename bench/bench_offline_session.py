"""Benchmark: one full offline session through the real HTTP API (uvicorn in a subprocess).

Prints total wall time of the session, time to the first SSE event after the stream opens, and
events per second, ending with one line:
    RESULT session_s=<float> first_event_ms=<float> events_per_s=<float>
Run: make bench   (or backend/.venv/bin/python bench/bench_offline_session.py [--problem "..."])
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

FORGE = Path(sys.executable).parent / "forge"
DEFAULT_PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _review(event_type: str, data: dict[str, Any]) -> dict[str, Any]:
    if event_type == "review_decompose":
        return {"type": "decompose_review", "selected_reframings": [0]}
    if event_type == "review_explore":
        return {"type": "explore_review", "starred_analogies": [0, 1]}
    if event_type == "review_claims":
        return {"type": "claims_review"}
    if event_type == "review_verdicts":
        return {
            "type": "verdicts",
            "verdicts": [
                {"claim_index": c["index"], "verdict": "accept"} for c in data["claims"]
            ],
        }
    return {"type": "build_decision", "decision": "resolve"}


async def _consume(
    client: httpx.AsyncClient, method: str, url: str, stats: dict[str, Any], **kw: Any
) -> tuple[str, Any]:
    opened = time.perf_counter()
    last_review: tuple[str, Any] = ("", None)
    async with aconnect_sse(client, method, url, **kw) as source:
        async for sse in source.aiter_sse():
            if stats["first_event_ms"] is None:
                stats["first_event_ms"] = (time.perf_counter() - opened) * 1000
            stats["events"] += 1
            if sse.event.startswith("review_") or sse.event == "knowledge_document":
                last_review = (sse.event, json.loads(sse.data))
    return last_review


async def _session(base: str, problem: str) -> dict[str, Any]:
    stats: dict[str, Any] = {"first_event_ms": None, "events": 0}
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        started = time.perf_counter()
        sid = (await client.post("/api/v1/sessions", json={"problem": problem})).json()[
            "id"
        ]
        (await client.post(f"/api/v1/sessions/{sid}/run")).raise_for_status()  # GET /stream only follows
        kind, data = await _consume(
            client, "GET", f"/api/v1/sessions/{sid}/stream", stats
        )
        while kind != "knowledge_document":
            kind, data = await _consume(
                client,
                "POST",
                f"/api/v1/sessions/{sid}/user-input",
                stats,
                json=_review(kind, data),
            )
            if not kind:
                raise SystemExit("the session stopped without a review or a document")
        stats["session_s"] = time.perf_counter() - started
    return stats


def _wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(200):
        if server.poll() is not None:
            raise SystemExit("forge serve exited early")
        try:
            if httpx.get(f"{base}/api/v1/health/ready", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("forge serve did not become ready")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--problem", default=DEFAULT_PROBLEM)
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {
            **os.environ,
            "FORGE_DATA_DIR": data_dir,
            "PORT": str(port),
            "LOG_LEVEL": "warning",
        }
        env.pop("DATABASE_URL", None)
        server = subprocess.Popen(
            [str(FORGE), "serve"], env=env, stdout=subprocess.DEVNULL
        )
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_ready(base, server)
            stats = asyncio.run(_session(base, args.problem))
        finally:
            server.terminate()
            server.wait(timeout=10)
    rate = stats["events"] / stats["session_s"]
    print(f"session wall time   {stats['session_s']:.3f} s")
    print(
        f"first SSE event     {stats['first_event_ms']:.1f} ms after the stream opened"
    )
    print(f"events              {stats['events']} ({rate:.1f} events/s)")
    print(
        f"RESULT session_s={stats['session_s']:.3f} first_event_ms={stats['first_event_ms']:.1f} events_per_s={rate:.1f}"
    )


if __name__ == "__main__":
    main()
