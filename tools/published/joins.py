"""Which of our challenges, at which instance, a published board is scored on.

Most boards of the group's repository are one of our challenges by name (``matmul_16x16``). Some are one instance
of a challenge: mask32's five recovery bands are published as five tables ("20% target" … "100% target") but are
one challenge, ``mask_sparse_parity``, whose ``band`` instance parameter places a run on its band's board. The
join is data (``scores_on`` and ``instance`` in ``boards.toml`` beside this module), so a sixth band in the group's
repository needs a line of data, not a release.

With a join, a published row of board ``mask_sparse_parity_band40`` is re-scored on ``mask_sparse_parity`` (and
passes only if it reaches 40 %), stands on the board ``mask_sparse_parity band=40`` beside members' runs there,
and a member's identical program is credited to its published authors.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class BoardJoin:
    """Published board ``board`` is challenge ``challenge`` at instance parameters ``instance``."""

    board: str
    challenge: str
    instance: MappingProxyType[str, int | float]

    @property
    def label(self) -> str:
        """``mask_sparse_parity band=40`` — how the product names the board the rows stand on."""
        return " ".join([self.challenge, *(f"{k}={v}" for k, v in self.instance.items())])


@functools.cache
def board_entries() -> tuple[dict[str, Any], ...]:
    """The ``[[board]]`` entries of ``boards.toml`` in file order (read and parsed once per process): the one reader
    of that file, for the sync's heading aliases and for the joins here."""
    text = resources.files(__package__).joinpath("boards.toml").read_text(encoding="utf-8")
    return tuple(tomllib.loads(text).get("board", []))


@functools.cache
def board_joins() -> tuple[BoardJoin, ...]:
    """Every join of ``boards.toml`` in file order."""
    return tuple(
        BoardJoin(str(e["challenge"]), str(e["scores_on"]), MappingProxyType(dict(e.get("instance", {}))))
        for e in board_entries()
        if "scores_on" in e
    )


def join_of(board: str) -> BoardJoin | None:
    """The join of published board ``board``; None for a board that is its challenge by name."""
    return next((j for j in board_joins() if j.board == board), None)


def joined_boards(challenge: str) -> tuple[BoardJoin, ...]:
    """The published boards scored on ``challenge`` at one of its instances, in file order."""
    return tuple(j for j in board_joins() if j.challenge == challenge)


def challenge_of(board: str) -> str:
    """The challenge published board ``board`` is scored on (``board`` itself unless it is joined)."""
    join = join_of(board)
    return board if join is None else join.challenge


def board_label(board: str) -> str:
    """How to name published board ``board`` to a member: the challenge and instance it stands on."""
    join = join_of(board)
    return board if join is None else join.label
