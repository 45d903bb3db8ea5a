"""The numbers worked by hand in docs/ are the engine's numbers.

Oracle: the hand calculations written out in docs/metrics.md (each step shown there). The doc's result tables, between
``<!-- worked-examples:start NAME -->`` and ``<!-- worked-examples:end -->``, are parsed here and every value is
recomputed with the engine; a row without a computation, or a computation without a row, fails too. The published
figures table of docs/challenges.md must equal tests/data/expected.tsv (whose programs the engine scores in
tests/engine/test_ir_reference.py), and the ByteDMD reference table is recomputed.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from engine.challenges.symmetry import baseline as symmetry_baseline
from engine.ir.cost import read_cost
from engine.ir.instruction_set import MATMUL_V0
from engine.ir.parser import parse
from engine.metrics.bytedmd import bytedmd
from engine.metrics.clock import ARD, ARD_PER_READ, DMC, clock_metrics
from engine.metrics.lru_stack import observe_depths
from engine.scoring.ir import score_ir
from engine.tracing import EventLog, track

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
_BLOCK = re.compile(r"<!-- worked-examples:start (\S+) -->\n(.*?)<!-- worked-examples:end -->", re.S)
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*([-0-9.,]+)\s*\|\s*$")


def _table(text: str, start: str, end: str) -> list[list[str]]:
    """The body rows of the Markdown table between two marker comments, as stripped cells."""
    body = text.split(start, 1)[1].split(end, 1)[0]
    rows = [line for line in body.strip().splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def doc_values() -> dict[str, str]:
    """Every ``name -> value text`` row of every worked-examples block in docs/*.md."""
    found: dict[str, str] = {}
    for page in sorted(DOCS.glob("*.md")):
        for block, body in _BLOCK.findall(page.read_text(encoding="utf-8")):
            for line in body.splitlines():
                match = _ROW.match(line)
                if match:
                    name, value = match.groups()
                    assert name not in found, f"{name} appears twice in docs/"
                    assert name.split(".")[0] == block, f"{name} sits in the {block!r} block of {page.name}"
                    found[name] = value
    return found


# --- the computations, one per documented example -------------------------------------------------------------


def _dally_ok(challenge: str, text: str) -> float:
    result = score_ir(challenge, text)
    assert result.ok, result.failure
    return result.metrics["dally@1"]


def _dally_static(text: str) -> float:
    """Cost of a program that belongs to no challenge: the engine's parser and read cost, operand and output reads."""
    program = parse(text, MATMUL_V0)
    return float(read_cost(np.concatenate((program.reads()[1], program.outputs))).sum())


def _five_events() -> dict[str, float]:
    # write a(1), write b(2), read a(1), read b(2), read a(1)
    return clock_metrics([True, True, False, False, False], [0, 1, 0, 1, 0], [1, 2, 1, 2, 1])


def _numpy_example() -> dict[str, float]:
    log = EventLog()
    x = track(np.arange(1.0, 5.0), log)  # 4 floats
    w = track(np.array([0.5]), log)  # 1 float
    h = x * w
    y = h + x
    metrics = clock_metrics(*log.arrays())
    assert y.tolist() == [1.5, 3.0, 4.5, 6.0]  # after the metrics: tolist() is itself a read of y
    return metrics


def _second_read_depth() -> float:
    # write a, write b, read a, write c, read a (keys a=0, b=1, c=2)
    depths = observe_depths([True, True, False, True, False], [0, 1, 0, 2, 0])
    assert depths.tolist()[0] == 2
    return float(depths[-1])


COMPUTED: dict[str, Callable[[], float]] = {
    "dally.matmul_1x1": lambda: _dally_ok("matmul_1x1", "1,2\nmul 3,1,2\n3"),
    "dally.copy_to_cell_5": lambda: _dally_ok("matmul_1x1", "1,2\ncopy 5,1\nmul 1,5,2\n1"),
    "dally.five_inputs": lambda: _dally_static("1,2,3,4,5\nmul 1,1,2\nmul 2,3,4\nadd 1,1,2\nadd 1,5\n1"),
    "dally.symmetry_six_baseline": lambda: _dally_ok("symmetry_six", symmetry_baseline(6)),
    "bytedmd.add3": lambda: bytedmd(lambda a, b, c: (a + b) + c, (1, 2, 3)),
    "bytedmd.add3_2_bytes": lambda: bytedmd(lambda a, b, c: (a + b) + c, (1, 2, 3), bytes_per_element=2),
    "bytedmd.add3_4_bytes": lambda: bytedmd(lambda a, b, c: (a + b) + c, (1, 2, 3), bytes_per_element=4),
    "bytedmd.square_plus": lambda: bytedmd(lambda a, b: a * a + b, (3, 4)),
    "bytedmd.dot2": lambda: bytedmd(lambda a, b: a[0] * b[0] + a[1] * b[1], ([1, 2], [3, 4])),
    "bytedmd.dot2_sum": lambda: bytedmd(lambda a, b: sum(x * y for x, y in zip(a, b, strict=True)), ([1, 2], [3, 4])),
    "clock.five_events.ard": lambda: _five_events()[ARD],
    "clock.five_events.ard_per_read": lambda: _five_events()[ARD_PER_READ],
    "clock.five_events.dmc": lambda: _five_events()[DMC],
    "clock.numpy.ard": lambda: _numpy_example()[ARD],
    "clock.numpy.ard_per_read": lambda: _numpy_example()[ARD_PER_READ],
    "clock.numpy.dmc": lambda: _numpy_example()[DMC],
    "dmd.second_read_depth": _second_read_depth,
}


def test_every_documented_example_has_a_computation_and_back() -> None:
    assert sorted(doc_values()) == sorted(COMPUTED)


@pytest.mark.parametrize("name", sorted(COMPUTED))
def test_documented_value_is_the_engines(name: str) -> None:
    text = doc_values()[name]
    decimals = len(text.split(".")[1]) if "." in text else 0
    computed = COMPUTED[name]()
    assert round(float(computed), decimals) == float(text.replace(",", "")), f"{name}: engine gives {computed}"


def test_published_figures_table_equals_expected_tsv() -> None:
    text = (DOCS / "challenges.md").read_text(encoding="utf-8")
    doc = {
        (row[0].strip("`"), row[1].strip("`"), row[2])
        for row in _table(text, "<!-- published-figures:start -->", "<!-- published-figures:end -->")
    }
    with (ROOT / "tests" / "data" / "expected.tsv").open(encoding="utf-8") as fh:
        data = {(r["file"], r["scorer"], r["cost"]) for r in csv.DictReader(fh, delimiter="\t")}
    assert doc == data


def _ones(n: int) -> list[list[int]]:
    return [[1] * n for _ in range(n)]


def _matvec(A, x):  # type: ignore[no-untyped-def]
    y = []
    for i in range(len(x)):
        s = A[i][0] * x[0]
        for j in range(1, len(x)):
            s = s + A[i][j] * x[j]
        y.append(s)
    return y


def _vecmat(A, x):  # type: ignore[no-untyped-def]
    y = []
    for j in range(len(x)):
        s = x[0] * A[0][j]
        for i in range(1, len(x)):
            s = s + x[i] * A[i][j]
        y.append(s)
    return y


def _matmul(A, B):  # type: ignore[no-untyped-def]
    n = len(A)
    C = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            s = A[i][0] * B[0][j]
            for k in range(1, n):
                s = s + A[i][k] * B[k][j]
            C[i][j] = s
    return C


def test_bytedmd_reference_table_is_the_engines() -> None:
    text = (DOCS / "metrics.md").read_text(encoding="utf-8")
    rows = _table(text, "<!-- bytedmd-reference:start -->", "<!-- bytedmd-reference:end -->")
    assert [row[0] for row in rows] == ["2", "4", "8", "16"]
    for n_text, mv, vm, mm in rows:
        n = int(n_text)
        computed = [
            bytedmd(_matvec, (_ones(n), [1] * n)),
            bytedmd(_vecmat, (_ones(n), [1] * n)),
            bytedmd(_matmul, (_ones(n), _ones(n))),
        ]
        assert computed == [int(v.replace(",", "")) for v in (mv, vm, mm)], f"N={n}"
