"""``sutro serve`` as a real subprocess against the fake Bot API: answers /help, exits 0 on SIGTERM, loses nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.telegram_harness import GROUP, MEMBER, TOKEN
from tests.fakes.bot_api import FakeBotApi

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


def test_serve_answers_help_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    fake = FakeBotApi(TOKEN).start()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SUTRO_TELEGRAM_BOT_TOKEN": TOKEN,
        "SUTRO_TELEGRAM_BASE_URL": fake.base_url,
        "SUTRO_TELEGRAM_BASE_FILE_URL": fake.base_file_url,
        "SUTRO_ALLOWED_CHATS": json.dumps([GROUP]),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        update_id = fake.push_update({"message": fake.message(chat_id=GROUP, user_id=MEMBER, text="/help")})
        calls = fake.wait_for(lambda cs: any("/challenges" in c.params.get("text", "") for c in cs), timeout=30)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        fake.stop()
    assert proc.returncode == 0, err.decode()
    assert "bot stopped" in out.decode()
    start_lines = [line for line in err.decode().splitlines() if line.startswith("sutro serve:")]
    assert start_lines == ["sutro serve: @sutro_test_bot started (long polling), answering in 1 allowed chat(s)"]
    assert "privacy mode is on" in err.decode()  # the fake's getMe says what Telegram says by default
    assert TOKEN not in err.decode() + out.decode()
    assert "setMyCommands" in [c.method for c in calls]  # the menu was published at start-up
    assert max(fake.poll_offsets) == update_id + 1  # the answered update was confirmed: not replayed on restart
    assert sum(c.method == "sendMessage" for c in fake.calls) == 1
