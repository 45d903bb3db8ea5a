"""Kind detection and the L0 lint: clear one-line refusals, non-blocking review flags."""

from __future__ import annotations

import pytest

from engine.sandbox.lint import SubmissionRefused, detect_kind, lint
from tests.engine.sandbox.conftest import submission


def test_kinds_are_detected_from_content() -> None:
    assert detect_kind("1,2;mul 3,1,2;3") == "ir"
    assert detect_kind("1, 2\nmul 3,1,2\n3\n") == "ir"
    assert detect_kind(submission("small_generate")) == "generate"
    assert detect_kind(submission("gf2_solve")) == "solve"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("print('hello')", "no solve() or generate()"),
        ("def solve(x, y, n, k):\n    pass\ndef generate():\n    pass\n", "both solve() and generate()"),
        ("this is ( not code", "neither IR text nor valid Python"),
    ],
)
def test_unclear_submissions_get_a_clear_message(text: str, needle: str) -> None:
    with pytest.raises(SubmissionRefused) as err:
        detect_kind(text)
    assert needle in err.value.one_line()
    assert "\n" not in err.value.one_line()


def test_ctypes_import_is_refused_with_the_allowed_list() -> None:
    with pytest.raises(SubmissionRefused) as err:
        lint("import ctypes\ndef generate():\n    return ''\n", "generate")
    assert err.value.one_line() == (
        "line 1: your code imports ctypes, which is not allowed — use numpy, math, itertools, functools or collections"
    )


def test_from_imports_and_relative_imports_are_checked() -> None:
    for code in (
        "from os import path\ndef solve(x, y, n, k):\n    return []\n",
        "from . import x\ndef solve(x, y, n, k):\n    return []\n",
    ):
        with pytest.raises(SubmissionRefused):
            lint(code, "solve")


def test_missing_entry_point_says_what_to_define() -> None:
    with pytest.raises(SubmissionRefused) as err:
        lint("def helper():\n    return 1\n", "solve")
    assert "does not define solve()" in err.value.one_line()
    assert "solve(x, y, n_bits, k_sparse)" in err.value.hint


def test_escape_constructs_are_flagged_not_refused() -> None:
    code = "import numpy as np\ndef solve(x, y, n, k):\n    z = x.view(np.ndarray)\n    return getattr(z, 'x')\n"
    report = lint(code, "solve")
    assert report.kind == "solve"
    assert "line 3: .view" in report.flags and "line 4: getattr" in report.flags


def test_honest_submissions_have_no_flags() -> None:
    assert lint(submission("gf2_solve"), "solve").flags == []
    assert lint(submission("brute_force_solve"), "solve").flags == []
