"""The seccomp deny-list (default allow) loaded by the trusted bootstrap just before submitted code runs.

Denied (docs/sandbox.md#l4-seccomp): sockets, exec, new processes (fork/vfork, clone without CLONE_THREAD; clone3
answers ENOSYS so glibc falls back to clone and threads keep working), ptrace, mounts and namespaces, bpf,
io_uring, keyctl, memfd_create, set*id, kill of other processes is left to Landlock's signal scope and the pid
namespace, and landlock_* (no second ruleset games). Uses the ``pyseccomp`` binding of libseccomp.
"""

from __future__ import annotations

import errno
import functools

DENIED = (
    "socket",
    "socketpair",
    "execve",
    "execveat",
    "fork",
    "vfork",
    "ptrace",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "bpf",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "memfd_create",
    "setuid",
    "setgid",
    "setreuid",
    "setregid",
    "setresuid",
    "setresgid",
    "setgroups",
    "setfsuid",
    "setfsgid",
    "landlock_create_ruleset",
    "landlock_add_rule",
    "landlock_restrict_self",
    "process_vm_readv",
    "process_vm_writev",
    "kexec_load",
    "init_module",
    "finit_module",
    "perf_event_open",
    "userfaultfd",
    "open_by_handle_at",
    "name_to_handle_at",
)
_CLONE_THREAD = 0x00010000
_O_TMPFILE_BIT = 0o20000000  # __O_TMPFILE (x86_64 and the generic table); O_TMPFILE adds O_DIRECTORY


@functools.cache
def library_paths() -> dict[str, str]:
    """Absolute paths of libc and libseccomp as loaded by this (parent) process, from /proc/self/maps.

    The child passes them to ``ctypes.util.find_library`` so that loading pyseccomp needs no ``ldconfig``
    subprocess (slow, and absent inside bubblewrap).
    """
    import ctypes
    import ctypes.util

    found: dict[str, str] = {}
    for name in ("c", "seccomp"):
        soname = ctypes.util.find_library(name)
        if soname is None:
            continue
        ctypes.CDLL(soname)
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                if path.rsplit("/", 1)[-1].startswith(soname):
                    found[name] = path
                    break
    return found


def preload(paths: dict[str, str]) -> None:
    """Import pyseccomp in the child with ``find_library`` answered from ``paths`` (see library_paths)."""
    import ctypes.util

    original = ctypes.util.find_library
    ctypes.util.find_library = lambda name: paths.get(name) or original(name)
    try:
        import pyseccomp  # noqa: F401
    finally:
        ctypes.util.find_library = original


def install() -> int:
    """Load the filter into this process (irrevocable); returns how many syscalls were denied."""
    import pyseccomp as sc

    flt = sc.SyscallFilter(defaction=sc.ALLOW)
    denied = 0
    for name in DENIED:
        try:
            flt.add_rule(sc.ERRNO(errno.EPERM), name)
            denied += 1
        except (RuntimeError, ValueError, OSError):
            continue  # not a syscall on this architecture
    flt.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    # Disk: fallocate(FALLOC_FL_KEEP_SIZE) reserves blocks past RLIMIT_FSIZE (the size check applies to i_size
    # only); EOPNOTSUPP makes glibc's posix_fallocate write zeros instead, which the file-size limit bounds. An
    # unnamed O_TMPFILE file needs no directory entry (so no Landlock MAKE_REG right); openat2 hides its flags
    # from the filter and nothing we run uses it (glibc opens with openat).
    flt.add_rule(sc.ERRNO(errno.EOPNOTSUPP), "fallocate")
    flt.add_rule(sc.ERRNO(errno.EPERM), "open", sc.Arg(1, sc.MASKED_EQ, _O_TMPFILE_BIT, _O_TMPFILE_BIT))
    flt.add_rule(sc.ERRNO(errno.EPERM), "openat", sc.Arg(2, sc.MASKED_EQ, _O_TMPFILE_BIT, _O_TMPFILE_BIT))
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "openat2")
    flt.load()
    return denied + 6
