"""Landlock (Linux ≥ 5.13) through raw syscalls with ctypes: read-only beneath library prefixes, read-write in
scratch, no TCP, scoped signals. Works unprivileged and confines root too.

Source: the kernel's include/uapi/linux/landlock.h and Documentation/userspace-api/landlock.rst. Used by the
trusted bootstrap inside the child (never by the parent on itself).
"""

from __future__ import annotations

import ctypes
import os
import struct

_SYS_CREATE_RULESET = 444  # same number on x86_64 and the generic (aarch64) table
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
_FS_ABI1 = (1 << 13) - 1  # EXECUTE … MAKE_SYM
_FS_REFER = 1 << 13  # ABI 2
_FS_TRUNCATE = 1 << 14  # ABI 3
_FS_IOCTL_DEV = 1 << 15  # ABI 5
_NET_BIND_TCP = 1 << 0  # ABI 4
_NET_CONNECT_TCP = 1 << 1
_SCOPE_ABSTRACT_UNIX = 1 << 0  # ABI 6
_SCOPE_SIGNAL = 1 << 1

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def abi_version() -> int:
    """The Landlock ABI the kernel offers; 0 when Landlock is unavailable or disabled."""
    rc = _libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return int(rc) if rc > 0 else 0


def _handled_fs(abi: int) -> int:
    mask = _FS_ABI1
    if abi >= 2:
        mask |= _FS_REFER
    if abi >= 3:
        mask |= _FS_TRUNCATE
    if abi >= 5:
        mask |= _FS_IOCTL_DEV
    return mask


def restrict(read_only: list[str], read_write: list[str], write_existing: list[str] | None = None) -> int:
    """Confine this process for good; returns the ABI used. Raises OSError when Landlock is unavailable.

    read_only: directories whose files may be read (not executed); read_write: directories fully
    usable (scratch); write_existing: directories whose existing files may be read, written and truncated, where
    nothing can be created, linked, renamed or removed (a sealed scratch: its size is its files' count times
    RLIMIT_FSIZE).
    """
    abi = abi_version()
    if abi <= 0:
        raise OSError("Landlock unavailable")
    fs = _handled_fs(abi)
    net = (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0
    scoped = (_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL) if abi >= 6 else 0
    attr = struct.pack("=QQQ", fs, net, scoped)
    size = 8 if abi < 4 else (16 if abi < 6 else 24)
    buf = ctypes.create_string_buffer(attr, len(attr))
    ruleset = _libc.syscall(_SYS_CREATE_RULESET, buf, ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        read_access = FS_READ_FILE | FS_READ_DIR
        existing_access = read_access | FS_WRITE_FILE | _FS_TRUNCATE
        rules = ((read_only, read_access), (read_write, fs & ~FS_EXECUTE), (write_existing or [], existing_access))
        for paths, access in rules:
            for path in paths:
                _add_path_rule(int(ruleset), path, access & fs)
        if _libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
        if _libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(int(ruleset)), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(int(ruleset))
    return abi


def _add_path_rule(ruleset: int, path: str, access: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a prefix that does not exist on this machine grants nothing
    try:
        is_dir = os.path.isdir(path)
        if not is_dir:
            access &= FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
        rule = ctypes.create_string_buffer(struct.pack("=Qi", access, fd), 12)
        if (
            _libc.syscall(
                _SYS_ADD_RULE,
                ctypes.c_int(ruleset),
                ctypes.c_int(_RULE_PATH_BENEATH),
                rule,
                ctypes.c_uint32(0),
            )
            != 0
        ):
            raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
    finally:
        os.close(fd)
