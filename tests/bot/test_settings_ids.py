"""Id lists in the environment (``SUTRO_ALLOWED_CHATS`` and friends): JSON, comma-separated or one id; garbage is
one line naming the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import load_settings
from bot.invocation import UsageError


@pytest.mark.parametrize(
    ("raw", "ids"),
    [
        ("-100123", [-100123]),
        ("-100123,-100456", [-100123, -100456]),
        (" -100123 , -100456 ,", [-100123, -100456]),
        ("[-100123, 55]", [-100123, 55]),
        ("", []),
    ],
)
def test_allowed_chats_accepts_one_id_a_comma_list_or_json(
    raw: str, ids: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("SUTRO_ALLOWED_CHATS", raw)
    monkeypatch.setenv("SUTRO_ADMIN_IDS", "7,8")
    settings = load_settings()
    assert settings.allowed_chats == ids
    assert settings.admin_ids == [7, 8]


@pytest.mark.parametrize("raw", ["sutro-group", "[1,", "-100123;-100456", '["x"]'])
def test_garbage_is_one_line_naming_the_variable(raw: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SUTRO_ALLOWED_CHATS", raw)
    with pytest.raises(UsageError) as caught:
        load_settings()
    line = caught.value.one_line()
    assert line.startswith("SUTRO_ALLOWED_CHATS: ") and "\n" not in line
