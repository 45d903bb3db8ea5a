"""Parsers for the kinds of value an admin may type in ``/config set KEY VALUE`` (pure).

Each parser turns the typed text into the stored JSON value or raises :class:`ValueError` with the reason,
worded to follow the key's name ("must be one of mon, tue, …, sun"). Validation of an already-parsed value (a
default, a stored value) goes through the same parser applied to its text form (:func:`as_text`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

Parser = Callable[[str], Any]

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""Day names as APScheduler 3's CronTrigger reads them (never numbers: see
docs/integrations.md#weekly-digest-scheduling)."""

_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
NONE_WORDS = {"none", "-", ""}


def as_text(value: Any) -> str:
    """The text an admin would type for ``value`` (lists comma-separated, None as ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def text_value(text: str) -> str:
    return text.strip()


def nonempty_text(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text.strip()


def boolean(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError("must be true or false (also yes/no, on/off)")


def one_of(choices: Iterable[str]) -> Parser:
    options = tuple(choices)

    def parse(text: str) -> str:
        word = text.strip().lower()
        if word not in options:
            raise ValueError("must be one of " + ", ".join(options))
        return word

    return parse


def metric_version(choices: Iterable[str]) -> Parser:
    """One of the ``name@version`` metrics ``choices``; a known name at another version (``bytedmd@1`` when only
    ``bytedmd@2`` is computed: a retired version, whose stored values are not comparable) is named as such."""
    options = tuple(choices)

    def parse(text: str) -> str:
        word = text.strip().lower()
        if word in options:
            return word
        current = [o for o in options if o.split("@")[0] == word.split("@")[0]]
        if current:
            raise ValueError(
                f"{word} is not a current metric version ({current[0]} is); choose one of {', '.join(options)}"
            )
        raise ValueError("must be one of " + ", ".join(options))

    return parse


_FULL_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def day_name(text: str) -> str:
    """A weekday as its three-letter name (``fri``); ``Friday`` and ``FRI`` are accepted too. Never a number:
    0 is Monday to APScheduler but Sunday to cron (docs/integrations.md#weekly-digest-scheduling), so numbers are
    refused."""
    word = text.strip().lower()
    if word in _FULL_DAYS:
        return DAY_NAMES[_FULL_DAYS.index(word)]
    if word not in DAY_NAMES:
        raise ValueError("must be one of " + ", ".join(DAY_NAMES) + " (a day name, not a number)")
    return word


def clock_time(text: str) -> str:
    """``HH:MM`` on a 24-hour clock, normalised to two-digit hours (``9:05`` -> ``09:05``)."""
    match = _TIME.match(text.strip())
    if not match:
        raise ValueError("must be a 24-hour time HH:MM, e.g. 09:00")
    return f"{int(match.group(1)):02d}:{match.group(2)}"


def timezone_name(text: str) -> str:
    """An IANA timezone name known to :mod:`zoneinfo` (``Europe/Berlin``, ``UTC``)."""
    name = text.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        import difflib

        close = difflib.get_close_matches(name, sorted(available_timezones()), n=1, cutoff=0.6)
        hint = f" — did you mean {close[0]}?" if close else ", e.g. Europe/Berlin or UTC"
        raise ValueError(f"must be an IANA timezone name{hint}") from None
    return name


def optional_timezone_name(text: str) -> str:
    """An IANA timezone name, or ``""`` / ``none`` (follow another setting)."""
    return "" if text.strip().lower() in ("", "none", "default") else timezone_name(text)


def number(*, minimum: float, integer: bool, maximum: float | None = None) -> Parser:
    """A number (whole when ``integer``) within ``minimum`` … ``maximum`` (no upper bound when None)."""
    kind = "a whole number" if integer else "a number"
    rule = f"{kind} ≥ {minimum:g}" if maximum is None else f"{kind} from {minimum:g} to {maximum:g}"

    def parse(text: str) -> float | int:
        try:
            value: float | int = int(text.strip()) if integer else float(text.strip())
        except ValueError:
            raise ValueError(f"must be {rule}") from None
        if value != value or value < minimum or (maximum is not None and value > maximum):  # NaN fails the first
            raise ValueError(f"must be {rule}")
        return value

    return parse


def optional_chat_id(text: str) -> int | None:
    """A Telegram chat or topic id (an integer, negative for groups) or ``none``."""
    if text.strip().lower() in NONE_WORDS:
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError("must be a Telegram id (an integer such as -1001234567890) or none") from None


def id_list(text: str) -> list[int]:
    """Comma-separated integer ids; empty or ``none`` is the empty list."""
    if text.strip().lower() in NONE_WORDS:
        return []
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise ValueError("must be comma-separated integer ids, e.g. -1001,-1002 (or none)") from None


SEED_MAX = 2**32 - 1
"""Largest seed (``numpy.random.RandomState`` accepts 0 … 2³² − 1)."""


def seed_list(text: str) -> list[int]:
    """Comma-separated distinct seeds, each a whole number in [0, 2³² − 1], at least one (``42,123,456``)."""
    parts = [p for p in text.replace(" ", "").split(",") if p]
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError("must be comma-separated whole-number seeds, e.g. 0,1,2")
    seeds = [int(p) for p in parts]
    if any(s > SEED_MAX for s in seeds):
        raise ValueError(f"seeds go from 0 to {SEED_MAX}")
    if len(set(seeds)) != len(seeds):
        raise ValueError("each seed may appear once")
    return seeds


def name_list(known: Iterable[str], *, what: str) -> Parser:
    """Comma-separated names, each one of ``known`` (``all`` = every known name, ``none`` = empty)."""
    names = tuple(known)

    def parse(text: str) -> list[str]:
        word = text.strip().lower()
        if word == "all":
            return list(names)
        if word in NONE_WORDS:
            return []
        chosen = [part.strip() for part in text.split(",") if part.strip()]
        for name in chosen:
            if name not in names:
                import difflib

                close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise ValueError(f"has unknown {what} '{name}'{hint}; known: " + ", ".join(names))
        return list(dict.fromkeys(chosen))

    return parse
