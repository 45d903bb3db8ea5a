"""``config list|get KEY|set KEY VALUE|reset KEY|history [KEY]``: the admin-editable tool settings, audited.

Admins only (the terminal user is a local admin): the dispatcher refuses anyone else before the handler runs,
so a refused change is never stored nor recorded. Every change is stored with who, when, old and new value
(tools/config/store.py) and takes effect without a restart (the digest is rescheduled at once).
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.boards import next_page_hint, page_number, page_of, paging_of
from bot.context import AppContext
from tools.config.store import Change, Setting, describe

USAGE = usage_of("config")
ACTIONS = ("list", "get", "set", "reset", "history")
LIST_ROWS = 16
"""Settings on one page of ``config list``: with the reply's three lines, and a few long keys that wrap, a page stays
within the 25 lines of a phone screen at 40 characters a line."""
PHONE_LINE = 40
MIN_VALUE_CHARS = 12


def _usage(message: str) -> UsageError:
    return UsageError(message, hint=f"usage: config {USAGE}")


def _change_row(change: Change) -> list[str]:
    new = "(reset to default)" if change.new is None else describe(change.new)
    return [f"{change.at:%Y-%m-%d %H:%M}", change.key, describe(change.old), new, change.by]


def _change_data(change: Change) -> dict[str, object]:
    return {
        "key": change.key,
        "old": change.old,
        "new": change.new,
        "by": change.by,
        "at": change.at.isoformat(),
    }


def _list(ctx: AppContext, options: dict[str, str], wanted: int, args: list[str]) -> Reply:
    """``config list [page=N]``: :data:`LIST_ROWS` settings a page as ``key: value`` (the value cut to fit a phone
    line; ``config get KEY`` shows all of it, what it accepts and its default); ``--json`` has every setting whole."""
    if options or args[1:]:
        raise _usage("config list takes only page=N")
    settings = ctx.tool_config().all()
    page = page_of(settings, wanted, LIST_ROWS)
    paging = paging_of("config", ("list",), {}, page.number, page.pages)
    first = (page.number - 1) * LIST_ROWS + 1
    head = f"settings {first}–{first + len(page.rows) - 1} of {len(settings)}" if page.pages > 1 else "settings"
    return Reply(
        text="\n".join(
            line
            for line in [
                f"{head}; (set) = by an admin",
                *(s.refused for s in settings if s.refused),
                "/config get KEY shows one in full",
                next_page_hint(paging),
            ]
            if line
        ),
        tables=[Table(headers=["key", "value"], rows=[_list_row(s) for s in page.rows])],
        paging=paging,
        data={
            "ok": True,
            "page": page.number,
            "pages": page.pages,
            "settings": {s.key.name: s.value for s in settings},
        },
    )


def _list_row(setting: Setting) -> list[str]:
    """``[key, value]`` with the value cut (…) so that ``key: value`` fits :data:`PHONE_LINE` characters, keeping at
    least :data:`MIN_VALUE_CHARS` of it; ``(set)`` marks a value an admin changed."""
    value = describe(setting.value) + (" (refused)" if setting.refused else " (set)" if setting.overridden else "")
    room = max(MIN_VALUE_CHARS, PHONE_LINE - len(setting.key.name) - 2)
    return [setting.key.name, value if len(value) <= room else value[: room - 1] + "…"]


def run_config(ctx: AppContext, inv: Invocation) -> Reply:
    args = list(inv.args)
    if args[:1] in ([], ["list"]) and "page" in inv.options:
        return _list(ctx, {k: v for k, v in inv.options.items() if k != "page"}, page_number(inv.options), args)
    if inv.options:  # ``set digest.day=mon`` is accepted as ``set digest.day mon``
        if len(inv.options) != 1 or (args[:1] != ["set"]):
            raise _usage("use KEY VALUE, not KEY=VALUE, except in a single 'set'")
        [(key, value)] = inv.options.items()
        args += [key, value]
    if not args:
        args = ["list"]
    action, rest = args[0], args[1:]
    if action not in ACTIONS:
        raise _usage(f"unknown config action '{action}'")
    config = ctx.tool_config()
    who = inv.caller.name if inv.caller.user_id is None else f"{inv.caller.name} ({inv.caller.user_id})"
    if action == "list":
        return _list(ctx, {}, 1, args)
    if action == "history":
        if len(rest) > 1:
            raise _usage("history takes at most one KEY")
        changes = config.history(rest[0] if rest else None)
        text = f"{len(changes)} change(s), newest first" if changes else "no changes yet"
        return Reply(
            text=text,
            tables=[Table(headers=["when (UTC)", "key", "old", "new", "by"], rows=[_change_row(c) for c in changes])],
            data={"ok": True, "changes": [_change_data(c) for c in changes]},
        )
    if not rest:
        raise _usage(f"config {action} needs a KEY")
    key = rest[0]
    if action == "get":
        setting = config.setting(key)
        source = "set by an admin" if setting.overridden else "default"
        return Reply(
            text=f"{key} = {describe(setting.value)} ({source}) — {setting.key.description} "
            f"Accepts: {setting.key.kind}; default {describe(setting.key.default)}."
            + (f"\n{setting.refused}" if setting.refused else ""),
            data={
                "ok": True,
                "key": key,
                "value": setting.value,
                "overridden": setting.overridden,
                **({"refused": setting.refused} if setting.refused else {}),
            },
        )
    if action == "reset":
        change = config.reset(key, by=who)
        return Reply(
            text=f"{key} reset to its default {describe(change.new)} (was {describe(change.old)})",
            data={"ok": True, **_change_data(change)},
        )
    if len(rest) < 2:
        raise _usage(f"config set {key} needs a VALUE")
    change = config.set(key, " ".join(rest[1:]), by=who)
    return Reply(
        text=f"{key} = {describe(change.new)} (was {describe(change.old)})",
        data={"ok": True, **_change_data(change)},
    )
