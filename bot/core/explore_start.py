"""Where an /explore loop starts: a published program, a stored run, a file, or the board's built-in baseline
(docs/explore.md#starting-points).

The start must be a program this product holds the text of and that passes the board: a published record counts when
its text is here — one of the board's built-in generators makes exactly that text (the published tiled 16×16 is
the ``tiled`` generator's, byte for byte), or someone scored it here (a stored run with the same content hash).
Anything else is refused in one line saying what to do.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import PurePosixPath

from bot.core.services import Services
from engine.errors import BadParameter
from engine.scoring import ir_challenge
from storage.errors import UnknownRun
from storage.explore import code_with_hash
from storage.runs import get_run
from tools.published.joins import challenge_of
from tools.published.records import current_snapshot
from tools.published.snapshot import SyncedRecord
from tools.run_request import code_hash

BASELINE = "baseline"


@dataclass(frozen=True)
class StartPoint:
    """label: how the journal, card and log name the start ("published tiled_16x16 (@sjbaebae)"); text: the IR."""

    label: str
    text: str


def _stem(record: SyncedRecord) -> str:
    return PurePosixPath(record.path).stem


def published_start(services: Services, board: str, name: str) -> StartPoint:
    """The published program called ``name`` (its file name without ``.ir``) on ``board`` or a board joined to it."""
    with services.sessions()() as session:
        snapshot = current_snapshot(session)
    rows = [r for r in snapshot.records if r.path and challenge_of(r.challenge) == board]
    wanted = name.removesuffix(".ir")
    row = next((r for r in rows if _stem(r) == wanted), None)
    if row is None:
        names = sorted({_stem(r) for r in rows})
        close = difflib.get_close_matches(wanted, names, n=3)
        hint = f"did you mean {', '.join(close)}?" if close else "published programs here: " + ", ".join(names[:12])
        raise BadParameter(f"no published program '{name}' on {board}", hint=hint)
    label = f"published {wanted} ({row.author}, {row.cost:,})"
    text = _held_text(services, board, row)
    if text is None:
        raise BadParameter(
            f"this product holds no copy of the published {wanted} ({snapshot.url(row)})",
            hint="score it here once (sutro score FILE --challenge " + board + "), or attach the file as from=FILE",
        )
    return StartPoint(label=label, text=text)


def _held_text(services: Services, board: str, row: SyncedRecord) -> str | None:
    """The published program's text when this product holds it: a stored run with its content hash (one query), or
    the built-in generator whose text hashes the same (each generator's hash made once per process)."""
    if row.content_hash is None:
        return None
    with services.sessions()() as session:
        stored = code_with_hash(session, row.content_hash)
    if stored is not None:
        return stored
    generators = ir_challenge(board).generators
    for name in generators:
        if _generator_hash(board, name) == row.content_hash:
            return generators[name]()
    return None


@functools.cache
def _generator_hash(board: str, name: str) -> str:
    """The content hash of built-in generator ``name``'s text on ``board`` (mask32's full walks are ~500k lines:
    made once per process, not on every lookup)."""
    return code_hash(ir_challenge(board).generators[name](), python=False)


def run_start(services: Services, board: str, run_id: int) -> StartPoint:
    """The program of stored run ``run_id``, which must be a passing IR result on ``board``."""
    with services.sessions()() as session:
        try:
            run = get_run(session, run_id=run_id)
        except UnknownRun as err:
            raise BadParameter(err.message, hint="give a run id from `runs`, or from=published NAME") from None
        challenge, code, ok, subject, kind = run.challenge, run.code, run.ok, run.subject, run.kind
    if challenge != board or code is None or kind not in ("ir", "generate"):
        raise BadParameter(f"run #{run_id} is not an IR program on {board}", hint="give a run of this board's IR")
    if not ok:
        raise BadParameter(f"run #{run_id} failed its board's rules", hint="start from a program that passes")
    return StartPoint(label=f"run #{run_id} ({subject})", text=code)


def baseline_start(board: str) -> StartPoint:
    """The board's built-in baseline program (the group's naive one where it has one)."""
    generators = ir_challenge(board).generators
    if BASELINE not in generators:
        raise BadParameter(f"{board} has no built-in baseline program", hint="give from=published NAME or from=RUN")
    return StartPoint(label=f"built-in {BASELINE}", text=generators[BASELINE]())
