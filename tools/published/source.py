"""Open the group's challenge repository with git: a local checkout (its committed ``HEAD``) or a URL (a shallow
clone into a scratch folder), and read files at that commit.

Only committed content is read, so a sync names exactly the commit its records come from. Every failure is a
:class:`SyncSourceError` with one line saying what went wrong and where (unreachable, not a git repository, no
commits); git's own text is reduced to its last line.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from tools.errors import ToolError

DEFAULT_SOURCE = "https://github.com/cybertronai/sutro-problems.git"
"""The group's public challenge repository."""
SPC_SOURCE = "https://github.com/cybertronai/sparse-parity-challenge.git"
"""The group's public sparse-parity-challenge repository (the numpy ``solve()`` leaderboard)."""

CLONE_TIMEOUT_S = 180
"""A clone slower than this is abandoned (the network is down or the host does not answer)."""


class SyncSourceError(ToolError):
    """The source could not be read: the message says what and where, in one line."""


_HINT = "nothing was stored; check the address or give a local checkout: records sync PATH"


def is_url(source: str) -> bool:
    return "://" in source or source.startswith("git@")


_FULL_HASH = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class RecordedAs:
    """The repository and commit a snapshot names as where its facts come from, when it was synced from a copy
    assembled elsewhere (the shipped snapshot is built from a local repository of files read from the group's;
    see tests/data/published/PROVENANCE.md): an https URL and a full 40-hex commit hash."""

    source: str
    commit: str


def recorded_as(text: str) -> RecordedAs:
    """``URL@COMMIT`` read into a :class:`RecordedAs`; ValueError (one line) when it is not an https URL followed
    by ``@`` and a full 40-hex commit hash."""
    url, at, commit = text.rpartition("@")
    if not at or not url.startswith("https://") or not _FULL_HASH.fullmatch(commit.lower()):
        raise ValueError(f"'{text}' is not URL@COMMIT (an https address, '@', a full 40-hex commit hash)")
    return RecordedAs(source=url, commit=commit.lower())


def _git(args: list[str], *, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "LC_ALL": "C"}
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, timeout=timeout, env=env, check=False, stdin=subprocess.DEVNULL
    )


def _last_line(stderr: bytes) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


@dataclass(frozen=True)
class GitTree:
    """A repository at one commit: where it is on disk, the commit's full hash and date."""

    path: Path
    commit: str
    commit_date: date

    def files(self) -> list[str]:
        """Every file path at the commit."""
        done = _git(["ls-tree", "-r", "--name-only", "-z", self.commit], cwd=self.path)
        return [p for p in done.stdout.decode("utf-8", "replace").split("\0") if p]

    def read(self, path: str) -> bytes | None:
        """The file's bytes at the commit; None when the commit has no such file."""
        done = _git(["show", f"{self.commit}:{path}"], cwd=self.path)
        return done.stdout if done.returncode == 0 else None

    def last_change(self, path: str) -> date:
        """The date of the last commit that changed ``path`` (the commit's own date in a shallow clone)."""
        done = _git(["log", "-1", "--format=%cs", self.commit, "--", path], cwd=self.path)
        text = done.stdout.decode().strip()
        return date.fromisoformat(text) if done.returncode == 0 and text else self.commit_date


def open_tree(source: str, scratch: Path) -> GitTree:
    """The repository at ``source``: a URL is cloned (shallow) into ``scratch``; a local path is read in place."""
    if is_url(source):
        target = scratch / "repo"
        try:
            done = _git(["clone", "--quiet", "--depth", "1", source, str(target)], timeout=CLONE_TIMEOUT_S)
        except subprocess.TimeoutExpired as error:
            raise SyncSourceError(f"cannot reach {source}: no answer in {CLONE_TIMEOUT_S} s", hint=_HINT) from error
        if done.returncode != 0:
            raise SyncSourceError(f"cannot reach {source}: {_last_line(done.stderr)}", hint=_HINT)
        path = target
    else:
        path = Path(source).expanduser()
        if not path.is_dir():
            raise SyncSourceError(f"{source} is not a folder (give a git checkout of the challenge repository)")
        top = _git(["rev-parse", "--show-toplevel"], cwd=path)
        bare = _git(["rev-parse", "--is-bare-repository"], cwd=path).stdout.decode().strip() == "true"
        if not bare and (top.returncode != 0 or Path(top.stdout.decode().strip()).resolve() != path.resolve()):
            raise SyncSourceError(f"{source} is not a git repository")
    head = _git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], cwd=path)
    if head.returncode != 0:
        raise SyncSourceError(f"{source} has no commits")
    commit = head.stdout.decode().strip()
    when = _git(["show", "-s", "--format=%cs", commit], cwd=path).stdout.decode().strip()
    return GitTree(path=path, commit=commit, commit_date=date.fromisoformat(when))
