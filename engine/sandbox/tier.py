"""Which sandbox tier this machine offers (docs/sandbox.md#tiers), probed once per process and cached.

A: bubblewrap + Landlock + seccomp + rlimits + uid · B: the same without bubblewrap (no user namespaces) · C:
no Landlock — seccomp + rlimits + uid, world-readable files stay readable · D: no seccomp — submitted code is
refused unless a development override is passed. The probe starts one real child with the chosen layers and
checks that a socket, a fork and a read of a planted file outside scratch are refused; a layer that fails the
check is dropped and the tier lowered. When the engine runs as root the child drops to uid 65534 (``nobody``)
after its imports; the interpreter and numpy need not be readable by that uid.

Isolation from the bot: submitted code runs only where it cannot act as the bot — under bubblewrap (its own
mount, pid and user namespaces: the bot's files, /proc and processes are not there) or under a separate uid
(the engine runs as root and drops to 65534). Tiers B and C started by a non-root bot would run submissions
with the bot's own uid (its /proc/<pid>/environ, open files, signals); they are refused with a one-line reason
naming what to install or enable, unless an admin sets ``SUTRO_ALLOW_WEAK_SANDBOX=1`` (logged at the probe and
shown in the tier's description, hence in /status) AND Landlock ABI 6+ confines the child (files and signals); at
tier C, or with an older Landlock, the opt-in does not apply and submissions are refused. As root each run gets a
uid of its own (:mod:`engine.sandbox.uid_pool`), so members' children cannot signal or read each other either.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from engine.blas_threads import ONE_BLAS_THREAD
from engine.sandbox import landlock
from engine.sandbox.limits import GIB, MIB, Limits
from engine.sandbox.seccomp_filter import library_paths

SANDBOX_UID = 65534
REPO_ROOT = Path(__file__).resolve().parents[2]
# Only the engine package is visible to a child — never the repository root with its .git, settings or data.
ENGINE_DIR = REPO_ROOT / "engine"
SCRATCH_IN_BWRAP = "/scratch"
WEAK_OPT_IN = "SUTRO_ALLOW_WEAK_SANDBOX"
WEAK_MIN_LANDLOCK_ABI = 6
"""The weak opt-in applies only where Landlock confines a child that shares the bot's uid: file access (the data
directory and /proc/<pid>/environ stay closed) and, from ABI 6, signals (scoped to the child's own domain)."""
_log = logging.getLogger(__name__)


def weak_sandbox_allowed() -> bool:
    """Whether an admin opted in to running submissions at a tier that shares the bot's uid."""
    return os.environ.get(WEAK_OPT_IN, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class TierReport:
    """The probed tier and its layers; ``description`` is the one line shown in /status and logs."""

    tier: str
    bubblewrap: bool
    landlock_abi: int
    seccomp: bool
    uid: int | None
    notes: tuple[str, ...] = field(default_factory=tuple)
    weak_allowed: bool = False

    @property
    def description(self) -> str:
        layers = [
            name
            for name, on in (
                ("bubblewrap", self.bubblewrap),
                (f"Landlock ABI {self.landlock_abi}", self.landlock_abi > 0),
                ("seccomp", self.seccomp),
                ("rlimits", True),
                (f"uid {self.uid}", self.uid is not None),
            )
            if on
        ]
        text = f"sandbox tier {self.tier}: " + " + ".join(layers)
        if self.tier == "C":
            text += " (no Landlock: world-readable files are readable by submissions)"
        if self.tier == "D":
            text += " (no seccomp: submitted code is refused without a development override)"
        elif self.tier == "B":
            text += (
                " (no mount namespace: scratch is a sealed private directory of fixed files; stat() still sees "
                "the names, sizes and times of paths whose directories the sandbox uid may search)"
            )
        if self.tier in ("B", "C") and not self.isolated:
            if not self.weak_confines:
                text += (
                    " — submissions refused: they would share the bot's uid, and without Landlock ABI "
                    f"{WEAK_MIN_LANDLOCK_ABI}+ confining their files and signals they could reach the bot's "
                    f"environment, data directory and other members' runs ({WEAK_OPT_IN} does not apply)"
                )
            elif self.weak_allowed:
                text += f" — WEAK: submissions share the bot's uid; allowed by {WEAK_OPT_IN}"
            else:
                text += " — submissions refused: they would share the bot's uid"
        elif self.uid is not None and self.tier in ("A", "B", "C"):
            text += f" (each run its own uid, {self.uid} down)"
        return text + (f"; {'; '.join(self.notes)}" if self.notes else "")

    @property
    def isolated(self) -> bool:
        """Submissions cannot act as the bot: bubblewrap namespaces, or a separate uid."""
        return self.bubblewrap or self.uid is not None

    @property
    def weak_confines(self) -> bool:
        """Whether a child sharing the bot's uid would still be kept from the bot and other members' runs: Landlock
        (no file outside the library prefixes and scratch opens: not the data directory, not /proc/<pid>/environ)
        with its signal scope (ABI 6+: no signal leaves the child's own domain). Without it the weak opt-in does not
        apply."""
        return self.landlock_abi >= WEAK_MIN_LANDLOCK_ABI

    @property
    def runs_submissions(self) -> bool:
        weak_ok = self.weak_allowed and self.weak_confines
        return self.tier in ("A", "B", "C") and (self.isolated or weak_ok)

    @property
    def refusal(self) -> tuple[str, str]:
        """Why submissions are not run here and what would fix it (message, hint); for tiers that refuse."""
        if self.tier == "D":
            return (
                "this machine cannot sandbox submitted code (tier D: no seccomp), so it was not run",
                "install libseccomp and pyseccomp, and bubblewrap (or pass the development override)",
            )
        if not self.weak_confines:
            return (
                f"submitted code is not run here: at tier {self.tier} it would run with the bot's own uid, and "
                f"without Landlock ABI {WEAK_MIN_LANDLOCK_ABI}+ it could reach the bot's environment and data",
                "install bubblewrap and allow unprivileged user namespaces (tier A), or run the engine as root so "
                f"each run drops to a uid of its own; {WEAK_OPT_IN} needs Landlock ABI {WEAK_MIN_LANDLOCK_ABI}+",
            )
        return (
            f"submitted code is not run here: at tier {self.tier} it would run with the bot's own uid",
            "install bubblewrap and allow unprivileged user namespaces (tier A), or run the engine as root so "
            f"submissions drop to uid {SANDBOX_UID}; an admin may accept the risk with {WEAK_OPT_IN}=1",
        )


def _library_dirs() -> set[str]:
    """The interpreter prefixes, the engine package, and site-/dist-packages dirs on the import path (a venv
    given through PYTHONPATH) — never other import-path entries such as the repository root."""
    names = ("site-packages", "dist-packages")
    extra = {p for p in sys.path if os.path.basename(p) in names and os.path.isdir(p)}
    return {sys.prefix, sys.base_prefix, str(ENGINE_DIR), *extra}


def read_only_prefixes() -> list[str]:
    """Directories a child may read beneath: the interpreter, the venv, the engine and system libraries."""
    paths = {*_library_dirs(), "/usr", "/lib", "/lib64"}
    return sorted(p for p in paths if os.path.exists(p))


def scratch_bytes(limits: Limits) -> int:
    """Size of the child's private scratch filesystem at tier A (four of its largest files, at most 256 MiB)."""
    return min(limits.file_bytes * 4, 256 * MIB)


def sealed_scratch_files(limits: Limits) -> int:
    """Files in a sealed scratch below tier A: as many of the largest files as fit in tier A's scratch size (4)."""
    return max(1, scratch_bytes(limits) // limits.file_bytes)


def argv_prefix(report: TierReport, limits: Limits) -> list[str]:
    """The bubblewrap command line for this tier (empty below tier A)."""
    if not report.bubblewrap:
        return []
    bwrap = shutil.which("bwrap") or "bwrap"
    if os.getuid() == 0:  # keep only what the bootstrap needs to drop to the sandbox uid itself
        ns = [
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
        ]
    else:
        ns = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    argv = [bwrap, *ns, "--die-with-parent", "--new-session", "--clearenv"]
    for key, value in ONE_BLAS_THREAD.items():
        argv += ["--setenv", key, value]
    # /tmp first: a tmpfs mounted after the prefix binds would hide a venv or checkout that lives under /tmp. It is
    # a small private tmpfs (never the host's /tmp), not writable by the child; scratch below is its only space.
    argv += ["--perms", "0755", "--size", str(MIB), "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]
    for link in ("lib", "lib64", "bin"):
        target = Path("/" + link)
        if target.is_symlink():
            argv += ["--symlink", os.readlink(target), "/" + link]
        elif target.exists():
            argv += ["--ro-bind", str(target), str(target)]
    prefixes = sorted(p for p in _library_dirs() if not p.startswith("/usr"))
    ancestors = sorted({str(a) for p in prefixes for a in Path(p).parents if str(a) != "/"}, key=len)
    for ancestor in ancestors:  # created traversable (the host's /root is 0700; the child's uid must pass)
        argv += ["--perms", "0755", "--dir", ancestor]
    for prefix in prefixes:
        argv += ["--ro-bind", prefix, prefix]
    argv += [
        "--ro-bind-try",
        "/etc/ld.so.cache",
        "/etc/ld.so.cache",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(scratch_bytes(limits)),
        "--tmpfs",
        SCRATCH_IN_BWRAP,
        "--chdir",
        SCRATCH_IN_BWRAP,
        "--",
    ]
    return argv


def _seccomp_available() -> bool:
    try:
        import pyseccomp

        pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    except Exception:  # noqa: BLE001 — missing module or missing libseccomp both mean "no seccomp"
        return False
    return True


def _candidate(bwrap: bool, abi: int, seccomp: bool) -> TierReport:
    uid = SANDBOX_UID if os.getuid() == 0 else None
    if not seccomp:
        return TierReport("D", False, 0, False, uid)
    tier = "A" if bwrap and abi > 0 else ("B" if abi > 0 else "C")
    return TierReport(tier, bwrap, abi, True, uid)


def _verify(report: TierReport) -> tuple[bool, str]:
    """Start one child with the report's layers and check that it is confined as promised."""
    from engine.sandbox.watchdog import run_child

    with tempfile.NamedTemporaryFile("w", prefix="sutro-probe-", delete=False) as fh:
        fh.write("planted secret\n")
    os.chmod(fh.name, 0o644)
    limits = Limits(cpu_s=5, wall_s=20, memory_bytes=1 * GIB)
    cfg = {
        "mode": "probe",
        "planted": fh.name,
        "libraries": library_paths(),
        "read_only": read_only_prefixes(),
        "layers": {"uid": report.uid, "landlock": report.landlock_abi > 0, "seccomp": report.seccomp},
    }
    if report.bubblewrap:
        cfg["scratch"] = SCRATCH_IN_BWRAP
    try:
        out = run_child(cfg, limits, argv_prefix(report, limits), scratch_owner=report.uid, result_cap=65536)
    except OSError as exc:
        return False, f"could not start: {exc}"
    finally:
        os.unlink(fh.name)
    seen = (out.final or {}).get("value") if out.failure is None else None
    if not isinstance(seen, dict):
        return False, out.failure or "no answer from the probe child"
    problems = [
        name
        for name, ok in (
            ("socket", seen.get("socket_blocked")),
            ("fork", seen.get("fork_blocked")),
            ("uid", report.uid is None or seen.get("uid") == report.uid),
            ("file read", seen.get("read_blocked") or report.tier == "C"),
        )
        if not ok
    ]
    return (not problems), ("not confined: " + ", ".join(problems)) if problems else ""


@functools.cache
def probe_tier() -> TierReport:
    """The best tier whose layers verifiably hold on this machine (probed once, then cached)."""
    abi = landlock.abi_version()
    seccomp = _seccomp_available()
    bwrap = shutil.which("bwrap") is not None
    notes: list[str] = []
    for use_bwrap, use_abi in ((bwrap, abi), (False, abi), (False, 0)):
        report = _candidate(use_bwrap, use_abi, seccomp)
        if report.tier == "D":
            break
        ok, why = _verify(report)
        if ok:
            found = TierReport(
                report.tier,
                report.bubblewrap,
                report.landlock_abi,
                report.seccomp,
                report.uid,
                tuple(notes),
                weak_allowed=weak_sandbox_allowed(),
            )
            if not found.isolated:
                _log.warning("sandbox: %s", found.description)
            return found
        notes.append(f"tier {report.tier} failed its check ({why})")
    return TierReport("D", False, 0, seccomp, None, tuple(notes))
