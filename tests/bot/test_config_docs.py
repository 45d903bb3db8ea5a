"""The README's tool-settings table and ``.env.example`` list every key of the schemas behind them."""

from __future__ import annotations

from pathlib import Path

from bot.config_docs import README_END, README_START, config_table_markdown, env_example
from bot.settings import Settings
from tools.config.schema import build_schema

ROOT = Path(__file__).resolve().parents[2]
REGENERATE = "stale; regenerate with: python -m bot.config_docs"


def test_readme_lists_every_tool_setting() -> None:
    block = (ROOT / "README.md").read_text().split(README_START)[1].split(README_END)[0]
    assert block == config_table_markdown(), f"README tool-settings table is {REGENERATE}"
    for name in build_schema():
        assert f"| `{name}` |" in block
    assert all(
        line.count(" | ") == 3 for line in block.splitlines()[2:]
    )  # "|" in a cell is escaped: 4 columns


def test_env_example_lists_every_setting_and_tool_key() -> None:
    text = (ROOT / ".env.example").read_text()
    assert text == env_example(), f".env.example is {REGENERATE}"
    for name in Settings.model_fields:
        assert f"# SUTRO_{name.upper()}=" in text
    for name in build_schema():
        assert f"#   {name} = " in text
