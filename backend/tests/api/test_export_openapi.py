"""`python -m forge.api.export_openapi PATH` writes the same OpenAPI bytes every run, without a database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[2]  # the package imports from here even without an install


def _export(target: Path, env: dict[str, str], cwd: Path) -> bytes:
    result = subprocess.run(
        [sys.executable, "-m", "forge.api.export_openapi", str(target)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return target.read_bytes()


def test_export_is_deterministic_json_with_the_session_paths(tmp_path: Path) -> None:
    # A database that cannot be reached and a hosted model without a key: neither is touched.
    env = {**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:9/nowhere", "FORGE_MODEL": "anthropic:x"}
    work = tmp_path / "work"
    work.mkdir()
    first = _export(tmp_path / "a" / "openapi.json", env, work)
    second = _export(tmp_path / "b.json", env, BACKEND)
    assert first == second
    assert first.endswith(b"}\n") and not first.endswith(b"\n\n")
    document = json.loads(first)
    assert "/api/v1/sessions" in document["paths"]
    assert "/api/v1/sessions/{session_id}/autopilot" in document["paths"]
    assert first.decode("utf-8") == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert list(work.iterdir()) == []  # no database file, no data directory
