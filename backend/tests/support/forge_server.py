"""The API served for real: `forge serve` in a child process (to SIGKILL it), or uvicorn in this process.

`ForgeProcess` runs the offline model over the given database, on a free port, with its output in a
log file (its tail goes into failure messages); `kill()` is `kill -9` and waits for the exit.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import httpx
import pytest
import uvicorn

from forge.api.app import create_app
from forge.api.serve_app import ForgeServer
from forge.bootstrap.build_container import build_container
from forge.config import Settings

FORGE = Path(sys.executable).parent / "forge"
READY_SECONDS = 60.0
# Variables that would make the child use another model, database or address than the test's.
INHERITED_PREFIXES_DROPPED = ("FORGE_", "ANTHROPIC_", "OPENAI_")
INHERITED_DROPPED = ("DATABASE_URL", "HOST", "PORT", "LOG_LEVEL")


# A short run lease, so that on PostgreSQL (where a restarted process cannot tell a dead process's
# run from another live replica's) a killed server's claim on its session expires quickly.
RUN_LEASE_SECONDS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ForgeProcess:
    def __init__(self, process: asyncio.subprocess.Process, base_url: str, log_path: Path):
        self.process = process
        self.base_url = base_url
        self.log_path = log_path

    def log_tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:]) or "(the server wrote nothing)"

    def kill(self) -> None:
        """SIGKILL, now: no shutdown hook, no flush, no rollback but the database's own."""
        if self.process.returncode is None:
            os.kill(self.process.pid, signal.SIGKILL)

    async def wait_exit(self) -> None:
        await asyncio.wait_for(self.process.wait(), 30)

    @classmethod
    async def start(
        cls, database_url: str, data_dir: Path, *, step_delay_ms: int, name: str, extra_env: Mapping[str, str] = {}
    ) -> ForgeProcess:
        """`forge serve` (migrates, then serves) on a free port; returns once /health/ready says 200."""
        port = free_port()
        server = await cls._spawn(
            "serve", database_url, data_dir, step_delay_ms, name, {**extra_env, "PORT": str(port)}
        )
        server.base_url = f"http://127.0.0.1:{port}"
        try:
            await server._wait_ready()
        except BaseException:
            server.kill()
            await server.wait_exit()
            raise
        return server

    @classmethod
    async def start_worker(
        cls, database_url: str, data_dir: Path, *, step_delay_ms: int, name: str, extra_env: Mapping[str, str] = {}
    ) -> ForgeProcess:
        """`forge worker` (migrates, then runs queued sessions); returns once spawned (it has no port:
        wait for it through an API replica's readiness, which counts live workers)."""
        return await cls._spawn(
            "worker", database_url, data_dir, step_delay_ms, name, {"LOG_LEVEL": "info", **extra_env}
        )

    @classmethod
    async def _spawn(
        cls,
        command: str,
        database_url: str,
        data_dir: Path,
        step_delay_ms: int,
        name: str,
        extra_env: Mapping[str, str],
    ) -> ForgeProcess:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(INHERITED_PREFIXES_DROPPED) and k not in INHERITED_DROPPED
        }
        env |= {
            "DATABASE_URL": database_url,
            "FORGE_DATA_DIR": str(data_dir),
            "FORGE_OFFLINE_STEP_DELAY_MS": str(step_delay_ms),
            "FORGE_RUN_LEASE_SECONDS": str(RUN_LEASE_SECONDS),
            "HOST": "127.0.0.1",
            "LOG_LEVEL": "warning",
            **extra_env,
        }
        log_path = data_dir / f"{name}.log"
        with log_path.open("wb") as log:  # the child keeps its own descriptor
            process = await asyncio.create_subprocess_exec(
                str(FORGE), command, cwd=data_dir, env=env, stdout=log, stderr=asyncio.subprocess.STDOUT
            )
        return cls(process, "", log_path)

    async def _wait_ready(self) -> None:
        try:
            async with httpx.AsyncClient(base_url=self.base_url, timeout=2) as client, asyncio.timeout(READY_SECONDS):
                while self.process.returncode is None:
                    with suppress(httpx.HTTPError):
                        if (await client.get("/api/v1/health/ready")).status_code == 200:
                            return
                    await asyncio.sleep(0.05)
        except TimeoutError:
            pytest.fail(f"`forge serve` was not ready after {READY_SECONDS:.0f} s:\n{self.log_tail()}")
        pytest.fail(f"`forge serve` exited ({self.process.returncode}) before it was ready:\n{self.log_tail()}")


@asynccontextmanager
async def serve_in_process(database_url: str) -> AsyncIterator[str]:
    """The app under a real uvicorn in this event loop (responses really stream) over the migrated
    database at `database_url`; yields its base URL."""
    container = build_container(Settings(embedder="hashed", database_url=database_url))
    config = uvicorn.Config(create_app(container), host="127.0.0.1", port=free_port(), log_level="warning")
    server = ForgeServer(config, before_shutdown=container.broadcaster.close)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            await task  # raises why it could not start
            pytest.fail("uvicorn stopped before it started")
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        await task
        await container.close()
