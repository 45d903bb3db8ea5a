"""The parameters of a stored method run that differ from the method's defaults (pure), for board rows and log
entries: ``lr=0.5`` must be visible where a sweep point is ranked beside default runs.

The defaults are the method's own at the run's instance (``n``, ``k``, ``task``: a default may depend on them), as
:func:`engine.methods.method_values` fills them in. The instance and the seeds are left out: the board names the
instance, and a board whose entries used different seed sets says so under its title.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import EngineError

INSTANCE = ("n", "k", "task", "seed", "seeds")
"""What a row does not repeat: the board's instance and the seed set."""


def changed_params(kind: str, subject: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameter -> value for each of a method run's parameters that is not its default ({} for other kinds, an
    unknown method, or a run at its defaults)."""
    if kind != "method":
        return {}
    from engine.methods import method_values

    instance = {key: params[key] for key in ("n", "k", "task") if key in params}
    try:
        defaults = method_values(subject, instance)[1]
    except EngineError:
        return {}
    return {
        key: value
        for key, value in sorted(params.items())
        if key not in INSTANCE and key in defaults and defaults[key] != value
    }


def changed_words(kind: str, subject: str, params: Mapping[str, Any]) -> str:
    """``lr=0.5 epochs=50`` ("" at the defaults)."""
    return " ".join(f"{key}={value}" for key, value in changed_params(kind, subject, params).items())


def method_label(kind: str, subject: str, params: Mapping[str, Any]) -> str:
    """A board row's method: ``sgd`` at its defaults, ``sgd lr=0.5`` otherwise."""
    words = changed_words(kind, subject, params)
    return f"{subject} {words}" if words else subject
