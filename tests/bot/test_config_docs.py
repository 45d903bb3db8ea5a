"""The tool-settings table of docs/settings.md and ``.env.example`` list every key of the schemas behind them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.config_docs import README_END, README_START, SETTINGS_PAGE, config_table_markdown, env_example
from bot.services import SEED_FIELDS
from bot.settings import Settings
from tools.config.schema import build_schema

ROOT = Path(__file__).resolve().parents[2]
REGENERATE = "stale; regenerate with: python -m bot.config_docs"


def test_the_settings_page_lists_every_tool_setting() -> None:
    block = (ROOT / SETTINGS_PAGE).read_text().split(README_START)[1].split(README_END)[0]
    assert block == config_table_markdown(), f"{SETTINGS_PAGE} tool-settings table is {REGENERATE}"
    for name in build_schema():
        assert f"| `{name}` |" in block
    assert all(line.count(" | ") == 3 for line in block.splitlines()[2:])  # "|" in a cell is escaped: 4 columns


def test_env_example_lists_every_setting_and_tool_key() -> None:
    text = (ROOT / ".env.example").read_text()
    assert text == env_example(), f".env.example is {REGENERATE}"
    written = set(re.findall(r"^(?:# )?SUTRO_(\w+)=", text, re.M))
    assert written == {name.upper() for name in Settings.model_fields}
    for name in build_schema():
        assert f"#   {name} = " in text


def test_env_example_reads_back_as_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """Copied unchanged to .env, the file changes nothing: every active line is the setting's default."""
    for name in Settings.model_fields:
        monkeypatch.delenv(f"SUTRO_{name.upper()}", raising=False)
    example = str(ROOT / ".env.example")
    assert Settings(_env_file=example).model_dump() == Settings(_env_file=None).model_dump()  # type: ignore[call-arg]


def test_seeded_tool_keys_name_real_settings() -> None:
    assert set(SEED_FIELDS) <= set(build_schema())
    assert set(SEED_FIELDS.values()) <= set(Settings.model_fields)


def test_each_seeded_setting_has_one_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tool setting seeded from the environment has the same default there as in the /config schema (both read
    tools/config/defaults.py), so `sutro config get` with no configuration shows the documented default."""
    for name in list(os.environ):
        if name.startswith("SUTRO_"):
            monkeypatch.delenv(name)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    schema = build_schema()  # built-in defaults, nothing seeded
    for key, field in SEED_FIELDS.items():
        assert getattr(settings, field) == schema[key].default, key
    assert schema["assistant.model"].default == "claude-sonnet-5-5"  # the model docs/settings.md documents


def test_default_model_is_not_scheduled_for_retirement() -> None:
    """The default Claude model is not on the SDK's own list of deprecated models (the SDK warns on every call with
    one, and the API refuses it after the date): claude-sonnet-4-5 was, retiring 2026-11-30."""
    from anthropic.resources.messages.messages import DEPRECATED_MODELS

    assert build_schema()["assistant.model"].default not in DEPRECATED_MODELS
