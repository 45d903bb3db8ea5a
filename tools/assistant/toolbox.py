"""The assistant's tool registry: every tool the model may call, in one readable table (name -> function).

Each tool takes the model's JSON input and answers text (JSON for data, one line for errors); a bad input is
answered, never raised, so the model can correct itself. Read-only tools use the stored runs (storage) and the
engine registries; ``check_code`` dry-runs code in the sandbox (contract.py). The descriptions the model reads
are in ``prompt.py``; a test checks both lists name the same tools.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.challenges import CHALLENGES
from engine.errors import EngineError
from storage.database import SessionFactory
from storage.errors import StorageError
from storage.runs import get_run, recent_runs
from storage.scores import scored_runs
from tools.assistant.contract import check_submission
from tools.assistant.prompt import PROPOSE_TOOL, challenge_lines, method_lines
from tools.assistant.spec import SpecError, submission_from
from tools.board import split_by_board
from tools.leaderboard import LEADERBOARD_HEADERS, leaderboard_cells, rank_best
from tools.published.records import published_scores
from tools.records import RECORD_HEADERS, record_cells, record_history
from tools.run_detail import run_detail

MAX_CODE_CHARS = 6000  # a past run's code is cut here so one tool result cannot flood the context


@dataclass(frozen=True)
class Toolbox:
    """The tools, bound to the database and the sandbox policy of this deployment."""

    sessions: SessionFactory
    dev_override: bool = False

    def call(self, name: str, raw: dict[str, Any]) -> tuple[bool, str]:
        """Run tool ``name``: (ok, text for the model). Unknown tools and bad input answer ok=False."""
        tool = TOOLS.get(name)
        if tool is None:
            return False, f"unknown tool '{name}'; tools: {', '.join(sorted(TOOLS))}, {PROPOSE_TOOL}"
        try:
            return tool(self, raw)
        except (EngineError, StorageError) as err:
            return False, err.one_line()
        except SpecError as err:
            return False, str(err)


def _json(value: Any) -> tuple[bool, str]:
    return True, json.dumps(value, indent=1, default=str)


def _challenge(raw: dict[str, Any]) -> tuple[str, str]:
    name = str(raw.get("challenge") or "")
    challenge = CHALLENGES.get(name)  # UnknownName (did you mean) for a wrong name
    return name, str(raw.get("metric") or challenge.primary_metric)


def list_challenges(box: Toolbox, raw: dict[str, Any]) -> tuple[bool, str]:
    return True, "\n".join(challenge_lines())


def list_methods(box: Toolbox, raw: dict[str, Any]) -> tuple[bool, str]:
    return True, "\n".join(method_lines())


def leaderboard(box: Toolbox, raw: dict[str, Any]) -> tuple[bool, str]:
    name, metric = _challenge(raw)
    with box.sessions() as session:
        boards = split_by_board(name, scored_runs(session, challenge=name, metric=metric))
    if not boards:
        return True, f"no stored results on {name} for {metric} yet"
    tables = [{"board": b.title, "rows": leaderboard_cells(rank_best(entries))} for b, entries in boards.items()]
    return _json({"challenge": name, "metric": metric, "headers": LEADERBOARD_HEADERS, "boards": tables})


def records(box: Toolbox, raw: dict[str, Any]) -> tuple[bool, str]:
    name, metric = _challenge(raw)
    with box.sessions() as session:
        entries = [*published_scores(name, metric, session), *scored_runs(session, challenge=name, metric=metric)]
    entries.sort(key=lambda e: (e.created_at, e.run_id))  # stable: same-day published rows keep their order
    boards = split_by_board(name, entries)
    if not boards:
        return True, f"no record on {name} for {metric} yet"
    tables = [{"board": b.title, "rows": record_cells(record_history(group))} for b, group in boards.items()]
    return _json({"challenge": name, "metric": metric, "headers": RECORD_HEADERS, "boards": tables})


def read_run(box: Toolbox, raw: dict[str, Any]) -> tuple[bool, str]:
    run_id = raw.get("run_id")
    with box.sessions() as session:
        if run_id is None:
            runs = recent_runs(session, limit=10, challenge=raw.get("challenge") or None)
            return _json([run_detail(r).summary for r in runs] or "no stored runs yet")
        detail = run_detail(get_run(session, run_id=int(run_id)))
    code = (
        detail.code
        if detail.code is None or len(detail.code) <= MAX_CODE_CHARS
        else (detail.code[:MAX_CODE_CHARS] + "\n# … (cut)")
    )
    return _json({"summary": detail.summary, "fields": detail.fields, "metrics": detail.metrics, "code": code})


def check_code(box: Toolbox, raw: dict[str, Any]) -> tuple[bool, str]:
    check = check_submission(submission_from(raw), dev_override=box.dev_override)
    return check.ok, check.message


TOOLS: dict[str, Callable[[Toolbox, dict[str, Any]], tuple[bool, str]]] = {
    "list_challenges": list_challenges,
    "list_methods": list_methods,
    "leaderboard": leaderboard,
    "records": records,
    "read_run": read_run,
    "check_code": check_code,
}
