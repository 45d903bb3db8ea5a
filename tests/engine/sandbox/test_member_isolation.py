"""Members cannot touch each other (issue 29, point 4): at every tier one member's child cannot signal, trace or
read another member's child or the parent, and the weak-sandbox opt-in applies only where Landlock confines a
child that shares the bot's uid.

The attack of the issue, at tier C as root: every child ran as uid 65534 without a pid namespace, so one member's
child killed another member's running child. Here the attacker is given the victim's pid (found by the test, so
that no other process on the machine is ever targeted) and tries SIGKILL while the victim runs.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from engine.sandbox.generate import GeneratedIR, run_generate
from engine.sandbox.limits import Limits
from engine.sandbox.tier import SANDBOX_UID, TierReport, probe_tier
from engine.sandbox.uid_pool import job_uid, pool

LIMITS = Limits(cpu_s=5, wall_s=15)
VICTIM = "import time\ndef generate():\n    time.sleep(4)\n    return 'DONE:alive'\n"


def _attack(pid: int, body: str) -> str:
    return (
        "import os, signal\ndef generate():\n    try:\n"
        + "".join(f"        {line}\n" for line in body.format(pid=pid).splitlines())
        + "    except Exception as exc:\n        return 'BLOCKED:' + type(exc).__name__\n"
        + "    return 'DONE:' + str(result)\n"
    )


def _sandboxed_child(parent: int) -> int | None:
    """The pid of a child of ``parent`` that runs as a non-root uid (the sandbox after its uid drop)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["PPid"]) == parent and int(fields["Uid"].split()[0]) != 0:
            return int(entry.name)
    return None


def _tier_c() -> TierReport:
    probed = probe_tier()
    return TierReport("C", False, 0, probed.seccomp, probed.uid, ("forced for tests",))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("attack", "what"),
    [
        ("os.kill({pid}, signal.SIGKILL)\nresult = 'killed'", "signal"),
        ("result = open('/proc/{pid}/environ', 'rb').read()[:8]", "environment"),
        ("result = os.listdir('/proc/{pid}/fd')", "open files"),
    ],
)
def test_one_members_child_cannot_touch_another_running_child_at_tier_c(attack: str, what: str) -> None:
    if os.getuid() != 0:
        pytest.skip("as a normal user tiers B and C refuse submissions (tests below); tier A has a pid namespace")
    tier = _tier_c()
    if not tier.seccomp:
        pytest.skip("no seccomp: tier D")
    victim: list[GeneratedIR] = []
    thread = threading.Thread(
        target=lambda: victim.append(run_generate(VICTIM, LIMITS, tier=tier, check_imports=False))
    )
    thread.start()
    try:
        pid = None
        for _ in range(200):
            pid = _sandboxed_child(os.getpid())
            if pid is not None:
                break
            time.sleep(0.02)
        assert pid is not None, "the victim's child did not start"
        out = run_generate(_attack(pid, attack), LIMITS, tier=tier, check_imports=False)
    finally:
        thread.join()
    assert out.text is not None and out.text.startswith("BLOCKED:"), f"{what}: {out.text}"
    assert victim[0].failure is None and victim[0].text == "DONE:alive"


def test_two_running_children_never_share_a_uid() -> None:
    with job_uid(SANDBOX_UID) as first, job_uid(SANDBOX_UID) as second:
        assert first == SANDBOX_UID and second == SANDBOX_UID - 1
    with job_uid(SANDBOX_UID) as again:
        assert again == SANDBOX_UID  # free again once its run ended
    with job_uid(None) as none:
        assert none is None  # not root: children keep the engine's uid (bubblewrap or Landlock isolate them)
    assert len(set(pool(SANDBOX_UID))) == len(pool(SANDBOX_UID)) and min(pool(SANDBOX_UID)) > 65000


@pytest.mark.parametrize(
    ("tier", "runs"),
    [
        (TierReport("C", False, 0, True, None, weak_allowed=True), False),  # nothing confines a same-uid child
        (TierReport("B", False, 5, True, None, weak_allowed=True), False),  # no Landlock signal scope
        (TierReport("B", False, 6, True, None, weak_allowed=True), True),
        (TierReport("B", False, 7, True, None, weak_allowed=False), False),  # not opted in
        (TierReport("C", False, 0, True, SANDBOX_UID), True),  # root: a uid of its own per run
        (TierReport("A", True, 7, True, None), True),  # a pid namespace
    ],
)
def test_the_weak_opt_in_applies_only_where_landlock_confines_the_child(tier: TierReport, runs: bool) -> None:
    assert tier.runs_submissions is runs
    if not runs:
        message, hint = tier.refusal
        assert "\n" not in message + hint and "bot's own uid" in message
        assert "submissions refused" in tier.description


@pytest.mark.slow
def test_with_the_weak_opt_in_a_child_cannot_read_the_parents_environment_or_data() -> None:
    probed = probe_tier()
    if probed.landlock_abi < 6 or not probed.seccomp:
        pytest.skip("the weak opt-in needs Landlock ABI 6+ (checked above)")
    weak = TierReport("B", False, probed.landlock_abi, True, None, weak_allowed=True)
    for attack in (
        f"result = open('/proc/{os.getpid()}/environ', 'rb').read()[:8]",
        f"result = open('/proc/{os.getpid()}/cmdline', 'rb').read()[:8]",
        f"result = os.listdir('{Path.cwd()}')",
    ):
        out = run_generate(_attack(0, attack), LIMITS, tier=weak, check_imports=False)
        assert out.text is not None and out.text.startswith("BLOCKED:"), attack
