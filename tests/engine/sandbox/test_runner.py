"""Honest submissions work on the probed tier; failures read as one line; tier D refuses unless overridden."""

from __future__ import annotations

import numpy as np
import pytest

from engine.result import FailureKind
from engine.sandbox import judge as judge_module
from engine.sandbox import judge_solve, run_generate, run_trusted_limited, trusted
from engine.sandbox.limits import Limits
from engine.sandbox.lint import SubmissionRefused
from engine.sandbox.tier import TierReport, argv_prefix
from engine.sandbox.trusted import LimitExceeded
from tests.engine.sandbox.conftest import submission

TIER_D = TierReport("D", False, 0, False, None)


def _runs(tier: TierReport) -> bool:
    """On tier D, check that a submission is refused and tell the caller to stop there."""
    if tier.runs_submissions:
        return True
    with pytest.raises(SubmissionRefused, match="tier D"):
        run_generate(submission("small_generate"))
    return False


def test_tier_report_is_one_line_and_names_its_layers(tier: TierReport) -> None:
    text = tier.description
    assert "\n" not in text and text.startswith(f"sandbox tier {tier.tier}: ")
    layers = text.split(": ", 1)[1].split(" (")[0].split("; ")[0]
    assert ("bubblewrap" in layers) == tier.bubblewrap and ("seccomp" in layers) == tier.seccomp


def test_honest_generate_returns_its_ir_text(tier: TierReport) -> None:
    if not _runs(tier):
        return
    out = run_generate(submission("small_generate"))
    assert out.ok and out.text == "1,2\nmul 3,1,2\n3" and out.tier == tier.tier


def test_printed_ir_text_is_captured_when_generate_returns_none(tier: TierReport) -> None:
    if not _runs(tier):
        return
    out = run_generate("def generate():\n    print('1,2')\n    print('mul 3,1,2')\n    print('3')\n")
    assert out.text == "1,2\nmul 3,1,2\n3\n"


@pytest.mark.parametrize("name", ["gf2_solve", "brute_force_solve"])
@pytest.mark.slow
def test_honest_solve_passes_with_parent_measured_metrics(tier: TierReport, name: str) -> None:
    if not _runs(tier):
        return
    result = judge_solve(submission(name))
    assert result.ok, result.failure
    assert result.accuracy == 1.0 and result.kind == "solve"
    assert set(result.metrics) == {"dmc@1", "ard@1", "ard_per_read@1", "dmd@1", "bytedmd@2"}
    assert all("measured by the parent" in scope for scope in result.metric_scopes.values())
    assert result.metrics["dmc@1"] > 0 and result.metrics["dmd@1"] > 0 and result.counts["numpy_ops"] > 0


def test_metrics_are_identical_for_the_same_instance_and_code(
    tier: TierReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same instance, same code: the metered events do not depend on the child (two runs agree exactly)."""
    if not _runs(tier):
        return
    fixed = judge_module.hidden_instance(20, 3, 200, 1000)
    monkeypatch.setattr(judge_module, "hidden_instance", lambda *a: fixed)
    first = judge_solve(submission("gf2_solve"), instances=1)
    second = judge_solve(submission("gf2_solve"), instances=1)
    assert first.metrics == second.metrics and first.counts == second.counts


def test_a_wrong_answer_fails_on_accuracy(tier: TierReport) -> None:
    if not _runs(tier):
        return
    result = judge_solve("def solve(x, y, n_bits, k_sparse):\n    return [0]\n", instances=1)
    assert not result.ok and result.metrics == {}
    assert result.failure is not None and "below 0.95" in result.failure


def test_an_exception_is_reported_with_its_line(tier: TierReport) -> None:
    if not _runs(tier):
        return
    out = run_generate("def generate():\n    x = 1\n    return x / 0\n")
    assert out.failure == "line 3: ZeroDivisionError: division by zero"
    result = judge_solve("import numpy as np\ndef solve(x, y, n_bits, k_sparse):\n    return x[99999]\n", instances=1)
    assert result.failure is not None and result.failure.startswith("line 3: IndexError")


def test_tier_d_refuses_submitted_code_unless_overridden() -> None:
    with pytest.raises(SubmissionRefused, match="tier D"):
        run_generate(submission("small_generate"), tier=TIER_D)
    with pytest.raises(SubmissionRefused, match="tier D"):
        judge_solve(submission("gf2_solve"), tier=TIER_D)
    out = run_generate(submission("small_generate"), tier=TIER_D, dev_override=True)
    assert out.text == "1,2\nmul 3,1,2\n3"


@pytest.mark.slow
@pytest.mark.parametrize("forked", [True, False], ids=["forked", "fresh-interpreter"])
def test_trusted_callable_runs_limited(forked: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trusted, "FORK", forked)
    assert run_trusted_limited("math:comb", [20, 3]) == 1140  # C(20, 3)
    with pytest.raises(LimitExceeded, match=r"^memory limit \(256 MiB\) exceeded$") as hit:
        run_trusted_limited("numpy:ones", [10**9], Limits(memory_bytes=256 * 1024 * 1024))
    assert hit.value.kind is FailureKind.LIMIT
    with pytest.raises(LimitExceeded) as raised:  # an error of the callable is not a limit
        run_trusted_limited("math:sqrt", [-1.0])
    assert raised.value.kind is FailureKind.ERROR
    assert np.isclose(run_trusted_limited("math:sqrt", [2.0]), 2**0.5)


@pytest.mark.slow
def test_a_trusted_runs_memory_budget_is_what_it_may_add_to_its_forked_callers_size() -> None:
    mib = 1024 * 1024
    budget = Limits(memory_bytes=256 * mib)
    # 192 MiB fits: the allocation succeeds, and only its value cannot be sent back (an error of the call, no limit)
    with pytest.raises(LimitExceeded, match="not JSON serializable") as fits:
        run_trusted_limited("builtins:bytearray", [192 * mib], budget)
    assert fits.value.kind is FailureKind.ERROR
    with pytest.raises(LimitExceeded, match=r"^memory limit \(256 MiB\) exceeded$") as over:
        run_trusted_limited("builtins:bytearray", [320 * mib], budget)
    assert over.value.kind is FailureKind.LIMIT


def test_bwrap_mounts_tmp_before_binding_prefixes() -> None:
    """A checkout or venv under /tmp (as on CI) must not be hidden by the sandbox's own /tmp tmpfs."""
    argv = argv_prefix(TierReport("A", True, 1, True, None), Limits())
    tmpfs_at = next(i for i in range(len(argv) - 1) if argv[i] == "--tmpfs" and argv[i + 1] == "/tmp")
    for i in range(len(argv) - 1):
        if argv[i] in ("--ro-bind", "--dir", "--bind") and argv[i + 1].startswith("/tmp/"):
            assert i > tmpfs_at, f"{argv[i]} {argv[i + 1]} comes before the /tmp tmpfs and would be hidden"
