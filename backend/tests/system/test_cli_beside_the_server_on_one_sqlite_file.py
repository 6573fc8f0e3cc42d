"""`forge answer` (another process) writing to the SQLite file `forge serve` runs sessions on: both
finish, and the server keeps answering while the other process holds SQLite's write lock.

The server runs statements on its event loop's thread and never lets the loop wait for another
process's lock: both processes queue their writers on the lock file beside the database, waiting on
a thread (`db/cross_process_write_lock`), and a statement that still finds the file locked is run
again on the connection's thread, where it waits (`db/sqlite_fewer_hops`). This drives a session through the real HTTP API while the CLI
runs its own session to the document on the same file, and checks both logs are whole.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import httpx
from support.event_log import log_problems, read_event_log, tail
from support.forge_server import FORGE, ForgeProcess
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
CLI_PROBLEM = "How can a small bakery reduce food waste at the end of each day?"
TIMEOUT = httpx.Timeout(60.0)


async def _drive_over_http(client: httpx.AsyncClient, sid: str) -> None:
    """POST /run, then POST /autopilot at each review, until the stream shows the document."""
    events = await run_and_stream(client, sid)
    for _ in range(12):
        if any(e.type == "knowledge_document" for e in events):
            return
        done = events[-1]
        assert done.type == "done" and done.data["awaiting_input"], tail(events)
        events = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/autopilot", json={"rounds": 1})
    raise AssertionError(f"no document after 12 reviews: {tail(events)}")


async def _answer_in_another_process(database_url: str, out: Path) -> tuple[int, str]:
    env = {**os.environ, "DATABASE_URL": database_url, "FORGE_DATA_DIR": str(out), "FORGE_MODEL": "offline"}
    process = await asyncio.create_subprocess_exec(
        str(FORGE), "answer", CLI_PROBLEM, "--out", str(out), "--quiet",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    return process.returncode or 0, output.decode(errors="replace")


async def _until_the_cli_has_created_its_session(client: httpx.AsyncClient, cli: asyncio.Task[tuple[int, str]]) -> None:
    """So both write at once: the CLI runs its session right after creating it."""
    while not cli.done():
        listed = (await client.get("/api/v1/sessions", params={"limit": 10})).json()["items"]
        if any(s["problem"] == CLI_PROBLEM for s in listed):
            return
        await asyncio.sleep(0.02)
    code, output = await cli
    raise AssertionError(f"`forge answer` ended ({code}) before its session was listed:\n{output}")


async def _reads_answered_while(task: asyncio.Task[tuple[int, str]], client: httpx.AsyncClient, sid: str) -> int:
    """GET the session (a read of the file) until `task` ends; how many answered 200 (each within the
    client's timeout)."""
    answered = 0
    while not task.done():
        response = await client.get(f"/api/v1/sessions/{sid}")
        assert response.status_code == 200, response.text
        answered += 1
        await asyncio.sleep(0.05)
    return answered


async def test_the_cli_and_the_server_both_finish_on_one_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    server = await ForgeProcess.start(url, tmp_path, step_delay_ms=10, name="serve")
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=TIMEOUT) as client:
            cli = asyncio.create_task(_answer_in_another_process(url, tmp_path / "cli"))
            await _until_the_cli_has_created_its_session(client, cli)
            created = await client.post("/api/v1/sessions", json={"problem": PROBLEM})
            assert created.status_code == 201, created.text
            sid = created.json()["id"]
            drive = asyncio.create_task(_drive_over_http(client, sid))
            answered = await _reads_answered_while(cli, client, sid)
            code, output = await cli
            await drive
            assert code == 0, output
            assert answered > 0
            log = await read_event_log(client, sid)
            assert log_problems(log) == [], tail(log)
            listed = (await client.get("/api/v1/sessions", params={"limit": 10})).json()["items"]
            assert {s["problem"] for s in listed} == {PROBLEM, CLI_PROBLEM}
            cli_session = next(s for s in listed if s["problem"] == CLI_PROBLEM)
            cli_log = await read_event_log(client, cli_session["id"])
            assert log_problems(cli_log) == [], tail(cli_log)
            session_files = [p for p in (tmp_path / "cli").glob("*.json") if not p.name.endswith(".answer.json")]
            assert len(session_files) == 1, session_files
            assert json.loads(session_files[0].read_text())["finished"] is True
    finally:
        server.kill()
        await server.wait_exit()
