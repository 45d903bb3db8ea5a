"""Settings from the environment (prefix ``SUTRO_``) or a ``.env`` file: the one place configuration enters.

Nothing reads these at import time: the composition root (``bot.app``) builds a :class:`Settings` and hands the
values down. Secrets are ``SecretStr`` so they never print in a repr or a log line; each can also come from a
systemd credential file (``$CREDENTIALS_DIRECTORY/telegram-bot-token`` …, :mod:`bot.credentials`) when neither the
environment nor ``.env`` sets it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

from bot.credentials import CredentialFiles
from tools.config import defaults

IdList = Annotated[list[int], NoDecode]
"""A list of Telegram ids from the environment: a JSON list (``[-100123, -100456]``), comma-separated ids
(``-100123,-100456``) or one id (``-100123``); parsed by :func:`id_list`."""


def id_list(value: object) -> object:
    """``-100123`` / ``-100123,-100456`` / ``[-100123]`` as a list of ints; anything else is left for pydantic
    to refuse (an error that names the setting)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"not a JSON list of ids ({err.msg})") from None
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise ValueError(f"{value!r} is not a chat or user id, nor a comma-separated list of them") from None


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/sutro`` (``~/.local/share/sutro``): the SQLite file, sprint log and incident log live here."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sutro"


class Settings(BaseSettings):
    """Every setting of the application, with its default. ``.env.example`` is generated from these fields."""

    model_config = SettingsConfigDict(env_prefix="SUTRO_", env_file=".env", extra="ignore")

    data_dir: Path = Field(
        default_factory=default_data_dir, description="Where the database, logs and sprint log live."
    )
    database_url: str = Field(default="", description="SQLAlchemy URL; empty = SQLite file in the data directory.")
    cache_dir: Path | None = Field(
        default=None,
        description=(
            "Where figures that depend only on engine code are kept (the built-in baseline programs' metrics); "
            "empty = cache/ in the data directory. Safe to share between deployments of any version."
        ),
    )
    sprint_log_sink: Literal["markdown", "gdocs"] = Field(
        default=defaults.SPRINT_LOG_SINK,
        description="Where sprint-log entries go: markdown (file in the data directory) or gdocs.",
    )
    google_docs_document_id: str = Field(
        default=defaults.SPRINT_LOG_DOCUMENT_ID,
        description="Sprint-log Google Doc id (between /d/ and /edit in its URL); needed for gdocs.",
    )
    google_service_account_file: Path | None = Field(
        default=None,
        description="Service-account JSON key; share the document with its client_email as Editor.",
    )
    google_docs_endpoint: str = Field(
        default="", description="Docs API endpoint override (tests and proxies); empty = Google's."
    )
    google_docs_timeout_s: float = Field(
        default=15.0, gt=0, description="Limit on each Google Docs call; a command waits about this long at most."
    )
    sprint_log_image_base_url: str = Field(
        default="",
        description="Public HTTPS address where the folder sprint-log-public/ in the data directory is served; "
        "charts then appear in the Google Doc as images (empty: a text line instead).",
    )
    telegram_bot_token: SecretStr | None = Field(default=None, description="Bot token from @BotFather.")
    allowed_chats: IdList = Field(default_factory=list, description="Chat ids the bot answers in (deny by default).")
    admin_ids: IdList = Field(default_factory=list, description="Telegram user ids allowed to run admin commands.")
    dev_allow_unsandboxed: bool = Field(
        default=False,
        description="Development only: run submitted code even when no sandbox tier is available.",
    )
    allowed_users: IdList = Field(
        default_factory=list,
        description="User ids the bot answers anywhere, e.g. in a private chat (deny by default).",
    )
    trust_anonymous_admins: bool = Field(
        default=False,
        description=(
            "Treat a message sent as the chat itself (anonymous group admin) as from a bot admin; off = only "
            "SUTRO_ADMIN_IDS are admins."
        ),
    )
    telegram_base_url: str = Field(
        default="https://api.telegram.org/bot",
        description="Bot API base URL; tests point it at a local fake server.",
    )
    telegram_base_file_url: str = Field(
        default="https://api.telegram.org/file/bot", description="Bot API file download base URL."
    )
    telegram_webhook_url: str = Field(
        default="",
        description="Public HTTPS URL Telegram posts updates to (webhook mode); empty = long polling, the default.",
    )
    telegram_webhook_listen: str = Field(default="127.0.0.1", description="Address the webhook server binds.")
    telegram_webhook_port: int = Field(default=8443, description="Port the webhook server listens on.")
    telegram_webhook_secret: SecretStr | None = Field(
        default=None, description="Secret Telegram sends with each webhook call; required in webhook mode."
    )
    telegram_timeout_s: float = Field(
        default=10.0, description="Connect/read/write timeout of Bot API calls (seconds)."
    )
    telegram_stale_after_s: float = Field(
        default=300.0,
        description="Commands older than this (seconds) when the bot sees them are skipped, not run.",
    )
    telegram_progress_interval_s: float = Field(
        default=2.0, description="Least time between two edits of a job's progress message (seconds)."
    )
    telegram_chat_gap_s: float = Field(
        default=1.0, description="Least time between two sends or edits in one chat (seconds; Telegram: 1 s)."
    )
    telegram_group_per_minute: int = Field(
        default=20, description="Most sends and edits to one group in any 60 s (Telegram: 20; 0 = off)."
    )
    telegram_overall_per_s: int = Field(
        default=30, description="Most sends and edits to all chats in any second (Telegram: 30; 0 = off)."
    )
    telegram_patience_s: float = Field(
        default=120.0,
        description="How long a reply may keep failing (rate limits, outage) before it is stored and sent later.",
    )
    job_workers: int = Field(default=2, description="Worker processes running queued commands at the same time.")
    job_queue_per_member: int = Field(
        default=defaults.QUEUE_PER_MEMBER,
        description="Jobs one member may have queued or running before more wait behind others'.",
    )
    job_rate_per_minute: int = Field(default=10, description="Most jobs one member may submit per minute.")
    anthropic_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("SUTRO_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY", "anthropic_api_key"),
        description=(
            "Anthropic API key for /idea (SUTRO_ANTHROPIC_API_KEY or ANTHROPIC_API_KEY); nothing else needs it."
        ),
    )
    anthropic_base_url: str = Field(
        default="", description="Messages API base URL; empty = Anthropic's (tests: a fake)."
    )
    anthropic_model: str = Field(
        default=defaults.ASSISTANT_MODEL, description="Model /idea uses (seeds the assistant.model tool setting)."
    )
    anthropic_monthly_budget_tokens: int = Field(
        default=2_000_000,
        description="Input + output tokens /idea may use per calendar month (UTC), all members.",
    )
    anthropic_monthly_budget_usd: float = Field(
        default=defaults.ASSISTANT_MONTHLY_BUDGET_USD,
        description="Most /idea may spend per calendar month (USD), from the token prices below.",
    )
    anthropic_usd_per_mtok_input: float = Field(default=3.0, description="Price of a million input tokens (USD).")
    anthropic_usd_per_mtok_output: float = Field(default=15.0, description="Price of a million output tokens (USD).")
    anthropic_timeout_s: float = Field(default=60.0, description="Timeout of one Messages API request (seconds).")
    anthropic_max_retries: int = Field(
        default=2, description="Retries of a Messages API request on 429/529 overload and connection errors."
    )
    idea_rate_per_hour: int = Field(default=5, description="Most /idea requests one member may make per hour.")
    idea_max_turns: int = Field(default=8, description="Most assistant replies (tool-use rounds) for one /idea.")
    dask_scheduler: str = Field(
        default="",
        description="Dask scheduler address (tcp://host:8786) to run queued jobs on a cluster; empty = local workers.",
    )
    dask_fallback_local: bool = Field(
        default=False,
        description="Run jobs on the bot's own worker processes while the Dask scheduler stays unreachable.",
    )
    dask_requeue_wait_s: float = Field(
        default=120.0,
        gt=0,
        description="How long a job whose Dask cluster was lost waits for the scheduler to come back (seconds).",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Arguments, then the environment, then ``.env``, then systemd credential files (secrets only)."""
        return init_settings, env_settings, dotenv_settings, CredentialFiles(settings_cls), file_secret_settings

    _id_list = field_validator("allowed_chats", "admin_ids", "allowed_users", mode="before")(id_list)
