"""Tool configuration: every key's default validates and a bad value is refused with a one-line reason naming
the key; changes are stored with who/when/old/new, take effect on the next read, and are published to
subscribers."""

from __future__ import annotations

from typing import Any

import pytest

from engine.challenges import CHALLENGES
from engine.methods import METHODS
from storage.tables import ToolConfigValue
from tools.config.events import ConfigEvents
from tools.config.schema import build_schema
from tools.config.store import ToolConfig
from tools.errors import ToolError

# key -> (a valid text and the value it is stored as, an invalid text and a fragment of the reason)
CASES: dict[str, tuple[str, Any, str, str]] = {
    "sprint_log.document_id": ("1AbC-dEf_9", "1AbC-dEf_9", "", ""),
    "sprint_log.sink": ("gdocs", "gdocs", "word", "must be one of markdown, gdocs"),
    "sprint_log.timezone": ("Asia/Kolkata", "Asia/Kolkata", "Asia/Kolkatta", "did you mean Asia/Kolkata?"),
    "sprint_log.per_member": ("yes", True, "both", "must be true or false"),
    "digest.enabled": ("off", False, "maybe", "must be true or false"),
    "digest.day": ("Friday", "fri", "0", "must be one of mon, tue, wed, thu, fri, sat, sun (a day name, not"),
    "digest.time": ("9:05", "09:05", "24:00", "must be a 24-hour time HH:MM"),
    "digest.timezone": ("Europe/Berlin", "Europe/Berlin", "Europe/Berln", "did you mean Europe/Berlin?"),
    "digest.chat_id": ("-1001500000001", -1001500000001, "group", "must be a Telegram id"),
    "digest.topic_id": ("none", None, "7.5", "must be a Telegram id"),
    "verdict.min_change": ("0.05", 0.05, "2", "must be a number from 0 to 1"),
    "verdict.spread_factor": ("2", 2.0, "-1", "must be a number from 0 to 10"),
    "epoch.rejudge_budget": ("7", 7, "0", "must be a whole number from 1 to 10000"),
    "baseline.reference": ("local_update", "local_update", "sdg", "must be one of"),
    "seeds.default": ("0, 1,2", [0, 1, 2], "1,1", "each seed may appear once"),
    "seeds.max": ("3", 3, "0", "must be a whole number from 1 to 100"),
    "records.sync_hours": ("12", 12, "-1", "must be a whole number from 0 to 720"),
    "records.sync_source": ("/srv/sutro-problems", "/srv/sutro-problems", "  ", "must not be empty"),
    "limits.cpu_s": ("2.5", 2.5, "0", "must be a number from 1 to 600"),
    "limits.wall_s": ("30", 30.0, "1801", "must be a number from 1 to 1800"),
    "limits.memory_mib": ("512", 512, "512.5", "must be a whole number from 256 to 65536"),
    "limits.job_wall_s": ("900", 900.0, "nan", "must be a number from 10 to 86400"),
    "limits.queue_per_member": ("5", 5, "0", "must be a whole number from 1 to 100"),
    "limits.sweep_points": ("12", 12, "201", "must be a whole number from 1 to 200"),
    "records.spc_source": ("none", "none", "", "must not be empty"),
    "explore.boards": (
        "matmul_4x4, mask_sparse_parity",
        ["matmul_4x4", "mask_sparse_parity"],
        "matmul_16x61",
        "has unknown IR board 'matmul_16x61' (did you mean matmul_16x16?)",
    ),
    "explore.max_steps": ("50", 50, "0", "must be a whole number from 1 to 100000"),
    "explore.max_seconds": ("90", 90.0, "0", "must be a number from 1 to 86400"),
    "explore.max_spend_usd": ("0.25", 0.25, "-1", "must be a number ≥ 0"),
    "explore.stale_steps": ("5", 5, "0", "must be a whole number from 1 to 10000"),
    "explore.invalid_in_a_row": ("3", 3, "0", "must be a whole number from 1 to 10000"),
    "limits.source_kib": ("64", 64, "0", "must be a whole number from 1 to 4096"),
    "limits.code_kib": ("1024", 1024, "65537", "must be a whole number from 1 to 65536"),
    "limits.running_per_member": ("0", 0, "-1", "must be a whole number from 0 to 100"),
    "limits.limit_failures_per_hour": ("5", 5, "0", "must be a whole number from 1 to 1000"),
    "challenges.enabled": (
        "matmul_4x4, sparse_parity",
        ["matmul_4x4", "sparse_parity"],
        "sparse_parti",
        "unknown challenge 'sparse_parti' (did you mean sparse_parity?)",
    ),
    "methods.enabled": ("sgd,gf2", ["sgd", "gf2"], "sdg", "unknown method 'sdg'"),
    "chats.allowed": ("-100,-200", [-100, -200], "-100,abc", "comma-separated integer ids"),
    "assistant.model": ("claude-x", "claude-x", "  ", "must not be empty"),
    "assistant.monthly_budget_usd": ("0", 0.0, "nan", "must be a number ≥ 0"),
}


@pytest.fixture
def config(db_sessions: Any) -> ToolConfig:
    return ToolConfig(db_sessions)


def test_every_key_is_covered_and_every_default_validates() -> None:
    schema = build_schema()
    primary = {f"metric.primary.{name}" for name in CHALLENGES.names()}
    assert set(schema) == set(CASES) | primary
    for key in schema.values():
        assert key.check(key.default) == key.default, key.name


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_key_accepts_a_good_value_and_refuses_a_bad_one(config: ToolConfig, name: str) -> None:
    good, stored, bad, reason = CASES[name]
    assert config.set(name, good, by="ann").new == stored
    assert config.get(name) == stored
    if not reason:  # free text: everything is accepted
        return
    with pytest.raises(ToolError) as err:
        config.set(name, bad, by="ann")
    line = err.value.one_line()
    assert line.startswith(f"{name} ") and reason in line and "\n" not in line
    assert config.get(name) == stored  # the refused value changed nothing
    assert len(config.history(name)) == 1


def test_primary_metric_accepts_only_the_challenges_track_metrics(config: ToolConfig) -> None:
    config.set("metric.primary.sparse_parity", "bytedmd@2", by="ann")
    assert config.get("metric.primary.sparse_parity") == "bytedmd@2"
    with pytest.raises(ToolError, match="must be one of dally@1"):
        config.set("metric.primary.matmul_4x4", "dmc@1", by="ann")  # an IR challenge has no DMC


def test_unknown_key_names_the_closest_one(config: ToolConfig) -> None:
    with pytest.raises(ToolError) as err:
        config.set("digest.dya", "mon", by="ann")
    assert err.value.one_line() == "unknown key digest.dya — did you mean digest.day?"


def test_history_records_who_when_old_and_new_newest_first(config: ToolConfig) -> None:
    config.set("digest.day", "tue", by="ann")
    config.set("digest.day", "fri", by="bob")
    config.set("digest.time", "18:30", by="bob")
    config.reset("digest.day", by="cy")
    assert config.get("digest.day") == "mon"  # the default again
    day = [(c.old, c.new, c.by) for c in config.history("digest.day")]
    assert day == [("fri", None, "cy"), ("tue", "fri", "bob"), ("mon", "tue", "ann")]
    everything = config.history()
    assert [c.key for c in everything] == ["digest.day", "digest.time", "digest.day", "digest.day"]
    assert all(c.at.tzinfo is not None for c in everything)
    assert everything[0].at >= everything[-1].at


def test_a_change_from_another_process_is_seen_on_the_next_read(db_sessions: Any) -> None:
    reader, writer = ToolConfig(db_sessions), ToolConfig(db_sessions)
    assert reader.get("digest.time") == "09:00"
    writer.set("digest.time", "07:15", by="terminal")
    assert reader.get("digest.time") == "07:15"


def test_seeds_replace_defaults_and_overrides_replace_seeds(db_sessions: Any) -> None:
    config = ToolConfig(db_sessions, seeds={"chats.allowed": [-5], "sprint_log.sink": "gdocs"})
    assert config.get("chats.allowed") == [-5] and config.get("sprint_log.sink") == "gdocs"
    config.set("chats.allowed", "-6", by="ann")
    assert config.get("chats.allowed") == [-6]


def test_a_stored_value_the_schema_no_longer_accepts_falls_back_to_the_default(db_sessions: Any) -> None:
    with db_sessions() as session:
        session.add(ToolConfigValue(key="digest.day", value="funday", updated_by="old version"))
        session.commit()
    setting = ToolConfig(db_sessions).setting("digest.day")
    assert setting.value == "mon" and not setting.overridden
    assert setting.refused.startswith("digest.day: the stored funday is refused (must be one of mon, tue")
    assert "the default mon applies" in setting.refused and "\n" not in setting.refused


def test_a_retired_metric_version_is_refused_naming_the_current_one(config: ToolConfig) -> None:
    with pytest.raises(ToolError) as err:
        config.set("metric.primary.sparse_parity", "bytedmd@1", by="ann")
    assert err.value.one_line().startswith(
        "metric.primary.sparse_parity bytedmd@1 is not a current metric version (bytedmd@2 is); "
        "choose one of dmc@1, ard@1, ard_per_read@1, bytedmd@2"
    )
    assert config.get("metric.primary.sparse_parity") == "dmc@1" and config.history() == []  # nothing stored


def test_a_stored_retired_metric_version_is_reported_not_silently_replaced(db_sessions: Any) -> None:
    with db_sessions() as session:  # stored while bytedmd@1 was current
        session.add(ToolConfigValue(key="metric.primary.sparse_parity", value="bytedmd@1", updated_by="ann"))
        session.commit()
    config = ToolConfig(db_sessions)
    assert config.primary_metrics()["sparse_parity"] == "dmc@1"
    [note] = config.refused_primary_metrics()
    assert note.startswith("metric.primary.sparse_parity: the stored bytedmd@1 is refused (bytedmd@1 is not a current")
    assert "the default dmc@1 applies" in note


def test_subscribers_hear_each_committed_change(db_sessions: Any) -> None:
    events = ConfigEvents()
    heard: list[str] = []
    unsubscribe = events.subscribe(heard.append)
    config = ToolConfig(db_sessions, on_change=events.publish)
    config.set("digest.day", "wed", by="ann")
    with pytest.raises(ToolError):
        config.set("digest.day", "someday", by="ann")
    config.reset("digest.day", by="ann")
    unsubscribe()
    config.set("digest.day", "thu", by="ann")
    assert heard == ["digest.day", "digest.day"]


def test_all_lists_methods_and_challenges_from_the_registries(config: ToolConfig) -> None:
    values = {s.key.name: s.value for s in config.all()}
    assert values["challenges.enabled"] == CHALLENGES.names()
    assert values["methods.enabled"] == METHODS.names()
