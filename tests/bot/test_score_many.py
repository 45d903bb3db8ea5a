"""``sutro score DIR`` and ``sutro score PATH PATH …``: every file judged in one process, one table row each, one line
per file that is not correct, nothing lost; exit status 1 when any is not correct.

Oracles: the published costs of expected.tsv; the refusal lines of ``score PATH`` for the same bad files.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from bot.cli import main
from tests.bot.test_json_schemas import documented
from tests.reference_data import REFERENCE

ROWS = {r["file"]: r for r in csv.DictReader((REFERENCE / "expected.tsv").read_text().splitlines(), delimiter="\t")}
MATMUL = ["matmul__baseline_4x4.ir", "matmul__outer_product_4x4.ir", "matmul__weighted_lifetime_copyelim_66707.ir"]


def folder(tmp_path: Path, bad: bool = True) -> Path:
    for name in MATMUL:
        (tmp_path / name).write_text((REFERENCE / "ir" / name).read_text())
    if bad:
        (tmp_path / "broken.ir").write_text("1,2\nadd 3,1\n3\n")
        (tmp_path / "binary.ir").write_bytes(b"\x00\x01")
        wrong = (REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_text().replace("mul", "add", 1)
        (tmp_path / "wrong.ir").write_text(wrong)
    (tmp_path / "notes.txt").write_text("not a program")
    return tmp_path


def run(*args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(main, ["score", *args, "--json"])
    return result.exit_code, json.loads(result.output)


def test_a_directory_is_judged_file_by_file_with_the_published_costs(tmp_path: Path) -> None:
    code, data = run(str(folder(tmp_path, bad=False)))
    assert code == 0 and data["ok"] is True and data["judged"] == data["correct"] == 3
    programs = data["programs"]
    assert isinstance(programs, list)
    by_name = {Path(str(p["file"])).name: p for p in programs}
    assert sorted(by_name) == sorted(MATMUL)  # notes.txt is not an .ir file
    for name in MATMUL:
        assert by_name[name]["cost"] == int(ROWS[name]["cost"])
        assert by_name[name]["challenge"] == ROWS[name]["scorer"]


def test_every_bad_file_gets_its_own_line_and_nothing_is_lost(tmp_path: Path) -> None:
    path = folder(tmp_path)
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "6 files judged in one process" in out and "3 correct, 3 not" in out
    single = CliRunner().invoke(main, ["score", str(path / "broken.ir"), "--json"])
    assert json.loads(single.output)["error"].split(" — ")[0] in out
    assert "NUL bytes" in out and "wrong answer" in out
    code, data = run(str(path))
    assert code == 1 and list(data) == documented("score_many")
    programs = data["programs"]
    assert isinstance(programs, list) and len(programs) == 6
    failures = {Path(str(p["file"])).name: p["failure"] for p in programs if not p["ok"]}
    assert sorted(failures) == ["binary.ir", "broken.ir", "wrong.ir"]
    assert all(isinstance(f, str) and "\n" not in f for f in failures.values())


def test_several_paths_and_a_named_board(tmp_path: Path) -> None:
    folder(tmp_path, bad=False)
    files = [str(tmp_path / name) for name in MATMUL[:2]]
    code, data = run(*files, "--challenge", "matmul_4x4")
    assert code == 0 and data["challenge"] == "matmul_4x4" and data["judged"] == 2
    code, data = run(str(tmp_path / MATMUL[2]), files[0], "--challenge", "matmul_4x4")
    programs = data["programs"]
    assert isinstance(programs, list)
    assert code == 1 and programs[0]["ok"] is False and programs[1]["ok"] is True


def test_a_directory_without_programs_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["score", str(tmp_path)])
    assert result.exit_code == 2 and "holds no .ir files" in " ".join(result.output.split())
    assert "Traceback" not in result.output
