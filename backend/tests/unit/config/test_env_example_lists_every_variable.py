"""Every environment variable the backend reads is documented in `.env.example`."""

from __future__ import annotations

import re
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[3]
READ = re.compile(r"""env(?:\.get\(|\[)"([A-Z][A-Z0-9_]+)\"""")


def test_every_variable_read_by_config_is_in_env_example() -> None:
    read = set(READ.findall((BACKEND / "forge" / "config.py").read_text(encoding="utf-8")))
    example = (BACKEND.parent / ".env.example").read_text(encoding="utf-8")
    documented = set(re.findall(r"^([A-Z][A-Z0-9_]+)=", example, flags=re.MULTILINE))
    assert len(read) >= 15
    assert read <= documented, f"undocumented: {sorted(read - documented)}"
