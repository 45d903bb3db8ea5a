"""``export``: a journal in the group's research-log schema, a record table in the group's README format.

Oracles: the key order of SutroYaro's ``research/log.jsonl`` (its first line, cybertronai/SutroYaro at 989eb91:
id, researcher, date, challenge, hypothesis, method, changed, baseline, result, delta_pct, class, notes), the
group's published 4×4 record history (1,316 → 800 → 689 → 683 → 681 → 675 → 667, sutro-problems
``matmul/README.md``), hashlib for the SHA-256 sums, and the journal itself (each line's delta equals its step's).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.reference_data import REFERENCE
from tools.record_table import RecordRow, sha256sums, table

YARO_KEYS = [
    "id", "researcher", "date", "challenge", "hypothesis", "method", "changed", "baseline", "result", "delta_pct",
    "class", "notes",
]  # fmt: skip


def _run(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return json.loads(result.output)


@pytest.mark.slow  # 0.8 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_loop_s_journal_is_research_log_jsonl(_isolated_data_dir: Path) -> None:
    loop = _run("explore", "matmul_4x4")
    exported = _run("export", "journal")
    (path,) = exported["files"]
    lines = [json.loads(line) for line in Path(path).read_text().splitlines()]
    assert lines == exported["entries"] and len(lines) == len(loop["steps"])
    for line, step in zip(lines, loop["steps"], strict=True):
        assert list(line) == YARO_KEYS
        assert line["id"] == f"explore-{loop['loop_id']}-{step['step']:03d}" and line["researcher"] == "local"
        assert line["class"] == {"kept": "WIN", "discarded": "LOSS", "invalid": "LOSS"}[step["outcome"]]
        assert (
            line["delta_pct"] == {"dally@1": round(step["delta_pct"], 3)} and line["result"]["dally@1"] == step["cost"]
        )
    assert lines[0]["baseline"] == {"method": "built-in baseline", "dally@1": 1316}  # the published naive 4×4


def test_the_published_record_history_in_the_group_s_table_format() -> None:
    data = _run("export", "records", "matmul_4x4")
    assert [r["cost"] for r in data["rows"]] == [1316, 800, 689, 683, 681, 675, 667]
    (table_file,) = [f for f in data["files"] if f.endswith(".md")]
    text = Path(table_file).read_text()
    rows = [line for line in text.splitlines()[2:] if line.startswith("| 2026-")]
    assert len(rows) == 7 and rows[-1].startswith("| 2026-09-20 | 667 | [ir](https://github.com/cybertronai/")
    assert "(published)" not in text and "[@yaroslavvb](https://github.com/yaroslavvb)" in rows[0]


def test_a_member_row_links_its_program_and_its_sha256() -> None:
    program = (REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_text()
    row = RecordRow(
        date="2026-11-29", cost=1316.0, contributors=("ada",), description="found by /explore #3", program=program
    )
    line = table([row]).splitlines()[-1]
    expected = (
        "| 2026-11-29 | 1,316 | [ir](submissions/found_by_explore_3_1316.ir) | [@ada](https://github.com/ada) "
        "| found by /explore #3 |"
    )
    assert line == expected
    digest = hashlib.sha256(program.encode()).hexdigest()
    assert sha256sums([row]) == f"{digest}  submissions/found_by_explore_3_1316.ir\n"
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
