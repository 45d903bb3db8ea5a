"""docs/sandbox.md's limits table states the defaults the code enforces (engine/sandbox/limits.py).

The table is hand-written prose, so each row that names a `Limits` default is checked here against
``DEFAULT_LIMITS``: a changed constant without a changed table (or the reverse) fails this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.sandbox import limits as limits_module

DOC = Path(__file__).resolve().parents[2] / "docs/sandbox.md"
KIB, MIB, GIB = 1024, 1024**2, 1024**3


def _size(n: int) -> str:
    """Independent rendering of a byte count as the table writes it (``1 GiB``, ``64 KiB``)."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def _rows() -> dict[str, str]:
    """The limits table as {first cell: second cell}."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and not set(cells[0]) <= {"-"} and cells[0] != "limit":
            rows[cells[0]] = cells[1]
    return rows


def _expected() -> dict[str, str]:
    d = limits_module.DEFAULT_LIMITS
    elements = d.max_elements
    mi = f"{elements // MIB} Mi" if elements % MIB == 0 else f"{elements:,}"
    return {
        "CPU time": f"{d.cpu_s:g} s",
        "wall clock": f"{d.wall_s:g} s",
        "address space": _size(d.memory_bytes),
        "output (stdout/stderr)": _size(d.output_bytes),
        "file size in scratch": _size(d.file_bytes),
        "processes/threads, open files": f"{d.processes}, {d.open_files}",
        "remote-array requests per `solve()`": f"{d.max_ops:,} (`Limits.max_ops`)",
        "elements the parent holds for one `solve()`": f"{mi} ({elements:,}; `Limits.max_elements`)",
    }


@pytest.mark.parametrize("label", sorted(_expected()))
def test_limits_table_row_matches_code(label: str) -> None:
    rows = _rows()
    assert label in rows, f"docs/sandbox.md's limits table lost its row {label!r}"
    assert rows[label] == _expected()[label]


def test_judge_cpu_row_states_the_cap() -> None:
    row = next(v for k, v in _rows().items() if k.startswith("the judge's CPU for one `solve()`"))
    assert row.startswith(f"{limits_module.DEFAULT_LIMITS.judge_cpu_s:g} s ")


def test_scratch_total_is_four_files() -> None:
    assert _rows()["scratch in all"].startswith(_size(4 * limits_module.DEFAULT_LIMITS.file_bytes) + " ")


def test_judge_numpy_work_row_states_the_allowance() -> None:
    row = next(v for k, v in _rows().items() if k.startswith("the judge's numpy work for one `solve()`"))
    assert row == f"{limits_module.DEFAULT_LIMITS.parent_cpu_s:g} s (`Limits.parent_cpu_s`)"


def test_judge_address_space_row_states_the_limit() -> None:
    row = next(v for k, v in _rows().items() if k.startswith("the judge's own address space"))
    assert row.startswith(_size(limits_module.DEFAULT_LIMITS.judge_memory_bytes) + " (`Limits.judge_memory_bytes`)")
