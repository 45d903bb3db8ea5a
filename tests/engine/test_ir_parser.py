"""The IR text rules (docs/metrics.md#dally-ir-cost): separators, stripping, blank lines, CRLF, short forms, precise
errors — and the bulk reader agrees with the line-by-line reader on every program (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ir.bulk_reader import read_bulk
from engine.ir.errors import InvalidProgram
from engine.ir.instruction_set import INT8_V3, MATMUL_V0, Op
from engine.ir.parser import _body_by_line, _statements, parse

CANONICAL = "1,2\nmul 3,1,2\nadd 3,1\ncopy 4,3\n4"


def same_program(a: str, b: str, dialect=MATMUL_V0) -> None:  # type: ignore[no-untyped-def]
    pa, pb = parse(a, dialect), parse(b, dialect)
    for field in ("inputs", "outputs", "op", "dest", "src", "n_src", "imm"):
        assert np.array_equal(getattr(pa, field), getattr(pb, field)), field


@pytest.mark.parametrize(
    "variant",
    [
        "1,2;mul 3,1,2;add 3,1;copy 4,3;4",
        "1,2\r\nmul 3,1,2\r\nadd 3,1\r\ncopy 4,3\r\n4\r\n",
        "\n\n  1,2  \n\tmul 3,1,2   \n\n add 3,1\ncopy 4,3 \n 4\n\n",
        "1, 2\nmul 3, 1, 2\nadd 3, 1\ncopy 4, 3\n4",
        "1,2\nmul 3 , 1 ,2\nadd  3,1\ncopy 4,3;\n;4",
        "1,2\nmul 03,+1,2\nadd 3,1\ncopy 4,3\n4",
    ],
)
def test_equivalent_spellings_parse_to_the_same_program(variant: str) -> None:
    same_program(CANONICAL, variant)


def test_line_numbers_are_physical_lines() -> None:
    program = parse("\n1,2\n\nmul 3,1,2;add 3,1\n\ncopy 4,3\n4", MATMUL_V0)
    assert program.line.tolist() == [4, 4, 6]
    assert program.input_line == 2 and program.output_line == 7


def test_error_quotes_the_line_and_says_what_was_expected() -> None:
    with pytest.raises(InvalidProgram) as info:
        parse("1,2\nmul 3,1,2\n\nmul 3,1\nmul 3,q,2\n3", MATMUL_V0)
    assert info.value.one_line().startswith("line 5: `mul 3,q,2`: `q` is not an integer address")
    assert info.value.hint


def test_a_megabyte_line_is_quoted_short() -> None:
    with pytest.raises(InvalidProgram) as info:
        parse("1,2\nmul " + "9" * 1_000_000 + "x\n3", MATMUL_V0)
    assert len(info.value.one_line()) < 300


def test_short_forms_and_reads() -> None:
    program = parse(
        "1,2,3\nset 4,-1\nset 5,255\ncmp 6,1,2,ge\nselect 7,1,2,3\nnot 8,1\nabs 9,4\ndiv 1,2\n1,4,5", INT8_V3
    )
    assert program.op.tolist() == [Op.SET, Op.SET, Op.CMP, Op.SELECT, Op.NOT, Op.ABS, Op.DIV]
    assert program.imm.tolist() == [-1, -1, 5, 0, 0, 0, 0]  # 255 wraps to -1; ge is predicate 5
    assert program.n_src.tolist() == [0, 0, 2, 3, 1, 1, 2]
    assert program.src.tolist()[3] == [1, 2, 3] and program.src.tolist()[6] == [1, 2, 0]


def test_huge_matmul_addresses_stay_exact() -> None:
    big = 10**30
    program = parse(f"1,2\ncopy {big},1\nmul 3,{big},2\n3", MATMUL_V0)
    assert program.dest.dtype == object and program.dest.tolist() == [big, 3]


# --- the bulk reader and the line reader agree --------------------------------------------------------------------

OPS_V3 = ["add", "sub", "mul", "div", "and", "or", "xor", "copy", "not", "abs", "set", "cmp", "select"]
addr = st.integers(min_value=0, max_value=10**6)


@st.composite
def instruction(draw: st.DrawFn) -> str:
    op = draw(st.sampled_from(OPS_V3 + ["ad", "selec", "xorr", "cmp"]))
    n = draw(st.integers(min_value=0, max_value=5))
    if op == "set":
        operands = [str(draw(addr)), str(draw(st.integers(min_value=-140, max_value=270)))]
    elif op == "cmp" and n >= 3:
        operands = [str(draw(addr)) for _ in range(3)] + [
            draw(st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge", "xx"]))
        ]
    else:
        operands = [str(draw(addr)) for _ in range(n)]
    sep = draw(st.sampled_from([",", ", ", ",,", " ,"]))
    return f"{op} {sep.join(operands)}" if operands else op


@settings(max_examples=300, deadline=None)
@given(st.lists(instruction(), min_size=1, max_size=12), st.sampled_from([INT8_V3, MATMUL_V0]))
@pytest.mark.slow
def test_bulk_reader_matches_line_reader(body: list[str], dialect) -> None:  # type: ignore[no-untyped-def]
    text = "1\n" + "\n".join(body) + "\n1"
    lines, numbers = _statements(text)
    joined = ("\n".join(lines[1:-1]) + "\n").replace(", ", ",").encode()
    bulk = read_bulk(joined, 0, len(joined), len(lines) - 2, dialect) if joined.isascii() else None
    try:
        exact = _body_by_line(lines[1:-1], numbers[1:-1], dialect)
    except InvalidProgram:
        assert bulk is None  # the bulk reader never accepts what the line reader refuses
        return
    if bulk is not None:
        for got, want in zip(bulk, exact, strict=True):
            assert np.array_equal(got, want)
            assert got.dtype == want.dtype or want.dtype == object


@st.composite
def valid_instruction(draw: st.DrawFn) -> str:
    op = draw(st.sampled_from(OPS_V3))
    a = [str(draw(st.integers(min_value=1, max_value=10**15))) for _ in range(3)]
    sep = draw(st.sampled_from([",", ", "]))
    if op == "set":
        return f"set {a[0]}{sep}{draw(st.integers(min_value=-128, max_value=255))}"
    if op == "cmp":
        return f"cmp {sep.join(a)}{sep}{draw(st.sampled_from(['eq', 'ne', 'lt', 'le', 'gt', 'ge']))}"
    if op == "select":
        return f"select {sep.join(a)}{sep}{a[0]}"
    if op in ("copy", "not", "abs"):
        return f"{op} {a[0]}{sep}{a[1]}"
    return f"{op} {sep.join(a[: draw(st.sampled_from([2, 3]))])}"


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(valid_instruction(), min_size=1, max_size=40))
def test_bulk_reader_accepts_and_matches_canonical_programs(body: list[str]) -> None:
    numbers = np.arange(2, len(body) + 2)
    joined = ("\n".join(body) + "\n").replace(", ", ",").encode()
    bulk = read_bulk(joined, 0, len(joined), len(body), INT8_V3)
    assert bulk is not None
    for got, want in zip(bulk, _body_by_line(body, numbers, INT8_V3), strict=True):
        assert np.array_equal(got, want)


@pytest.mark.parametrize("name", ["selecx", "selext", "sel", "copz", "coppy", "o", "orr", "xo", "Add", "add2"])
def test_near_miss_op_names_are_unknown(name: str) -> None:
    text = "1,2,3\n" + "add 4,1,2\n" * 20 + f"{name} 4,1,2,3\n" + "or 4,1\n" * 20 + "4"
    with pytest.raises(InvalidProgram) as info:
        parse(text, INT8_V3)
    assert info.value.line == 22 and f"unknown op `{name}`" in info.value.message
