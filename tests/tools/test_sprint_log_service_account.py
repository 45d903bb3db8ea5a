"""The whole configured path: ``sutro log`` with SUTRO_* settings → a real service-account key file → a signed JWT
exchanged at the fake token endpoint → the note in the fake Google Doc."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.cli import main
from tests.fakes.docs_server import FakeDocsServer
from tools.sprint_log.docs_requests import document_text

DOC_ID = "1ServiceAccountFlowDocumentId_0123456789"


def write_key_file(path: Path, token_uri: str) -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    info = {
        "type": "service_account",
        "project_id": "sutro-test",
        "private_key_id": "k1",
        "private_key": pem.decode(),
        "client_email": "sprint-log@sutro-test.iam.gserviceaccount.com",
        "client_id": "1",
        "token_uri": token_uri,
    }
    path.write_text(json.dumps(info))


def test_cli_log_through_service_account_to_docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeDocsServer() as docs:
        docs.create(DOC_ID)
        key_file = tmp_path / "sa.json"
        write_key_file(key_file, f"{docs.endpoint}token")
        monkeypatch.setenv("SUTRO_SPRINT_LOG_SINK", "gdocs")
        monkeypatch.setenv("SUTRO_GOOGLE_DOCS_DOCUMENT_ID", DOC_ID)
        monkeypatch.setenv("SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE", str(key_file))
        monkeypatch.setenv("SUTRO_GOOGLE_DOCS_ENDPOINT", docs.endpoint)
        result = CliRunner().invoke(main, ["log", "tiling helps — 行列 🚀"])
        assert result.exit_code == 0, result.output
        assert "written to the gdocs sprint log" in result.output
        assert docs.tokens_issued == 1
        assert "tiling helps — 行列 🚀 — local\n" in document_text(docs.documents[DOC_ID].to_json())


@pytest.mark.slow
def test_cli_log_with_a_hung_docs_endpoint_returns_within_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An endpoint that accepts connections and never answers (token endpoint included): ``sutro log`` saves the
    note and returns after one request timeout, saying it is waiting (it took 3 tries x 15 s before)."""
    import time

    from storage.database import database_url_for, make_engine, session_factory
    from storage.outbox import entries

    with FakeDocsServer() as docs:
        docs.create(DOC_ID)
        key_file = tmp_path / "sa.json"
        write_key_file(key_file, f"{docs.endpoint}token")
        data_dir = tmp_path / "data"
        for name, value in {
            "SUTRO_DATA_DIR": str(data_dir),
            "SUTRO_SPRINT_LOG_SINK": "gdocs",
            "SUTRO_GOOGLE_DOCS_DOCUMENT_ID": DOC_ID,
            "SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE": str(key_file),
            "SUTRO_GOOGLE_DOCS_ENDPOINT": docs.endpoint,
            "SUTRO_GOOGLE_DOCS_TIMEOUT_S": "1",
        }.items():
            monkeypatch.setenv(name, value)
        import googleapiclient.discovery  # noqa: F401  # imported before the clock starts (seconds when cold)

        docs.hung.set()
        started = time.monotonic()
        result = CliRunner().invoke(main, ["log", "kept while Docs hangs"])
        elapsed = time.monotonic() - started
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the terminal wraps long lines
    assert "saved as entry 1; 1 entry waiting for the gdocs sprint log (Google Docs did not answer within 1 s)" in said
    assert elapsed < 1 + 5  # one timeout, plus building the client on a loaded machine
    with session_factory(make_engine(database_url_for("", data_dir)))() as session:
        assert [(e.title, e.state) for e in entries(session)] == [("kept while Docs hangs", "pending")]
