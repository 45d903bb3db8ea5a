"""``sutro config …`` in the terminal (the local user is an admin); the admin check shared with the chat."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bot.app import build_context
from bot.cli import main
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.dispatch import execute
from storage.tables import ToolConfigValue


def sutro(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_set_get_reset_history_from_the_terminal() -> None:
    assert sutro("config", "set", "digest.day", "fri")[0] == 0
    assert sutro("config", "set", "digest.time=18:30")[0] == 0  # key=value form
    code, out = sutro("config", "get", "digest.day", "--json")
    assert code == 0 and json.loads(out)["value"] == "fri" and json.loads(out)["overridden"] is True
    assert sutro("config", "reset", "digest.day")[0] == 0
    code, out = sutro("config", "history", "--json")
    changes = json.loads(out)["changes"]
    assert [(c["key"], c["old"], c["new"], c["by"]) for c in changes] == [
        ("digest.day", "fri", None, "local"),
        ("digest.time", "09:00", "18:30", "local"),
        ("digest.day", "mon", "fri", "local"),
    ]
    code, out = sutro("config", "list", "--json")
    assert json.loads(out)["settings"]["digest.time"] == "18:30" and json.loads(out)["settings"]["digest.day"] == "mon"


def test_bad_input_is_one_line_with_a_hint() -> None:
    for args, expected in [
        (("config", "set", "digest.dya", "mon"), "unknown key digest.dya — did you mean digest.day?"),
        (
            ("config", "set", "digest.day", "someday"),
            "digest.day must be one of mon, tue, wed, thu, fri, sat, sun",
        ),
        (("config", "frobnicate"), "unknown config action 'frobnicate'"),
        (("config", "set", "digest.day"), "config set digest.day needs a VALUE"),
    ]:
        code, out = sutro(*args)
        assert code == 2 and expected in out and "Traceback" not in out, (args, out)
    assert json.loads(sutro("config", "history", "--json")[1])["changes"] == []


def test_a_non_admin_is_refused_and_nothing_is_recorded() -> None:
    ctx = build_context()
    command = command_named("config")
    assert command is not None and command.admin_only
    member = Caller(name="mallory", user_id=4001, chat_id=-100, is_admin=False)
    reply, status = execute(ctx, command, Invocation("config", args=["set", "digest.day", "tue"], caller=member))
    assert status == 2 and reply.text == "/config is for admins only"
    assert ctx.tool_config().get("digest.day") == "mon" and ctx.tool_config().history() == []


def test_the_primary_metric_setting_ranks_the_leaderboard_at_once() -> None:
    from storage.runs import NewRun, record_run

    # alice leads on DMC (10 < 20), bob on ARD (30 < 50): the ranking metric decides who is first.
    with build_context().sessions()() as session:
        for member, dmc, ard in (("alice", 10.0, 50.0), ("bob", 20.0, 30.0)):
            record_run(
                session,
                NewRun(
                    challenge="sparse_parity",
                    kind="method",
                    subject="sgd",
                    ok=True,
                    metrics={"dmc@1": dmc, "ard@1": ard},
                    request_key=member,
                    member=member,
                    engine_version="t",
                ),
            )

    def board() -> tuple[str, list[str]]:
        [payload] = json.loads(sutro("leaderboard", "sparse_parity", "--json")[1])["boards"]
        return payload["metric"], [row["member"] for row in payload["rows"]]

    assert board() == ("dmc@1", ["alice", "bob"])
    assert sutro("config", "set", "metric.primary.sparse_parity", "ard@1")[0] == 0
    assert board() == ("ard@1", ["bob", "alice"])


def test_a_sprint_log_setting_change_applies_without_a_restart() -> None:
    ctx = build_context()
    log = command_named("log")
    assert log is not None
    try:
        reply, status = execute(ctx, log, Invocation("log", args=["first note"]))
        assert status == 0 and "written to the markdown sprint log" in reply.text
        ctx.tool_config().set("sprint_log.sink", "gdocs", by="local")  # no document id: the new sink refuses
        reply, status = execute(ctx, log, Invocation("log", args=["second note"]))
        assert status == 1 and "saved as entry 2; not delivered" in reply.text and "needs a document id" in reply.text
        ctx.tool_config().reset("sprint_log.sink", by="local")
        reply, status = execute(ctx, log, Invocation("log", args=["third note"]))
        assert status == 0 and "markdown" in reply.text
    finally:
        ctx.close()
    text = (ctx.settings.data_dir / "sprint-log.md").read_text()
    # the note saved while the sink was misconfigured is delivered, in order, once the settings are right
    assert text.index("first note") < text.index("second note") < text.index("third note")


@pytest.mark.slow  # 0.8 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_stored_retired_primary_metric_is_said_in_config_and_on_the_boards() -> None:
    ctx = build_context()
    admin = Caller(name="local", is_admin=True)

    def reply_to(name: str, *args: str, **options: str) -> str:
        command = command_named(name)
        assert command is not None
        reply, status = execute(ctx, command, Invocation(name, args=list(args), options=options, caller=admin))
        assert status == 0, reply.text
        return reply.text

    try:
        with ctx.sessions()() as session:  # an override stored while bytedmd@1 was the current version
            session.add(ToolConfigValue(key="metric.primary.sparse_parity", value="bytedmd@1", updated_by="ann"))
            session.commit()
        note = (
            "metric.primary.sparse_parity: the stored bytedmd@1 is refused (bytedmd@1 is not a current metric "
            "version (bytedmd@2 is); choose one of dmc@1, ard@1, ard_per_read@1, bytedmd@2, dmd@1), so the default "
            "dmc@1 "
            "applies; /config set metric.primary.sparse_parity VALUE or /config reset metric.primary.sparse_parity"
        )
        got = reply_to("config", "get", "metric.primary.sparse_parity")
        assert got.startswith("metric.primary.sparse_parity = dmc@1 (default)") and note in got.splitlines()
        assert note in reply_to("config", "list").splitlines()
        reply_to("run", "gf2", n="8", seed="1")
        assert note in reply_to("leaderboard", "sparse_parity", n="8").splitlines()
    finally:
        ctx.close()
