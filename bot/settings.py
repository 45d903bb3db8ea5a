"""Settings from the environment (prefix ``SUTRO_``) or a ``.env`` file: the one place configuration enters.

Nothing reads these at import time: the composition root (``bot.app``) builds a :class:`Settings` and hands the
values down. Secrets are ``SecretStr`` so they never print in a repr or a log line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/sutro`` (``~/.local/share/sutro``): the SQLite file, sprint log and incident log live here."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sutro"


class Settings(BaseSettings):
    """Every setting of the application, with its default. ``.env.example`` is generated from these fields."""

    model_config = SettingsConfigDict(env_prefix="SUTRO_", env_file=".env", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir, description="Where the database, logs and sprint log live.")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty = SQLite file in the data directory.")
    sprint_log_sink: Literal["markdown", "gdocs"] = Field(
        default="markdown", description="Where sprint-log entries go: markdown (file in the data directory) or gdocs."
    )
    google_docs_document_id: str = Field(
        default="", description="Sprint-log Google Doc id (between /d/ and /edit in its URL); needed for gdocs."
    )
    google_service_account_file: Path | None = Field(
        default=None, description="Service-account JSON key; share the document with its client_email as Editor."
    )
    google_docs_endpoint: str = Field(
        default="", description="Docs API endpoint override (tests and proxies); empty = Google's."
    )
    telegram_bot_token: SecretStr | None = Field(default=None, description="Bot token from @BotFather.")
    allowed_chats: list[int] = Field(default_factory=list, description="Chat ids the bot answers in (deny by default).")
    admin_ids: list[int] = Field(default_factory=list, description="Telegram user ids allowed to run admin commands.")
    dev_allow_unsandboxed: bool = Field(
        default=False, description="Development only: run submitted code even when no sandbox tier is available."
    )
