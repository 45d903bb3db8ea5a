"""``score`` on several files at once (``sutro score DIR`` or several paths): one table, one line per file that is
not correct, judged in this process by :func:`bot.core.score_many.judge_files`; nothing is stored.

Exit status 1 when any file is not correct (as ``score PATH`` for a rejected program). JSON (docs/json.md, kind
``score_many``): ``ok``, ``challenge``, ``judged``, ``correct``, ``wall_s`` and ``programs``, one object per file.
"""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.core.score_many import FileToJudge, FileVerdict, judge_files
from engine.errors import EngineError
from engine.scoring import METRIC
from tools.metric_format import format_value
from tools.program_text import program_text


def _to_judge(name: str, content: bytes) -> FileToJudge:
    try:
        text = program_text(content, hint="give an IR program as plain text")
    except EngineError as err:
        return FileToJudge(name, None, err.one_line())
    if not text.replace(";", "").strip():
        return FileToJudge(name, None, "the file is empty — first line: input addresses, last line: output addresses")
    return FileToJudge(name, text)


def _outcome(item: FileVerdict) -> str:
    v = item.verdict
    if v is None:
        return "not judged"
    if not v.correct:
        return "rejected"
    return f"passed, {v.band} % band" if v.band is not None else "correct"


def _row(item: FileVerdict) -> list[str]:
    v = item.verdict
    cost = "-" if v is None or v.cost is None else format_value(v.cost)
    instructions = "-" if v is None or v.instructions is None else format_value(v.instructions)
    instances = "-" if v is None or not v.instances else str(v.instances)
    return [item.name, item.challenge or "-", _outcome(item), cost, instructions, instances]


def _data(item: FileVerdict) -> dict[str, object]:
    v = item.verdict
    return {
        "file": item.name,
        "challenge": item.challenge,
        "ok": item.correct,
        "metric": METRIC,
        "cost": None if v is None else v.cost,
        "instructions": None if v is None else v.instructions,
        "reads": None if v is None else v.reads,
        "instances": None if v is None else v.instances,
        "successes": None if v is None else v.successes,
        "band": None if v is None else v.band,
        "failure": item.reason,
        "failure_kind": "rejected" if v is None else (None if v.failure_kind is None else str(v.failure_kind)),
        "rules": None if v is None else (v.rules or None),
    }


def score_many(inv: Invocation) -> Reply:
    """Judge every attached file; a table row each, and one line per file that is not correct."""
    challenge = inv.options.get("challenge")
    judged = judge_files([_to_judge(a.name, a.content) for a in inv.attachments], challenge)
    n, good = len(judged.files), judged.n_correct
    headers = ["file", "challenge", "verdict", METRIC, "instructions", "instances"]
    table = Table(headers=headers, rows=[_row(f) for f in judged.files])
    lines = [
        f"{n} file{'s' if n != 1 else ''} judged in one process in {judged.seconds:.2f} s: {good} correct, "
        f"{n - good} not"
    ]
    lines += [f"{f.name}: {f.reason}" for f in judged.files if not f.correct]
    data: dict[str, object] = {
        "ok": good == n,
        "challenge": challenge,
        "judged": n,
        "correct": good,
        "wall_s": round(judged.seconds, 3),
        "programs": [_data(f) for f in judged.files],
    }
    return Reply(text="\n".join(lines), tables=[table], ok=good == n, data=data)
