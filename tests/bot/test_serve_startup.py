"""``sutro serve`` started against each bad setting answers one sentence and its documented exit status
(bot/startup.py), as a real subprocess: nothing else on stdout or stderr, no traceback.

Each part is broken the way an operator breaks it: Telegram unreachable (nothing listens at the Bot API URL), a
token Telegram refuses (the fake Bot API answers 401 to any other token), a data directory that is a file or lies
under one, a database that is down, a setting that does not parse, and a credential file that cannot be read.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.startup import EXIT_STATUS, Part
from tests.bot.telegram_harness import TOKEN
from tests.fakes.bot_api import FakeBotApi
from tests.refusing_port import refusing_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


@pytest.fixture
def fake() -> Iterator[FakeBotApi]:
    api = FakeBotApi(TOKEN).start()
    try:
        yield api
    finally:
        api.stop()


def serve(tmp_path: Path, fake: FakeBotApi, **variables: str) -> tuple[int, list[str]]:
    """Run ``sutro serve`` with a working configuration changed by ``variables``; (exit status, non-empty lines of
    stdout and stderr)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUTRO_") and k != "CREDENTIALS_DIRECTORY"}
    env.update(
        PYTHONPATH=str(ROOT),
        SUTRO_TELEGRAM_BOT_TOKEN=TOKEN,
        SUTRO_TELEGRAM_BASE_URL=fake.base_url,
        SUTRO_TELEGRAM_BASE_FILE_URL=fake.base_file_url,
        SUTRO_DATA_DIR=str(tmp_path / "data"),
        SUTRO_ALLOWED_CHATS="[-100]",
        COLUMNS="1000",  # rich wraps at 80 columns when stdout is not a terminal
    )
    env.update(variables)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    return done.returncode, lines


def one_sentence(lines: list[str], *words: str) -> str:
    assert len(lines) == 1, "\n".join(lines)
    line = lines[0]
    assert "Traceback" not in line and TOKEN not in line
    for word in words:
        assert word in line, line
    return line


def test_telegram_unreachable(tmp_path: Path, fake: FakeBotApi) -> None:
    with refusing_port() as port:
        status, lines = serve(tmp_path, fake, SUTRO_TELEGRAM_BASE_URL=f"http://127.0.0.1:{port}/bot")
    assert status == EXIT_STATUS[Part.NETWORK] == 4
    one_sentence(lines, "cannot be reached", "SUTRO_TELEGRAM_BASE_URL")


def test_a_token_telegram_refuses(tmp_path: Path, fake: FakeBotApi) -> None:
    status, lines = serve(tmp_path, fake, SUTRO_TELEGRAM_BOT_TOKEN="123456:wrong-token-for-this-bot")
    assert status == EXIT_STATUS[Part.TOKEN] == 5
    line = one_sentence(lines, "refused the bot token", "SUTRO_TELEGRAM_BOT_TOKEN")
    assert "wrong-token" not in line


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_an_unusable_data_directory(tmp_path: Path, fake: FakeBotApi, where: str) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be")
    data_dir = blocker if where == "a file" else blocker / "data"
    status, lines = serve(tmp_path, fake, SUTRO_DATA_DIR=str(data_dir))
    assert status == EXIT_STATUS[Part.DATA_DIR] == 6
    one_sentence(lines, str(data_dir), "SUTRO_DATA_DIR")
    assert blocker.read_text() == "a file where the data directory should be"  # nothing lost


def test_a_database_that_is_down(tmp_path: Path, fake: FakeBotApi) -> None:
    pytest.importorskip("psycopg")
    with refusing_port() as port:
        url = f"postgresql+psycopg://sutro:secret-pw@127.0.0.1:{port}/sutro"
        status, lines = serve(tmp_path, fake, SUTRO_DATABASE_URL=url)
    assert status == EXIT_STATUS[Part.DATABASE] == 7
    line = one_sentence(lines)
    assert "secret-pw" not in line


def test_a_setting_that_does_not_parse(tmp_path: Path, fake: FakeBotApi) -> None:
    status, lines = serve(tmp_path, fake, SUTRO_JOB_WORKERS="many")
    assert status == EXIT_STATUS[Part.SETTINGS] == 2
    one_sentence(lines, "SUTRO_JOB_WORKERS")


def test_an_unreadable_credential_file(tmp_path: Path, fake: FakeBotApi) -> None:
    credentials = tmp_path / "credentials"
    (credentials / "anthropic-api-key").mkdir(parents=True)  # a directory where the key file should be
    status, lines = serve(tmp_path, fake, CREDENTIALS_DIRECTORY=str(credentials))
    assert status == EXIT_STATUS[Part.SETTINGS] == 2
    one_sentence(lines, "anthropic-api-key")
