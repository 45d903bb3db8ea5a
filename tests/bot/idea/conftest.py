"""The fake Anthropic Messages API fixture for the /idea tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.anthropic_server import FakeAnthropic


@pytest.fixture
def anthropic_fake(anthropic_sdk: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeAnthropic]:
    """The fake Messages API; the SDK's own environment lookups are cleared so only our settings count."""
    for var in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_PROFILE",
        "SUTRO_ANTHROPIC_API_KEY",
        "ANTHROPIC_CUSTOM_HEADERS",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path / "anthropic-config"))
    fake = FakeAnthropic().start()
    yield fake
    fake.stop()
