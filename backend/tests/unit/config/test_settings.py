"""Settings from the environment and `.env`: defaults run the embedded product."""

from __future__ import annotations

from pathlib import Path

from forge.bootstrap.model_routing import resolve_routes
from forge.config import Settings, read_env_file


def test_defaults_are_embedded_sqlite_offline_model_and_port_8000(tmp_path: Path) -> None:
    settings = Settings.from_env({"FORGE_DATA_DIR": str(tmp_path)})
    assert settings.database_url == f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    assert (settings.research, settings.port, settings.database_kind) == ("local", 8000, "sqlite")
    assert resolve_routes(settings).generator.name == "offline"


def test_port_and_database_url_override_the_defaults() -> None:
    settings = Settings.from_env({"PORT": "9001", "DATABASE_URL": "postgresql+asyncpg://u@h/db"})
    assert settings.port == 9001 and settings.database_kind == "postgresql"


def test_env_file_is_parsed_ignoring_comments_and_quotes(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("# comment\nPORT=9100\nexport LOG_LEVEL='debug'\n\nEMPTY=\nnot a pair\n", encoding="utf-8")
    assert read_env_file(env) == {"PORT": "9100", "LOG_LEVEL": "debug", "EMPTY": ""}
    assert read_env_file(tmp_path / "missing.env") == {}


def test_web_security_and_logging_settings_default_to_the_embedded_product() -> None:
    settings = Settings.from_env({})
    assert (settings.allowed_hosts, settings.public_url, settings.log_format) == ((), None, "text")


def test_allowed_hosts_public_url_and_log_format_are_read() -> None:
    settings = Settings.from_env(
        {
            "FORGE_ALLOWED_HOSTS": " forge.example.org, *.example.net ,,",
            "FORGE_PUBLIC_URL": "https://forge.example.org",
            "FORGE_LOG_FORMAT": "JSON",
        }
    )
    assert settings.allowed_hosts == ("forge.example.org", "*.example.net")
    assert (settings.public_url, settings.log_format) == ("https://forge.example.org", "json")
