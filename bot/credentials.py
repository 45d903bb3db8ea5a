"""Secret settings from systemd credentials: ``$CREDENTIALS_DIRECTORY/<name>`` files (``LoadCredential=``).

systemd copies each ``LoadCredential=NAME:PATH`` file into a directory only the service's (dynamic) user can read
and names it in ``$CREDENTIALS_DIRECTORY`` (deploy/README.md, "Where the secrets go"). Every secret setting (a
``SecretStr`` field of :class:`bot.settings.Settings`) can come from there, under its field name with dashes:
``telegram_bot_token`` from ``telegram-bot-token``, ``anthropic_api_key`` from ``anthropic-api-key``,
``telegram_webhook_secret`` from ``telegram-webhook-secret``. A variable in the environment or ``.env`` wins over a
credential file; a missing or empty file is no value; a file the service cannot read is a :class:`CredentialUnreadable`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

DIRECTORY_VARIABLE = "CREDENTIALS_DIRECTORY"
MAX_CREDENTIAL_BYTES = 64 * 1024
"""Largest credential file read (a token or API key is under 200 bytes; anything this large is a mistake)."""
HINT = "check the unit's LoadCredential= line and its source file (deploy/README.md)"


class CredentialUnreadable(Exception):
    """A credential file that exists but cannot be used; the message is one line and ``hint`` says what to do
    (the composition root turns it into a usage error, as it does a bad setting)."""

    def __init__(self, message: str, *, hint: str = HINT) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def credential_name(field_name: str) -> str:
    """The credential file of a secret setting: its field name with dashes (``telegram-bot-token``)."""
    return field_name.replace("_", "-")


def secret_fields(settings_cls: type[BaseSettings]) -> list[str]:
    """The fields of ``settings_cls`` typed ``SecretStr`` (optional or not)."""
    names = []
    for name, field in settings_cls.model_fields.items():
        args = getattr(field.annotation, "__args__", None) or (field.annotation,)
        if SecretStr in args:
            names.append(name)
    return names


def read_credential(directory: Path, name: str) -> str | None:
    """The text of credential ``name`` without its trailing line end; None when the file is missing or empty."""
    path = directory / name
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_CREDENTIAL_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise CredentialUnreadable(
            f"credential {name} in ${DIRECTORY_VARIABLE} cannot be read ({err.strerror or type(err).__name__})"
        ) from None
    if len(data) > MAX_CREDENTIAL_BYTES:
        raise CredentialUnreadable(
            f"credential {name} in ${DIRECTORY_VARIABLE} is larger than {MAX_CREDENTIAL_BYTES // 1024} KiB",
            hint="the file should hold the secret alone, on one line",
        )
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise CredentialUnreadable(
            f"credential {name} in ${DIRECTORY_VARIABLE} is not UTF-8 text",
            hint="the file should hold the secret alone, on one line",
        ) from None
    return text or None


class CredentialFiles(PydanticBaseSettingsSource):
    """A settings source reading the secret fields from ``$CREDENTIALS_DIRECTORY`` (nothing when it is unset)."""

    def __init__(self, settings_cls: type[BaseSettings], directory: str | None = None) -> None:
        super().__init__(settings_cls)
        chosen = directory if directory is not None else os.environ.get(DIRECTORY_VARIABLE, "")
        self.directory = Path(chosen) if chosen else None

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        if self.directory is None or field_name not in secret_fields(self.settings_cls):
            return None, field_name, False
        return read_credential(self.directory, credential_name(field_name)), field_name, False

    def __call__(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name, field in self.settings_cls.model_fields.items():
            value, key, _ = self.get_field_value(field, name)
            if value is not None:
                values[key] = value
        return values
