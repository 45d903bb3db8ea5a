"""``submit``: judge a member's IR program, ``generate()`` or ``solve()`` safely, store it once and log it.

``sutro submit PATH [--challenge NAME] [--name LABEL] [--force] [--json]``; in the chat ``/submit
[challenge] [name=LABEL]`` with an attached document or pasted code (a pasted block or an uncaptioned .py/.ir
file is routed here too). The work is :func:`bot.submissions.judge_submission`; this module is the card:
pass/fail and accuracy, the metric panel (name@version and how each was measured), the sandbox tier, the run
id or stored-result note.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.result_card import comparison_table, record_line, stored_rows
from bot.context import AppContext
from bot.recording import Recorded, provenance_line
from bot.submissions import judge_submission
from engine.errors import EngineError

USAGE = usage_of("submit")
_HINT = "send IR text, Python defining generate() -> str, or Python defining solve(x, y, n_bits, k_sparse)"


def _decode(content: bytes) -> str:
    """The submission as text; EngineError for binary or non-UTF-8 files."""
    if b"\x00" in content:
        raise EngineError("not a text file (it contains NUL bytes)", hint=_HINT)
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise EngineError(f"not UTF-8 text (bad byte at offset {err.start})", hint=_HINT) from None


def _challenge_option(inv: Invocation) -> str | None:
    """--challenge / challenge=NAME; in the chat also the first word (``/submit matmul_4x4``)."""
    named = inv.options.get("challenge")
    positional = inv.args if inv.caller.user_id is not None else inv.args[1:]  # the CLI's first arg is PATH
    if len(positional) > 1 or (positional and named):
        raise UsageError(f"unexpected argument '{positional[-1]}'", hint=f"usage: submit {USAGE}")
    return named or (positional[0] if positional else None)


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() or abs(value) >= 1e5 else f"{value:,.2f}"


def _tier(recorded: Recorded) -> str:
    extra = recorded.result.extra
    tier = extra.get("sandbox_tier")
    return f"sandbox tier {tier}" if tier else str(extra.get("sandbox") or "trusted scorer")


def submission_card(ctx: AppContext, recorded: Recorded, label: str) -> Reply:
    """The result card for a judged submission (text, metric panel, stored comparison) and its JSON data."""
    result = recorded.result
    verdict = "passed" if result.ok else f"FAILED: {result.failure or 'no reason recorded'}"
    acc = f", accuracy {result.accuracy:.1%}" if result.accuracy is not None else ""
    lines = [f"{label} ({result.kind}) on {result.challenge}: {verdict}{acc}"]
    panel = [[key, _fmt(value), result.metric_scopes.get(key, "")] for key, value in sorted(result.metrics.items())]
    tables = [Table(headers=["metric", "value", "measured"], rows=panel, title="metrics")] if panel else []
    self_reported = [k for k, scope in result.metric_scopes.items() if "self-reported" in scope]
    if self_reported:
        lines.append("self-reported (measured inside your code, not verified): " + ", ".join(self_reported))
    elif result.kind == "solve" and panel:
        lines.append("metrics measured by the judge, outside your code (none self-reported)")
    lines.append(_tier(recorded))
    flags = result.extra.get("review_flags") or []
    if flags:
        lines.append("flagged for review: " + "; ".join(flags[:5]) + (" …" if len(flags) > 5 else ""))
    if (line := record_line(ctx, recorded)) is not None:
        lines.append(line)
    rows = stored_rows(ctx, recorded) if result.ok else []
    if any(r[2] or r[3] for r in rows):
        tables.append(comparison_table(rows))
    lines.append(provenance_line(recorded))
    data = {
        "ok": result.ok,
        "challenge": result.challenge,
        "kind": result.kind,
        "label": label,
        "accuracy": result.accuracy,
        "failure": result.failure,
        "metrics": result.metrics,
        "metric_scopes": result.metric_scopes,
        "run_id": recorded.stored.id,
        "reused": recorded.stored.reused,
        "tier": result.extra.get("sandbox_tier"),
        "sandbox": result.extra.get("sandbox"),
        "review_flags": flags,
        "code_hash": recorded.stored.run.code_hash,
        "engine_version": result.engine_version,
    }
    return Reply(text="\n".join(lines), tables=tables, data=data, ok=result.ok)


def submit(ctx: AppContext, inv: Invocation) -> Reply:
    if not inv.attachments:
        raise UsageError("nothing to judge", hint="attach a .py/.ir file or paste the code (CLI: sutro submit PATH)")
    challenge = _challenge_option(inv)
    code = _decode(inv.attachments[0].content)
    label = inv.options.get("name") or inv.attachments[0].name
    recorded = judge_submission(
        ctx,
        code,
        challenge=challenge,
        label=label,
        member=inv.caller.name,
        force="force" in inv.flags,
        progress=inv.progress,
    )
    return submission_card(ctx, recorded, label)
