"""Render ``deploy/.env.example`` from :class:`bot.settings.Settings`: one commented ``SUTRO_…=`` line per field.

Regenerate after changing a setting: ``python -m bot.env_template > deploy/.env.example`` (a test checks the file
matches). Values are written as pydantic-settings parses them back: lists as JSON, booleans as true/false; secrets,
``None`` and machine-dependent defaults (a ``default_factory`` such as the data directory) are commented out.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo

from bot.settings import Settings

HEADER = """\
# Sutro assistant settings (generated from bot/settings.py by `python -m bot.env_template`; do not edit by hand).
# Copy to deploy/.env (compose) or /etc/sutro/sutro.env (systemd), mode 0600, and fill in the secrets.
# A commented-out line keeps the default noted above it; uncomment it to set a value.
"""

COMPOSE_ONLY = """\
# --- docker compose only (deploy/compose.yaml): the PostgreSQL password, also used to build SUTRO_DATABASE_URL ---
POSTGRES_PASSWORD=
"""


def _value(info: FieldInfo) -> str:
    if info.default_factory is not None:
        made: Any = info.default_factory()  # type: ignore[call-arg]
        return json.dumps(made) if isinstance(made, list | dict) and not made else ""
    default = info.default
    if default is None or isinstance(default, SecretStr):
        return ""
    if isinstance(default, bool):
        return "true" if default else "false"
    return str(default)


def _note(info: FieldInfo) -> str:
    if info.default_factory is not None and not _value(info):
        return "default: computed at start-up"
    if info.default is None:
        return "default: unset"
    return ""


def render_env_template() -> str:
    """The text of ``deploy/.env.example``."""
    prefix = str(Settings.model_config.get("env_prefix", ""))
    blocks = [HEADER]
    for name, info in Settings.model_fields.items():
        note = _note(info)
        comment = f"# {info.description or name}" + (f" ({note})" if note else "")
        value = _value(info)
        # an empty value is read back as "" (a Path "" is the current directory): leave such lines commented out
        off = "" if value or info.default == "" else "# "
        blocks.append(f"{comment}\n{off}{prefix}{name.upper()}={value}\n")
    blocks.append(COMPOSE_ONLY)
    return "\n".join(blocks)


if __name__ == "__main__":
    print(render_env_template(), end="")
