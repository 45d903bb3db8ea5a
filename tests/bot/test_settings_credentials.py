"""Secret settings from systemd credential files (``LoadCredential=`` → ``$CREDENTIALS_DIRECTORY/<name>``).

Oracle: the files written here and the environment set here; systemd's contract (one file per credential, named
as in ``LoadCredential=NAME:…``, in the directory named by ``$CREDENTIALS_DIRECTORY``) is what the deploy unit uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import load_settings
from bot.executors.job_settings import scrub_environment
from bot.invocation import UsageError


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty credentials directory named by $CREDENTIALS_DIRECTORY, no secret variables, no .env."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for name in ("SUTRO_TELEGRAM_BOT_TOKEN", "SUTRO_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("SUTRO_TELEGRAM_WEBHOOK_SECRET", raising=False)
    directory = tmp_path / "credentials"
    directory.mkdir()
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(directory))
    return directory


def test_token_and_keys_come_from_credential_files_when_no_variable_sets_them(credentials: Path) -> None:
    (credentials / "telegram-bot-token").write_text("123456:ABC-token\n")
    (credentials / "anthropic-api-key").write_text("sk-ant-test")
    (credentials / "telegram-webhook-secret").write_text("hook-secret\r\n")
    settings = load_settings()
    assert settings.telegram_bot_token is not None
    assert settings.telegram_bot_token.get_secret_value() == "123456:ABC-token"
    assert settings.anthropic_api_key is not None
    assert settings.anthropic_api_key.get_secret_value() == "sk-ant-test"
    assert settings.telegram_webhook_secret is not None
    assert settings.telegram_webhook_secret.get_secret_value() == "hook-secret"


def test_a_variable_wins_over_the_credential_file(credentials: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (credentials / "telegram-bot-token").write_text("from-file")
    (credentials / "anthropic-api-key").write_text("key-from-file")
    monkeypatch.setenv("SUTRO_TELEGRAM_BOT_TOKEN", "from-env")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "key-from-env")
    settings = load_settings()
    assert settings.telegram_bot_token is not None and settings.anthropic_api_key is not None
    assert settings.telegram_bot_token.get_secret_value() == "from-env"
    assert settings.anthropic_api_key.get_secret_value() == "key-from-env"


def test_dotenv_wins_over_the_credential_file(credentials: Path) -> None:
    (credentials / "telegram-bot-token").write_text("from-file")
    Path(".env").write_text("SUTRO_TELEGRAM_BOT_TOKEN=from-dotenv\n")
    settings = load_settings()
    assert settings.telegram_bot_token is not None
    assert settings.telegram_bot_token.get_secret_value() == "from-dotenv"


def test_missing_or_empty_files_and_no_directory_give_no_value(
    credentials: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (credentials / "telegram-bot-token").write_text("\n")
    settings = load_settings()
    assert settings.telegram_bot_token is None and settings.anthropic_api_key is None
    (credentials / "telegram-bot-token").write_text("123:tok")
    monkeypatch.delenv("CREDENTIALS_DIRECTORY")
    assert load_settings().telegram_bot_token is None


def test_only_secret_settings_are_read_from_credentials(credentials: Path) -> None:
    (credentials / "database-url").write_text("postgresql+psycopg://nobody@nowhere/db")
    (credentials / "database_url").write_text("postgresql+psycopg://nobody@nowhere/db")
    assert load_settings().database_url == ""


def test_an_unreadable_credential_is_one_line_naming_it(credentials: Path) -> None:
    (credentials / "telegram-bot-token").mkdir()  # reading it fails (root reads any mode, so not chmod)
    with pytest.raises(UsageError) as caught:
        load_settings()
    line = caught.value.one_line()
    assert "\n" not in line and "telegram-bot-token" in line and "CREDENTIALS_DIRECTORY" in line
    assert "LoadCredential" in line


def test_job_processes_do_not_keep_the_credentials_directory() -> None:
    environ = {"CREDENTIALS_DIRECTORY": "/run/credentials/sutro.service", "PATH": "/usr/bin"}
    assert scrub_environment(environ) == ["CREDENTIALS_DIRECTORY"]
    assert environ == {"PATH": "/usr/bin"}
