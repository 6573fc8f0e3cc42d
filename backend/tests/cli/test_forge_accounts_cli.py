"""`forge users|tokens|admin` on the embedded database, and `forge serve` refusing a public address
without authentication."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from forge.api.app import create_app
from forge.bootstrap.build_container import build_container
from forge.cli.main import main
from forge.config import Settings


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FORGE_DATA_DIR", str(tmp_path / "var"))
    for name in ("DATABASE_URL", "HOST", "FORGE_AUTH"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_users_add_takes_the_password_from_stdin_or_prints_a_generated_one_once(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["users", "add", "Ada@Example.org", "--admin"], capsys, stdin="a long enough password\n")
    assert code == 0 and "added admin ada@example.org" in out and "password" not in out
    code, out, _ = _run(["users", "add", "bob@example.org"], capsys)
    generated = re.search(r"password \(shown once\): (\S+)", out)
    assert code == 0 and generated is not None and len(generated.group(1)) >= 20
    code, out, _ = _run(["users", "list"], capsys)
    assert code == 0 and "admin   active    ada@example.org" in out and "member  active    bob@example.org" in out
    assert generated.group(1) not in out


def test_users_add_refuses_a_duplicate_and_a_short_password(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["users", "add", "ada@example.org"], capsys)[0] == 0
    code, _, err = _run(["users", "add", "ADA@example.org"], capsys)
    assert code == 2 and "already exists" in err
    code, _, err = _run(["users", "add", "eve@example.org"], capsys, stdin="short\n")
    assert code == 2 and "password must be" in err


def test_tokens_are_created_once_revoked_by_id_and_counted_in_admin_usage(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(["users", "add", "ada@example.org"], capsys)
    code, out, _ = _run(["tokens", "create", "ada@example.org", "--name", "ci"], capsys)
    token_id = re.search(r"^token (\S+) \(ci\)", out, flags=re.MULTILINE)
    secret = re.search(r"token \(shown once\): (kf_\S+)", out)
    assert code == 0 and token_id is not None and secret is not None
    code, out, _ = _run(["admin", "usage"], capsys)
    ada = next(line for line in out.splitlines() if line.startswith("ada@example.org"))
    assert code == 0 and ada.split()[-1] == "1"  # one active token
    code, out, _ = _run(["tokens", "revoke", token_id.group(1)], capsys)
    assert code == 0 and "revoked token" in out
    ada = next(line for line in _run(["admin", "usage"], capsys)[1].splitlines() if line.startswith("ada@"))
    assert ada.split()[-1] == "0"
    assert _run(["tokens", "create", "nobody@example.org"], capsys)[0] == 2
    assert _run(["tokens", "revoke", "not-an-id"], capsys)[0] == 2


@pytest.mark.parametrize("auth", [None, "off"])
def test_serve_refuses_a_public_address_without_auth_before_opening_anything(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, auth: str | None
) -> None:
    if auth is not None:
        monkeypatch.setenv("FORGE_AUTH", auth)
    code, _, err = _run(["serve", "--host", "0.0.0.0"], capsys)
    assert code == 2 and "FORGE_AUTH=on" in err and "0.0.0.0" in err
    assert not (data_dir / "var" / "forge.db").exists()  # refused before migrating


def test_the_app_itself_refuses_auth_off_on_a_public_address() -> None:
    container = build_container(
        Settings(embedder="hashed", database_url="sqlite+aiosqlite:///:memory:", host="0.0.0.0")
    )
    try:
        with pytest.raises(ValueError, match="FORGE_AUTH"):
            create_app(container)
    finally:
        asyncio.run(container.close())


def test_the_installed_command_exits_with_the_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("FORGE_AUTH", "DATABASE_URL")}
    env |= {"HOST": "0.0.0.0", "FORGE_DATA_DIR": str(tmp_path / "var")}
    forge = Path(sys.executable).with_name("forge")
    done = subprocess.run([str(forge), "serve"], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "FORGE_AUTH" in done.stderr, done.stderr
