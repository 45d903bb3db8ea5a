"""Each rejection rule of the reference scorers (docs/metrics.md#dally-ir-cost), with a tiny hand-made program.

Static rules raise InvalidProgram naming the line; failures on the test data return ok=False with a one-line reason.
"""

from __future__ import annotations

import pytest

from engine.challenges.sparse_parity_instances import MEDIUM, instance
from engine.errors import EngineError
from engine.ir.errors import InvalidProgram
from engine.scoring.ir import score_ir

SYM6_HEAD = "1,2,3,4,5,6"


def rejected(challenge: str, text: str) -> InvalidProgram:
    with pytest.raises(InvalidProgram) as info:
        score_ir(challenge, text)
    message = info.value.one_line()
    assert "\n" not in message
    return info.value


@pytest.mark.parametrize(
    ("challenge", "text", "line", "phrase"),
    [
        ("matmul_1x1", "1,2\nmul 4,1,2\nmul 3,4,5\n3", 3, "`mul 3,4,5` reads address 5 before it is written"),
        (
            "matmul_1x1",
            "1,2\nmul 3,1,3\n3",
            2,
            "reads address 3 before it is written",
        ),  # own dest not yet written
        ("matmul_1x1", "1,2\nmul 3,1,2\n4", 3, "output address 4 is never written"),
        ("matmul_1x1", "1,2\nxor 3,1,2\n3", 2, "unknown op `xor`"),  # v0 only for matmul
        ("matmul_1x1", "1,2\nmul 3,1,2,1\n3", 2, "mul takes 2 or 3 operands"),
        ("matmul_1x1", "1,2\ncopy 3,1,2\n3", 2, "copy takes 2 operands"),
        ("matmul_1x1", "1,1\nmul 3,1,1\n3", 1, "input address 1 is listed twice"),
        ("matmul_1x1", "0,2\nmul 3,0,2\n3", 1, "address 0 is out of range"),
        ("matmul_1x1", "1,2\nmul -3,1,2\n3", 2, "out of range"),
        ("matmul_1x1", "1,2,3\nmul 3,1,2\n3", 1, "lists 3 addresses; this challenge has 2 inputs"),
        ("matmul_1x1", "1,2\nmul 3,1,x\n3", 2, "`x` is not an integer address"),
        (
            "matmul_1x1",
            "1,2\nmul 3,,2\n3",
            2,
            "an empty operand is not an integer",
        ),  # matmul: no empty tokens
        ("matmul_1x1", "1,2\nmul\n3", 2, "mul takes 2 or 3 operands (op d,a,b or op d,b), got 0"),
        ("symmetry_six", f"{SYM6_HEAD}\nset 7,256\n1", 2, "literal 256 is outside [-128, 255]"),
        ("symmetry_six", f"{SYM6_HEAD}\nset 7,-129\n1", 2, "literal -129 is outside"),
        ("symmetry_six", f"{SYM6_HEAD}\ncmp 7,1,2,eqq\n7", 2, "unknown cmp predicate `eqq`"),
        ("symmetry_six", f"{SYM6_HEAD}\ncmp 7,1,2\n7", 2, "cmp takes 4 operands"),
        ("symmetry_six", f"{SYM6_HEAD}\nselect 7,1,2\n7", 2, "select takes 4 operands"),
        ("symmetry_six", f"{SYM6_HEAD}\nnot 7,1,2\n7", 2, "not takes 2 operands"),
        ("symmetry_six", f"{SYM6_HEAD}\nset {2**64},1\n1", 2, "out of range"),  # address bit length 65
        ("symmetry_six", f"{SYM6_HEAD}\nfoo 7,1\n7", 2, "unknown op `foo`"),
        ("symmetry_six", "1,2,3,4,5\ncopy 7,1\n7", 1, "this challenge has 6 inputs"),
        ("symmetry_six", f"{SYM6_HEAD}\ncopy 7,1\n7,7", 3, "this challenge has 1 outputs"),
        ("symmetry_six", "1,2,3,4,5,6", 0, "at least an input line and an output line"),
    ],
)
def test_static_rule_is_refused_with_line_and_reason(challenge: str, text: str, line: int, phrase: str) -> None:
    err = rejected(challenge, text)
    assert err.line == line
    assert phrase in err.message
    assert isinstance(err, EngineError)


def test_earliest_broken_line_is_reported() -> None:
    err = rejected("matmul_1x1", "1,2\nmul 4,9,2\nmul 3,1,0\n3")
    assert err.line == 2  # line 2 reads 9 unwritten; line 3 uses address 0


def test_address_bit_length_64_is_accepted_by_v3() -> None:
    top = 2**64 - 1  # 64 bits: allowed as a destination (never read, so cost only from the rest)
    result = score_ir(
        "symmetry_six",
        f"{SYM6_HEAD}\nset {top},1\n" + "cmp 1,1,6,eq\ncmp 2,2,5,eq\ncmp 3,3,4,eq\nand 1,2\nand 1,3\n1",
    )
    assert result.ok and result.metrics["dally@1"] == 20


def test_v3_skips_empty_tokens_like_the_reference() -> None:
    text = "1,2,3,4,5,6,\ncmp 1,1,6,eq,\ncmp 2,,2,5,eq\ncmp 3,3,4,eq\nand 1,2\nand 1,3\n1,"
    assert score_ir("symmetry_six", text).metrics["dally@1"] == 20


@pytest.mark.slow
def test_line_cap_counts_input_and_output_lines() -> None:
    body = "\n".join(["copy 7,1"] * 99_998)
    assert score_ir("symmetry_six", f"{SYM6_HEAD}\n{body}\n7").counts["instructions"] == 99_998  # 100,000 lines
    err = rejected("symmetry_six", f"{SYM6_HEAD}\n{body}\ncopy 7,1\n7")
    assert "100,001 lines" in err.message and "at most 100,000" in err.message


def test_division_by_zero_is_a_failed_run_naming_line_and_instance() -> None:
    # x0 / x1 faults on the first pattern with x1 = 0, which is pattern 0 (all zeros)
    result = score_ir("symmetry_six", f"{SYM6_HEAD}\ndiv 7,1,2\n7")
    assert not result.ok
    assert result.failure == "line 2: division by zero on test instance 1/64"


def test_wrong_answer_names_instance_and_output() -> None:
    # compares only the outer pair: wrong first on a pattern with x0 == x5 but x1 != x4, i.e. code 2 (x1 = 1)
    result = score_ir("symmetry_six", f"{SYM6_HEAD}\ncmp 7,1,6,eq\n7")
    assert not result.ok
    assert result.failure == "wrong answer on test instance 3/64: output 1 (address 7) is 1, expected 0"
    assert result.metrics["dally@1"] == 1 + 3 + 3  # cost is static, reported even when wrong


def test_wrong_answer_on_one_hidden_instance() -> None:
    # a program that hard-codes the secret {0,1,2}: right exactly on the instances whose secret it is
    seeds = list(range(200, 208))
    secrets_ = [instance(s, MEDIUM)[2] for s in seeds]
    first_other = next(i for i, s in enumerate(secrets_) if s != (0, 1, 2))
    x_test = 8 * 8 + 8
    body = [f"xor {1000 + j},{x_test + j * 8 + 1},{x_test + j * 8 + 2}" for j in range(64)]
    body += [f"xor {1000 + j},{x_test + j * 8 + 3}" for j in range(64)]
    text = "\n".join([",".join(str(a) for a in range(1, 585)), *body, ",".join(str(1000 + j) for j in range(64))])
    result = score_ir("sparse_parity_medium", text, seeds=seeds)
    assert not result.ok
    assert result.failure is not None
    assert result.failure.startswith(f"wrong answer on hidden instance {first_other + 1}/8")
