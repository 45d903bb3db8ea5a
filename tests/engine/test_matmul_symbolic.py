"""Matmul rules version 2 (engine/challenges/matmul_symbolic.py): the symbolic identity with the degree cap.

Oracles: hand-written programs whose polynomials are worked out by hand — Strassen's 2×2 (seven products of two
linear forms: degree two throughout, exact), a 1×1 program right on the fixed instance only (A = 1, B = 3: it adds
b − 3a, zero there and nowhere else), and a 1×1 program with a degree-three intermediate (a·a·b, equal to a·b at
a = 1); the group's published programs are checked in tests/bot/test_published_records.py.
"""

from __future__ import annotations

from engine.scoring.ir import score_ir

STRASSEN_2X2 = """1,2,3,4,5,6,7,8
add 9,1,4
add 10,5,8
mul 11,9,10
add 12,3,4
mul 13,12,5
sub 14,6,8
mul 15,1,14
sub 16,7,5
mul 17,4,16
add 18,1,2
mul 19,18,8
sub 20,3,1
add 21,5,6
mul 22,20,21
sub 23,2,4
add 24,7,8
mul 25,23,24
add 26,11,17
sub 26,26,19
add 26,26,25
add 27,15,19
add 28,13,17
sub 29,11,13
add 29,29,15
add 29,29,22
26,27,28,29"""


def test_strassen_passes_the_symbolic_rule() -> None:
    result = score_ir("matmul_2x2", STRASSEN_2X2)
    assert result.ok, result.failure
    assert result.rules == "matmul rules@2"


def test_a_program_right_on_the_fixed_instance_only_is_rejected() -> None:
    text = "1,2\nmul 3,1,2\nsub 4,2,1\nsub 4,4,1\nsub 4,4,1\nadd 3,3,4\n3"
    result = score_ir("matmul_1x1", text)
    assert not result.ok
    assert result.failure == "output 1 (address 3) is not C[0][0] = Σₖ A[0][k]·B[k][0] for every input"
    # the cost is still reported (⌈√addr⌉ per read: addresses 1 → 1, 2..4 → 2): mul 1+2, three subs 2+1 each,
    # add 2+2, the output read 2
    assert result.metrics == {"dally@1": 18}


def test_an_intermediate_above_degree_two_is_rejected_with_its_line() -> None:
    result = score_ir("matmul_1x1", "1,2\nmul 3,1,1\nmul 3,3,2\n3")
    assert not result.ok
    assert result.failure == "line 3: the product has degree 3; intermediates above degree 2 are rejected"


def test_a_cancelled_high_degree_term_is_still_rejected_where_it_is_formed() -> None:
    # (a·b)·(a − a) is the zero polynomial: no degree-three term is ever formed, so it passes the cap
    text = "1,2\nmul 3,1,2\nsub 4,1,1\nmul 4,3,4\nadd 3,3,4\n3"
    assert score_ir("matmul_1x1", text).ok
    # (a·b)·a is formed and rejected, even though it is subtracted again right after
    text = "1,2\nmul 3,1,2\nmul 4,3,1\nsub 4,4,4\nadd 3,3,4\n3"
    assert score_ir("matmul_1x1", text).failure == (
        "line 3: the product has degree 3; intermediates above degree 2 are rejected"
    )
