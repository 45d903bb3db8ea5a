"""What a job's process reaches. Secrets only where needed: a job's process, started as the code starts it, sees no
bot token and no secret environment variable; jobs on Dask workers get neither the Anthropic nor the Google key (an
assistant command runs on the bot's host instead, with the key). The sprint log: a job on a Dask worker only queues
its entry; the bot process writes it, into the bot's data directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import build_context, run_in_worker
from bot.commands import COMMANDS
from bot.commands.base import Caller, Invocation
from bot.executors.dask_cluster import DaskExecutor
from bot.executors.job_settings import scrub_environment, secret_variable_names
from bot.settings import Settings
from bot.telegram_app.outbox_job import drain_outbox
from tests.executors.env_report_command import ASSISTANT_ENV_REPORT, BLAS_VARIABLES, ENV_REPORT
from tools.sprint_log.markdown_sink import SPRINT_LOG_FILE

LOG = next(c for c in COMMANDS if c.name == "log")

ROOT = Path(__file__).resolve().parents[2]

SECRETS = {
    "SUTRO_TELEGRAM_BOT_TOKEN": "123:bot-token",
    "SUTRO_TELEGRAM_WEBHOOK_SECRET": "hook-secret",
    "SUTRO_ANTHROPIC_API_KEY": "sk-ant-sutro",
    "ANTHROPIC_API_KEY": "sk-ant-plain",
    "GOOGLE_APPLICATION_CREDENTIALS": "/keys/google.json",
}


def _secret_settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        data_dir=tmp_path / "data",
        telegram_bot_token=SecretStr("123:bot-token"),
        telegram_webhook_secret=SecretStr("hook-secret"),
        anthropic_api_key=SecretStr("sk-ant-sutro"),
        google_service_account_file=tmp_path / "google.json",
        dev_allow_unsandboxed=True,
    )


def test_the_secret_variables_are_the_secret_settings_and_their_aliases() -> None:
    assert secret_variable_names() == {
        "SUTRO_TELEGRAM_BOT_TOKEN",
        "SUTRO_TELEGRAM_WEBHOOK_SECRET",
        "SUTRO_ANTHROPIC_API_KEY",
        "ANTHROPIC_API_KEY",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "CREDENTIALS_DIRECTORY",
    }
    env = {**SECRETS, "SUTRO_DATABASE_URL": "postgresql+psycopg://db/sutro", "PATH": "/usr/bin"}
    assert scrub_environment(env) == sorted(SECRETS)
    assert env == {"SUTRO_DATABASE_URL": "postgresql+psycopg://db/sutro", "PATH": "/usr/bin"}


LOCAL_JOB = """
import asyncio, json, os, sys
from pathlib import Path
from pydantic import SecretStr
from bot.app import run_in_worker
from bot.executors.local import ProcessRunner
from bot.settings import Settings
from tools.sprint_log.markdown_sink import SPRINT_LOG_FILE
from bot.app import build_context
from bot.commands.base import Caller, Invocation
from bot.commands import COMMANDS
LOG = next(c for c in COMMANDS if c.name == "log")
from tests.executors.env_report_command import ENV_REPORT
tmp = Path(sys.argv[1])
settings = Settings(_env_file=None, data_dir=tmp / "data", telegram_bot_token=SecretStr("123:bot-token"),
                    telegram_webhook_secret=SecretStr("hook-secret"), anthropic_api_key=SecretStr("sk-ant-sutro"))
worker = ProcessRunner(settings, job=run_in_worker).worker(ENV_REPORT, Invocation(command="envreport"))
reply, status = asyncio.run(worker.run(lambda line, fraction=None: None))
print(json.dumps({"parent_env": sorted(k for k in os.environ if k in %r), "status": status, "job": reply.data}))
"""


@pytest.mark.slow
def test_a_local_job_process_sees_no_secret_variable_and_no_bot_token(tmp_path: Path) -> None:
    """In a fresh interpreter whose environment holds the secrets (as the bot's does under compose or systemd),
    the forkserver and so every job process starts from that environment; the job must not see them."""
    script = LOCAL_JOB % (sorted(SECRETS),)
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", ""), **SECRETS}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["parent_env"] == sorted(SECRETS)  # the premise: the bot's own environment holds them
    assert got["status"] == 0
    job = got["job"]
    assert job["env"] == []  # nothing secret in the job's environment
    assert job["token"] is False and job["webhook_secret"] is False
    assert job["anthropic_key"] is True  # a local job may draft an /idea: it keeps the key, in its settings only


BLAS_JOB = """
import asyncio, json, sys
from pathlib import Path
from bot.app import run_in_worker
from bot.commands.base import Invocation
from bot.executors.local import ProcessRunner
from bot.settings import Settings
from tests.executors.env_report_command import BLAS_REPORT
settings = Settings(_env_file=None, data_dir=Path(sys.argv[1]) / "data")
worker = ProcessRunner(settings, job=run_in_worker).worker(BLAS_REPORT, Invocation(command="blasreport"))
reply, status = asyncio.run(worker.run(lambda line, fraction=None: None))
print(json.dumps({"status": status, "job": reply.data}))
"""


@pytest.mark.slow
def test_a_local_job_process_runs_its_blas_on_one_thread(tmp_path: Path) -> None:
    """A job runs methods (one seed in its own process), so its BLAS must use one thread: started from an
    environment with no thread setting, the forkserver, and so every job process, gets 1 for each BLAS."""
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")}
    done = subprocess.run(
        [sys.executable, "-c", BLAS_JOB, str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["status"] == 0
    assert got["job"] == dict.fromkeys(BLAS_VARIABLES, "1")


@pytest.mark.slow
async def test_jobs_on_dask_workers_get_no_key_and_assistant_jobs_stay_on_the_bot_host(
    dask_client: object, tmp_path: Path
) -> None:
    executor = DaskExecutor(_secret_settings(tmp_path), client=dask_client, job=run_in_worker)  # type: ignore[arg-type]
    reply, status = await executor.worker(ENV_REPORT, Invocation(command="envreport")).run(lambda *_: None)
    assert status == 0 and reply.data is not None
    assert reply.data["env"] == []
    assert not any(reply.data[k] for k in ("token", "webhook_secret", "anthropic_key", "google_key_file"))
    reply, status = await executor.worker(ASSISTANT_ENV_REPORT, Invocation(command="envreport_assistant")).run(
        lambda *_: None
    )
    assert status == 0 and reply.data is not None
    assert reply.data["anthropic_key"] is True  # the host's settings: the cluster's have no key
    assert reply.data["token"] is False and reply.data["env"] == []


@pytest.mark.slow
async def test_a_note_logged_on_a_dask_worker_is_written_by_the_bot_into_its_own_data_directory(
    dask_client: object, tmp_path: Path
) -> None:
    settings = _secret_settings(tmp_path)
    bot_log = settings.data_dir / SPRINT_LOG_FILE
    executor = DaskExecutor(settings, client=dask_client, job=run_in_worker)  # type: ignore[arg-type]
    note = Invocation(command="log", args=["tried lr=0.1 on the cluster"], caller=Caller(name="ann", user_id=1))
    reply, status = await executor.worker(LOG, note).run(lambda *_: None)
    assert status == 0, reply.text
    assert "saved as entry 1; 1 entry waiting for the markdown sprint log (the bot process writes it)" in reply.text
    assert not bot_log.exists()  # the job only queued it
    await drain_outbox(build_context(settings))  # one round of the bot's periodic drain job
    assert "tried lr=0.1 on the cluster" in bot_log.read_text()
    assert "ann" in bot_log.read_text()
