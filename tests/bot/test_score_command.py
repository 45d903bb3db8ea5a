"""``sutro score`` through the real CLI (click's CliRunner): JSON shape, exit statuses, inference, and bad input
that must give one line — never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.reference_data import REFERENCE as REFERENCE_DIR

REFERENCE = REFERENCE_DIR / "ir"
RECORD = REFERENCE / "matmul__weighted_lifetime_copyelim_66707.ir"


def score(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["score", *args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def one_json(output: str) -> dict:  # type: ignore[type-arg]
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    return json.loads(lines[0])


def test_record_scores_with_inferred_challenge_as_json() -> None:
    code, out = score(str(RECORD), "--json")
    assert code == 0
    payload = one_json(out)
    assert payload["run_id"] == 1 and payload["reused"] is False
    expected = {  # the record's published figures (reference/expected.tsv)
        "challenge": "matmul_16x16",
        "ok": True,
        "kind": "ir",
        "cost": 66_707,
        "metric": "dally@1",
        "instructions": 9_605,
        "reads": 17_797,
        "judged_by": "ir",  # score is submit restricted to IR: the same judging path and provenance
        "error": None,
    }
    assert {key: payload[key] for key in expected} == expected


def test_human_output_is_a_short_table() -> None:
    code, out = score(str(REFERENCE / "matmul__baseline_4x4.ir"))
    assert code == 0
    assert "matmul_4x4: correct, dally@1 = 1,316" in out
    assert "instructions" in out and "112" in out


def test_stdin_and_explicit_challenge() -> None:
    code, out = score("-", "--challenge", "matmul_1x1", "--json", stdin=b"1,2;mul 3,1,2;3")
    assert code == 0 and one_json(out)["cost"] == 5


@pytest.mark.slow
def test_rejected_program_exits_1_with_one_line_error() -> None:
    code, out = score("-", "--json", stdin=b"1,2\nmul 3,1\n3\n")
    assert code == 1
    data = one_json(out)
    assert data["ok"] is False
    assert data["error"].startswith("line 2: `mul 3,1` reads address 3 before it is written")


@pytest.mark.slow
def test_wrong_answer_exits_1() -> None:
    path = REFERENCE / "sparse-parity__half_packed_approx50.ir"
    code, out = score(str(path), "--challenge", "sparse_parity_medium", "--json")
    assert code == 1
    assert "wrong answer on hidden instance" in one_json(out)["error"]
    code, out = score(str(path), "--challenge", "sparse_parity_medium_approx50", "--json")
    assert code == 0 and one_json(out)["cost"] == 8_723


def test_ambiguous_counts_name_the_fitting_challenges() -> None:
    code, out = score(str(REFERENCE / "sparse-parity__predpack_tuned_medium.ir"))
    assert code == 2
    flat = " ".join(out.split())  # rich wraps at the terminal width
    assert "sparse_parity_medium, sparse_parity_medium_approx50" in flat and "--challenge" in flat


def test_no_fitting_challenge_and_unknown_name() -> None:
    code, out = score("-", stdin=b"1,2,3\ncopy 4,1\n4")
    assert code == 2 and "no IR challenge has this program's input and output counts" in " ".join(out.split())
    code, out = score("-", "--challenge", "matmul_4x5", stdin=b"1,2\n1")
    assert code == 2 and "did you mean" in out and "matmul_4x4" in out


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        (b"\x00\x01\x02binary\xff" * 100, "not a text file"),
        (b"1,2\n\xff\xfe mul\n3", "not UTF-8 text"),
        (b"", "the file is empty"),
        (b"  \n\r\n ;; \n", "the file is empty"),
        (b"1,2\nmul 3," + b"7" * 1_000_000 + b"x\n3", "is not an integer address"),
    ],
)
def test_bad_files_get_one_line(tmp_path: Path, content: bytes, phrase: str) -> None:
    path = tmp_path / "bad.ir"
    path.write_bytes(content)
    code, out = score(str(path), "--challenge", "matmul_1x1", "--json")
    assert code == 1
    error = one_json(out)["error"]
    assert phrase in error and len(error) < 400
    code, out = score(str(path), "--challenge", "matmul_1x1")  # human form: the same line (rich may wrap it)
    assert code == 1 and out.startswith("rejected: ")


def test_crlf_and_trailing_spaces_score_the_same(tmp_path: Path) -> None:
    text = (REFERENCE / "matmul__baseline_4x4.ir").read_text()
    path = tmp_path / "crlf.ir"
    path.write_bytes("\r\n".join(line + "   " for line in text.splitlines()).encode())
    code, out = score(str(path), "--json")
    assert code == 0 and one_json(out)["cost"] == 1_316


@pytest.mark.slow
def test_fifty_megabyte_file_gets_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.ir"
    line = b"copy 3,1\n"
    path.write_bytes(b"1,2\n" + line * (50 * 2**20 // len(line)) + b"3\n")
    code, out = score(str(path), "--challenge", "symmetry_six", "--json")
    assert code == 2  # over the stored-code cap (limits.code_kib, 8 MiB): refused before the scorer sees it
    assert "bytes, over the limit of 8,192 KiB for stored code" in one_json(out)["error"]
    path.write_bytes(b"1,2\n" + line * 150_000 + b"3\n")  # 1.3 MiB: within the cap, over the scorer's line limit
    code, out = score(str(path), "--challenge", "symmetry_six", "--json")
    assert code == 1
    assert "lines; this scorer accepts at most 100,000" in one_json(out)["error"]


@pytest.mark.slow
def test_correct_but_huge_program_gets_a_result(tmp_path: Path) -> None:
    path = tmp_path / "huge.ir"
    body = "\n".join(["copy 4,1", "copy 5,2", "mul 3,4,5"] * 200_000)
    path.write_text(f"1,2\n{body}\n3\n")
    code, out = score(str(path), "--json")
    assert code == 0
    data = one_json(out)
    assert data["instructions"] == 600_000
    assert data["cost"] == 200_000 * (1 + 2 + 2 + 3) + 2  # copy 4,1; copy 5,2; mul 3,4,5 reads 4,5; output 3


@pytest.mark.slow
def test_every_score_is_stored_once_and_logged(tmp_path: Path) -> None:
    # the published baseline with a blank line: not the group's program (that one is credited to its author and
    # never logged as the member's, tests/tools/test_records_sync.py), same cost
    program = tmp_path / "baseline_4x4_mine.ir"
    program.write_text((REFERENCE / "matmul__baseline_4x4.ir").read_text().replace("\n", "\n\n", 1))
    code, out = score(str(program), "--json")
    first = one_json(out)
    code, out = score(str(program), "--json")
    again = one_json(out)
    assert code == 0 and again["run_id"] == first["run_id"] and again["reused"] is True
    code, out = score(str(program), "--json", "--force")
    forced = one_json(out)
    assert forced["run_id"] != first["run_id"] and forced["reused"] is False and forced["cost"] == 1316
    runs = CliRunner().invoke(main, ["runs", "--json"])
    assert runs.exit_code == 0
    assert json.dumps(json.loads(runs.output)).count("matmul_4x4") >= 2  # both stored runs are listed
    log_files = list((tmp_path / "sutro-data").rglob("*.md"))
    assert log_files, "the sprint log file was not written"
    assert "1,316" in log_files[0].read_text() or "1316" in log_files[0].read_text()


def test_a_rejected_program_is_stored_as_a_failed_run() -> None:
    code, out = score("-", "--challenge", "matmul_1x1", "--json", stdin=b"1,2\nmul 3,1,4\n3\n")
    payload = one_json(out)
    assert code == 1 and payload["ok"] is False and "run_id" in payload
    code, out = score("-", "--challenge", "matmul_1x1", "--json", stdin=b"1,2\nmul 3,1,4\n3\n")
    assert one_json(out)["run_id"] == payload["run_id"]


def test_a_byte_order_mark_is_refused_in_one_line_on_score_and_submit() -> None:
    # the group's scorer and the engine's API refuse the BOM (the first line no longer reads as integers); the
    # commands read files with the same reader, so the same bytes are refused everywhere
    program = b"\xef\xbb\xbf1,2;mul 3,1,2;3"
    code, out = score("-", "--challenge", "matmul_1x1", "--json", stdin=program)
    assert code == 1 and "byte-order mark" in one_json(out)["error"]
    submitted = CliRunner().invoke(main, ["submit", "-", "--challenge", "matmul_1x1", "--json"], input=program)
    assert "Traceback" not in submitted.output and submitted.exit_code != 0
    assert "byte-order mark" in submitted.output
    code, out = score("-", "--challenge", "matmul_1x1", "--json", stdin=program[3:])
    assert code == 0 and one_json(out)["cost"] == 5
