"""The command registry: a light table of every command, in menu order.

This table drives the CLI, Telegram dispatch and menu, ``/help`` and the README command table. It holds what
those need to know about a command (name, summary, usage, options, where it exists) and *where* its handler
lives; the handler's module is imported on the command's first call (:class:`Deferred`). So ``sutro --version``,
``sutro --help`` and the Telegram menu never import the command bodies and what they pull in (numpy,
SQLAlchemy, anthropic, matplotlib …): a command-line start pays only for the command it runs.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from bot.commands.base import Command


@dataclass(frozen=True)
class Deferred:
    """A function named by module and attribute, imported on first call (picklable: worker processes
    receive commands by value and import the module themselves)."""

    module: str
    name: str

    def resolve(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args: Any) -> Any:
        return self.resolve()(*args)


def _in(module: str, name: str) -> Deferred:
    return Deferred(f"bot.commands.{module}", name)


RUN_METHODS = (
    "sgd",
    "local_update",
    "perlayer",
    "random_proj",
    "sign_sgd",
    "curriculum",
    "evolutionary",
    "forward_forward",
    "gf2",
    "km",
    "km_min",
    "lasso",
    "fourier",
    "smt",
    "mutual_info",
    "mdl",
    "rl",
    "genetic_prog",
)
"""The sparse-parity methods ``/run`` takes, as named in ``/help run`` (tests/bot/test_registry_menu.py checks this
against engine.methods.METHODS, which is not imported here: it loads numpy)."""

USAGES = {
    "run": "METHOD [key=value ...] [--force] [--histogram] | CHALLENGE [generator=NAME] | solve=PATH --compat spc",
    "sweep": "METHOD key=V1,V2,... [key=value ...] [--force] [--table]   (e.g. sweep km_min n=20,50,100 k=3,5)",
    "submit": "PATH [--challenge NAME] [--name LABEL] [--force] [--json]",
    "score": "PATH [PATH ...] [--challenge NAME] [--name LABEL] [--force] [--json]",
    "compare": "ID ID",
    "show": "ID [--full]",
    "idea": "TEXT [--revise ID] [--yes] / --run ID / --discard ID",
    "log": "TEXT | retry ID | drop ID",
    "sprint": '[start "TITLE" [GOAL] | end]',
    "db": "move --to URL [--force | --resume]",
    "config": "list [page=N] | get KEY | set KEY VALUE | reset KEY | history [KEY]",
    "rescore": "OLD_METRIC NEW_METRIC | rules CHALLENGE   (e.g. rescore dally@1 dally@2, rescore rules matmul_16x16)",
    "epoch": "[rotate|resume]",
    "explore": 'BOARD [from=published NAME | from=RUN | from=FILE] [band=N] [budget=60s,200,$0.20] [goal="…"] '
    "| METHOD [n=BITS k=SECRET] [budget=…] | show ID | list | resume ID",
    "export": "journal [LOOP ... | BOARD] | records BOARD [band=N]",
}
"""Argument synopses that a command body also quotes in its usage errors (:func:`usage_of`)."""


def usage_of(name: str) -> str:
    """The usage line of command ``name`` (for a command body's "usage: …" hints)."""
    return USAGES[name]


COMMANDS: tuple[Command, ...] = (
    Command(
        name="start",
        summary="What this bot does",
        usage="",
        handler=_in("guide", "start_reply"),
        cli=False,
        background=False,
    ),
    Command(
        name="help",
        summary="List the commands, or show one command's usage",
        usage="[COMMAND]",
        handler=_in("guide", "help_reply"),
        cli=False,
        background=False,
    ),
    Command(
        name="run",
        summary=(
            "Run a sparse-parity method fully traced (accuracy, wall time, ard/dmc/bytedmd), a challenge's "
            "built-in IR generator, or check a solve() file; stored and logged"
        ),
        usage=USAGES["run"],
        handler=_in("run", "run"),
        shared_answer=True,
        details=(
            "Methods: " + ", ".join(RUN_METHODS) + ". Keys: n k seed hidden lr wd batch epochs m. "
            "CHALLENGE generator=NAME scores a built-in IR generator of an IR challenge (default: baseline); "
            "any matmul size by name (matmul_32x32) or as matmul n=32. "
            "Every run is stored and logged; the same request returns its stored result unless --force. "
            "solve=PATH --compat spc evaluates a local solve(x, y, n_bits, k_sparse) as the public leaderboard "
            "does."
        ),
        value_options={"compat": "compatibility mode: spc (sparse-parity-challenge evaluator)"},
        flag_options={
            "force": "run again even if this exact request was run before (otherwise the stored result)",
            "histogram": "a method run: attach its reuse-distance chart (floats read per distance bin, by buffer)",
        },
        precheck=_in("run", "check_run"),
    ),
    Command(
        name="sweep",
        summary="Run a sparse-parity method over a grid of parameters (n, k, seeds, lr …): one table, every run stored",
        usage=USAGES["sweep"],
        handler=_in("sweep", "sweep"),
        details=(
            "Methods: those of run. A key given comma-separated values is swept (seeds=0,1,2 sweeps the seed); the "
            "points are every combination, each a run stored and logged like /run METHOD with those parameters "
            "(a point run before comes back from the store unless --force); the points' seed runs go to the "
            "workers in parallel, with progress. A point outside the method's range is a row that says why. When "
            "n is swept, the card gives the largest n solved per k and a chart of accuracy and the primary metric "
            "vs n, one line per k. At most limits.sweep_points points (admin setting)."
        ),
        flag_options={
            "force": "run every point again even if it was run before",
            "table": "every point as one table (the card lists at most five)",
        },
    ),
    Command(
        name="submit",
        summary="Judge your IR program, generate() or solve() in the sandbox; stored once and logged",
        usage=USAGES["submit"],
        handler=_in("submit", "submit"),
        # Not shared across members: each submitter gets their own submission record and card (credit goes to
        # the first submitter of identical code); a second member's job waits and reuses the stored result.
        shared_answer=False,
        details=(
            "PATH is a file (or - for stdin) holding IR text, Python defining generate() -> IR text, or Python "
            "defining solve(x, y, n_bits, k_sparse). In the chat: /submit [challenge] [name=LABEL] with the file "
            "attached or the code pasted. The same code is judged once; --force judges it again."
        ),
        value_options={
            "challenge": "challenge name (inferred from the IR's input/output counts when left out)",
            "name": "label for the leaderboard (default: the file name)",
        },
        flag_options={"force": "judge again even if this exact code was judged before"},
        file_arg=True,
    ),
    Command(
        name="score",
        summary="Score an IR program under the Dally model (dally@1) and check it on the challenge's test instances",
        usage=USAGES["score"],
        handler=_in("score", "score"),
        # Not shared across members: each submitter gets their own submission record and card (credit goes to
        # the first submitter of identical code); a second member's job waits and reuses the stored result.
        shared_answer=False,
        details=(
            "PATH is an IR file, or - for stdin. Without --challenge the challenge is inferred from the number of "
            "inputs and outputs. A rejected program exits with status 1. Several paths, or a directory (its *.ir "
            "files), are judged together in this one process by the boards' long-lived judges: one table row per "
            "file and one line per file that is not correct; nothing is stored (send one with score PATH to "
            "record it)."
        ),
        many_files=True,
        value_options={
            "challenge": "challenge name, e.g. matmul_16x16 (see `sutro challenges`)",
            "name": "label for the leaderboard (default: the file name)",
        },
        flag_options={"force": "score again even if this exact program was scored before"},
        file_arg=True,
    ),
    Command(
        name="explore",
        summary="Search a board for a cheaper program: built-in rewrites propose, the board's scorer judges, "
        "every step journalled; the best becomes your result",
        usage=USAGES["explore"],
        handler=_in("explore", "explore"),
        details=(
            "IR boards (matmul, mask_sparse_parity …). Each step proposes one candidate with a one-line hypothesis "
            "(move values to cheaper cells, swap cells, drop dead code, re-place every value, forward copies, sink "
            "instructions), judges it with the board's own rules and keeps it only when it passes and costs less. "
            "It stops on its budget (steps, CPU seconds), the circuit breaker (explore.stale_steps candidates in a "
            "row not kept, explore.invalid_in_a_row refused), or when no operator gains; /cancel keeps the best so "
            "far. The best, when it beats the start, is judged again and stored as your result (found by /explore). "
            "Start: from=published NAME, from=RUN, a file (from=PATH; in the chat attach it), else the board's "
            "baseline. METHOD (a built-in method, e.g. local_update) searches its parameters around its defaults, one "
            "knob halved or doubled at a time, each candidate a stored run kept only on a WIN beyond the seeds' "
            "noise. With an Anthropic key, Claude proposes when the built-ins are spent: generate() code on an IR "
            "board (run in the sandbox), parameter settings on a method's. show ID reads a loop's journal back, "
            "list the newest loops, resume ID carries on from a loop's best. Admins set the boards "
            "(explore.boards) and the caps (explore.max_*)."
        ),
        value_options={
            "from": "where to start: published NAME, a run id, or a file path (terminal)",
            "band": "mask_sparse_parity: the recovery band's board (default: the start's band)",
            "budget": "steps, CPU time and/or USD, e.g. 60s, 200, $0.20 or 60s,200 (default: the admins' caps)",
            "goal": "what you are after, in words (kept in the journal and the log)",
            "n": "a method's loop: input bits of the instance (default 20)",
            "k": "a method's loop: secret bits of the instance (default 3)",
        },
        file_option="from",
        on_stopped=Deferred("bot.commands.explore", "explore_stopped"),
    ),
    Command(
        name="export",
        summary="Write results in the group's formats: a journal as research-log JSONL, a record table for a PR",
        usage=USAGES["export"],
        handler=_in("export", "export"),
        details=(
            "journal [LOOP ...]: /explore loops' steps (default: the newest loop); journal BOARD: the board's stored "
            "results with their verdicts — both as JSON lines in the schema of SutroYaro's research/log.jsonl. "
            "records BOARD [band=N]: the board's record history as the group's README table (Date, Cost, "
            "Submission, Contributors, Description), the members' record programs beside it and SHA256SUMS."
        ),
        value_options={"band": "mask_sparse_parity: the recovery band's board"},
        background=False,
    ),
    Command(
        name="challenges",
        summary="List the challenges with their track, primary metric and status (current or retired)",
        usage="",
        handler=_in("challenges", "list_challenges"),
        background=False,
    ),
    Command(
        name="leaderboard",
        summary="Best valid result per member and method, with rank, metric name and version",
        usage="[CHALLENGE] [n=BITS k=SECRET] [page=N] [--metric NAME@VERSION]",
        handler=_in("leaderboard", "show_leaderboard"),
        value_options={
            "page": "page of a long board (20 rows a page; the reply names the next one)",
            "metric": "metric and version to rank by (default: the challenge's primary metric)",
            "n": "sparse parity: input bits of the instance (default 20)",
            "k": "sparse parity: secret bits of the instance (default 3)",
        },
        background=False,
    ),
    Command(
        name="records",
        summary="Record history: who beat whom, by how much, with a progression chart",
        usage="[CHALLENGE] [n=BITS k=SECRET] [page=N] [--metric NAME@VERSION] | sync [SOURCE]",
        handler=_in("records", "show_records"),
        shared_answer=True,
        details="'sync [SOURCE]' (admins) reads the group's challenge repository (default: sutro-problems on GitHub; "
        "a local checkout or another git URL too), re-scores every linked program and makes it the records shown.",
        value_options={
            "page": "page of a long board (20 rows a page; the reply names the next one)",
            "metric": "metric and version (default: the challenge's primary metric)",
            "n": "sparse parity: input bits of the instance (default 20)",
            "k": "sparse parity: secret bits of the instance (default 3)",
            "snapshot": "sync: also write the snapshot file the product ships (terminal only)",
            "links": "sync: where the records' program links point (default: the source's own address)",
            "as_source": "sync: URL@COMMIT the records come from, when SOURCE is a local copy of them (terminal only)",
        },
    ),
    Command(
        name="runs",
        summary="Recent runs (yours only with 'mine')",
        usage="[mine] [page=N]",
        handler=_in("runs", "list_runs"),
        background=False,
        value_options={"page": "page of the list (20 runs a page, newest first; the reply names the next one)"},
    ),
    Command(
        name="show",
        summary="One run: its verdict and metrics on one screen; --full adds parameters, code, tables and charts",
        usage=USAGES["show"],
        handler=_in("show", "show_run"),
        background=False,
        flag_options={"full": "everything stored: field and comparison tables, code, reuse-distance charts"},
    ),
    Command(
        name="compare",
        summary="Metric deltas of two runs and where the cost moved",
        usage=USAGES["compare"],
        handler=_in("compare", "compare"),
        background=False,
    ),
    Command(
        name="idea",
        needs_assistant=True,
        summary="Claude turns your idea into an experiment card with runnable code; it runs only after approval",
        usage=USAGES["idea"],
        handler=_in("idea", "idea"),
        details=(
            "The assistant (needs SUTRO_ANTHROPIC_API_KEY) reads the challenges, methods, leaderboards and past "
            "runs, dry-runs its code in the sandbox, and answers with a card. Nothing runs until someone presses "
            "Run it (terminal: --run ID, or --yes). A monthly token budget and a per-member hourly limit apply."
        ),
        value_options={
            "run": "approve and run idea ID (once; a second approval does nothing)",
            "discard": "discard idea ID",
            "revise": "draft a new card from idea ID with the change described in TEXT",
        },
        flag_options={"yes": "approve the new card at once and run it (terminal)"},
        on_stopped=Deferred("bot.commands.ideas.approval", "release_stopped"),
        free_text=True,
    ),
    Command(
        name="queue",
        summary="Pending and running jobs",
        usage="",
        handler=_in("queue", "show_queue"),
        cli=False,
        background=False,
    ),
    Command(
        name="cancel",
        summary="Cancel one of your jobs (admins: any job)",
        usage="ID",
        handler=_in("queue", "cancel_job"),
        cli=False,
        background=False,
    ),
    Command(
        name="log",
        summary="Add a note to the sprint log",
        usage=USAGES["log"],
        handler=_in("log", "add_note"),
        details="The note is stored first and then written to the sprint log (Markdown file or Google Doc). "
        "The text is kept as typed (key=value words included); a first line becomes the title, the rest the body. "
        "An entry the sink refused for good is parked (see status); admins send it again with 'log retry ID' or "
        "give up on it with 'log drop ID'.",
        free_text=True,
    ),
    Command(
        name="sprint",
        summary="Start or end a sprint: the sprint log's entries go under it, with a TLDR kept current",
        usage=USAGES["sprint"],
        handler=_in("sprint", "sprint"),
        details='start "TITLE" [GOAL] opens a sprint (one at a time); end closes it (admins or the member who '
        "started it) and writes its final TLDR; without arguments it shows the running sprint. Without a sprint, "
        "entries go under their week.",
        free_text=True,
        background=False,
    ),
    Command(
        name="digest",
        summary="Preview the weekly digest; admins can post it now",
        usage="[post]",
        handler=_in("digest", "show_digest"),
        details="Records with who beat whom, leaderboards, most active members, failures, the sprint-log link, "
        "and a chart. Posted weekly by the bot as configured (/config get digest.day).",
        flag_options={"post": "post it to the configured chat now (admins)"},
        background=False,
    ),
    Command(
        name="config",
        summary="Admin tool settings: list, get, set, reset, history (audited)",
        usage=USAGES["config"],
        handler=_in("config", "run_config"),
        details="Keys: sprint_log.*, digest.*, metric.primary.<challenge>, limits.*, challenges.enabled, "
        "methods.enabled, chats.allowed, assistant.*. Every change records who, when, old and new.",
        admin_only=True,
        background=False,
    ),
    Command(
        name="rescore",
        summary="Re-score stored runs for a new metric version and report re-ranking",
        usage=USAGES["rescore"],
        handler=_in("rescore", "rescore_runs"),
        shared_answer=True,
        admin_only=True,
    ),
    Command(
        name="epoch",
        summary="The judge epoch of solve() submissions; rotate (admins) re-judges the board entries",
        usage=USAGES["epoch"],
        handler=_in("epoch", "epoch"),
        details="Every solve() of an epoch is judged on the same secret hidden instances, so identical code gives "
        "one figure. rotate starts a new epoch and re-judges every submission board entry on its suite, at most "
        "epoch.rejudge_budget a call; resume goes on with a rotation that stopped or ran out of budget.",
    ),
    Command(
        name="status",
        summary="Versions, sandbox tier, queue depth, Docs backlog, next digest",
        usage="",
        handler=_in("status", "show_status"),
        background=False,
    ),
    Command(
        name="serve",
        summary="Run the Telegram bot (long polling) until stopped",
        usage="",
        handler=_in("serve", "serve"),
        cli=True,
        telegram=False,
    ),
    Command(
        name="db",
        summary="Move the database to another server (SQLite to PostgreSQL, or back)",
        usage=USAGES["db"],
        handler=_in("db", "database"),
        details="Copies every table with its ids into the --to database (schema created if empty), resets its id "
        "sequences and compares row counts and checksums. Refuses a target that holds rows unless --force (replace "
        "them) or --resume (finish an interrupted move). Stop the bot and workers first.",
        value_options={"to": "the target database URL (postgresql+psycopg://user:password@host/db or sqlite:///path)"},
        flag_options={"force": "empty a non-empty target first", "resume": "keep rows already copied, copy the rest"},
        admin_only=True,
        telegram=False,
        background=False,
    ),
)


def command_named(name: str) -> Command | None:
    """The registered command called ``name``, or None."""
    return next((c for c in COMMANDS if c.name == name), None)
