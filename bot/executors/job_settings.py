"""Secrets only where needed: the settings a job's process is handed, and the environment it keeps.

No job needs the Telegram bot token or the webhook secret (the bot process alone talks to Telegram). A job on a
Dask worker needs neither the Anthropic key (commands that call the assistant run in the bot's host, see
``Command.needs_assistant``) nor the Google service-account key (its sprint-log entries only enter the database
outbox; the bot process delivers them). The settings travel pickled through the Dask scheduler, so what is left out
here never reaches the scheduler, the workers or their job processes.

Job processes start from a forkserver that inherited the bot's environment, where a deployment's ``.env`` secrets
usually live; :func:`scrub_environment` removes every variable that can carry a secret setting before the job runs
(the sandboxed child of a submission gets an empty environment anyway).
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

from pydantic import AliasChoices, SecretStr

from bot.settings import Settings

NEVER_IN_JOBS = ("telegram_bot_token", "telegram_webhook_secret")
"""Settings no job's process receives."""

NOT_ON_THE_CLUSTER = (*NEVER_IN_JOBS, "anthropic_api_key", "google_service_account_file")
"""Settings a job on a Dask worker does not receive."""

OTHER_SECRET_VARIABLES = ("GOOGLE_APPLICATION_CREDENTIALS", "CREDENTIALS_DIRECTORY")
"""Variables outside our settings that name a credential: Google's client libraries read the first on their own;
systemd's credentials directory holds the bot's token and keys (``LoadCredential=``, :mod:`bot.credentials`)."""


def settings_for_local_jobs(settings: Settings) -> Settings:
    """The settings handed to job processes started on the bot's host."""
    return settings.model_copy(update=dict.fromkeys(NEVER_IN_JOBS))


def settings_for_cluster_jobs(settings: Settings) -> Settings:
    """The settings handed to jobs on Dask workers (and so to the scheduler that holds the task)."""
    return settings.model_copy(update=dict.fromkeys(NOT_ON_THE_CLUSTER))


def secret_variable_names() -> frozenset[str]:
    """Every environment variable that sets a secret setting (``SecretStr`` fields, aliases included), plus
    :data:`OTHER_SECRET_VARIABLES`."""
    names = set(OTHER_SECRET_VARIABLES)
    prefix = str(Settings.model_config.get("env_prefix") or "")
    for name, field in Settings.model_fields.items():
        if SecretStr not in _types_of(field.annotation):
            continue
        names.add(f"{prefix}{name}".upper())
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names.update(str(choice).upper() for choice in alias.choices if isinstance(choice, str))
        elif isinstance(alias, str):
            names.add(alias.upper())
    return frozenset(names)


def scrub_environment(environ: MutableMapping[str, str] | None = None) -> list[str]:
    """Remove the secret variables from ``environ`` (default: this process's environment); returns their names."""
    target = os.environ if environ is None else environ
    secret = secret_variable_names()
    removed = sorted(name for name in target if name.upper() in secret)
    for name in removed:
        del target[name]
    return removed


def _types_of(annotation: object) -> tuple[object, ...]:
    args = getattr(annotation, "__args__", None)
    return tuple(args) if args else (annotation,)
