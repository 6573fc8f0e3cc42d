"""`python -m forge.api.export_openapi [PATH]`: write the API's OpenAPI document as JSON.

Invariants:
    - Deterministic: the same code gives the same bytes (sorted keys, indent 2, trailing newline),
      whatever the environment — the app is built from fixed embedded Settings (offline model, an
      in-memory SQLite URL), not from the environment or `.env`.
    - Opens no database and touches no file but PATH: the engine is created lazily and disposed
      without ever connecting. Without PATH the document goes to stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from forge.api.app import create_app
from forge.bootstrap.build_container import build_container
from forge.config import Settings

EXPORT_SETTINGS = Settings(database_url="sqlite+aiosqlite:///:memory:", model="offline")


def openapi_document() -> dict[str, Any]:
    container = build_container(EXPORT_SETTINGS)
    try:
        return create_app(container).openapi()
    finally:
        asyncio.run(container.close())


def openapi_json() -> str:
    return json.dumps(openapi_document(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0] in ("-h", "--help")):
        print("usage: python -m forge.api.export_openapi [PATH]  (stdout without PATH)", file=sys.stderr)
        return 2
    text = openapi_json()
    if args:
        path = Path(args[0])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
