"""Judge a set of IR programs in this process (``sutro score DIR``, several paths): one long-lived judge per board.

Each file gets its board from ``--challenge`` or, when none is named, from its input and output counts
(:func:`bot.core.judging.ir_challenge_name`, the same rule and messages as ``score PATH``); the board's
:class:`engine.scoring.ProgramJudge` is made once and judges every file of that board, so the board's fixed data (the
mask dev suite, the expected matmul polynomials) is prepared once for the whole set. Nothing is stored: this is a
quick check of many candidates, the way a search loop judges them; ``score PATH`` records a result.

A file that cannot be judged at all (not text, no board fits) and a program that is not correct each give one
line; every file named gets a row, in the order given.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.judging import ir_challenge_name
from bot.invocation import UsageError
from engine.scoring import ProgramJudge, ProgramVerdict


@dataclass(frozen=True)
class FileToJudge:
    """One file of the set: its name, and its text or the one line saying why it is not IR text."""

    name: str
    text: str | None
    unreadable: str | None = None


@dataclass(frozen=True)
class FileVerdict:
    """One judged file: the board it was judged on and the judge's verdict, or ``error`` when it was not judged."""

    name: str
    challenge: str | None
    verdict: ProgramVerdict | None
    error: str | None = None

    @property
    def correct(self) -> bool:
        return self.verdict is not None and self.verdict.correct

    @property
    def reason(self) -> str | None:
        """The one line of a file that is not correct (None for a correct one)."""
        if self.error is not None:
            return self.error
        return None if self.verdict is None or self.verdict.correct else self.verdict.reason


@dataclass(frozen=True)
class JudgedSet:
    """Every file's verdict in the order given, and the wall seconds the whole set took."""

    files: list[FileVerdict]
    seconds: float

    @property
    def n_correct(self) -> int:
        return sum(f.correct for f in self.files)


def judge_files(files: Sequence[FileToJudge], challenge: str | None) -> JudgedSet:
    """Judge every file; raises UsageError only for a ``challenge`` that is not an IR board (it concerns them all)."""
    started = time.perf_counter()
    if challenge is not None:
        challenge = ir_challenge_name(challenge, "", what="the program")
    judges: dict[str, ProgramJudge] = {}
    out: list[FileVerdict] = []
    for item in files:
        if item.text is None:
            out.append(FileVerdict(item.name, challenge, None, item.unreadable or "not IR text"))
            continue
        try:
            board = challenge or ir_challenge_name(None, item.text, what="the program")
        except UsageError as err:
            out.append(FileVerdict(item.name, None, None, err.one_line()))
            continue
        judge = judges.get(board)
        if judge is None:
            judge = judges[board] = ProgramJudge(board)
        out.append(FileVerdict(item.name, board, judge.judge(item.text)))
    return JudgedSet(out, time.perf_counter() - started)
