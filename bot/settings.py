"""Settings from the environment (prefix ``SUTRO_``) or a ``.env`` file: the one place configuration enters.

Nothing reads these at import time: the composition root (``bot.app``) builds a :class:`Settings` and hands the
values down. Secrets are ``SecretStr`` so they never print in a repr or a log line.
"""

from __future__ import annotations

import os
from pathlib import Path

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
    telegram_bot_token: SecretStr | None = Field(default=None, description="Bot token from @BotFather.")
    allowed_chats: list[int] = Field(default_factory=list, description="Chat ids the bot answers in (deny by default).")
    admin_ids: list[int] = Field(default_factory=list, description="Telegram user ids allowed to run admin commands.")
    dev_allow_unsandboxed: bool = Field(
        default=False, description="Development only: run submitted code even when no sandbox tier is available."
    )
