"""The challenge registry: one module per challenge, registered here.

A challenge names its track (``ir`` for Dally-scored IR programs, ``numpy`` for instrumented Python methods and
``solve()`` submissions), a one-line summary, its primary metric (``name@version``), the parameters that define
one of its problem instances (boards, records and comparisons never mix instances; tools/board.py) and, once the
group has retired it, the date it did (``retired``; retired challenges stay scoreable but are not offered as
current).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.errors import EngineError
from engine.lazy import lazy_exports
from engine.registry import Registry


class Challenge(Protocol):
    """What every registry entry offers; tracks add their own fields (inputs/outputs, hidden instances …)."""

    @property
    def name(self) -> str: ...

    @property
    def track(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def primary_metric(self) -> str: ...

    @property
    def retired(self) -> str | None: ...

    @property
    def instance_params(self) -> dict[str, int | float]:
        """Parameter -> its standard value, for each parameter that changes the problem itself (``n``, ``k`` of the
        sparse tasks, threshold's ``t``); empty when the name is the instance (the IR challenges)."""
        ...


def current(challenge: Challenge) -> bool:
    """Whether ``challenge`` is one the group works on today (not retired)."""
    return challenge.retired is None


def retired_name(name: str) -> bool:
    """Whether ``name`` is a registered challenge the group has retired (False for a name not registered)."""
    try:
        return not current(CHALLENGES.get(name))
    except EngineError:
        return False


def current_names() -> list[str]:
    """The listed challenges that are not retired, in registry order."""
    return [c.name for c in CHALLENGES if current(c)]


CHALLENGES: Registry[Challenge] = Registry("challenge", offered=current)  # retired tiers: by exact name only


def _register_builtin() -> None:
    """Register the built-in challenges (imports here: the challenge modules need ``Challenge`` defined above)."""
    from engine.challenges import mask_sparse_parity, matmul, sparse_parity, sparse_parity_ir, sparse_tasks, symmetry

    for entry in (
        sparse_parity.SPARSE_PARITY,
        matmul.MATMUL_1X1,
        matmul.MATMUL_4X4,
        matmul.MATMUL_16X16,
        sparse_parity_ir.SPARSE_PARITY_SMALL,
        sparse_parity_ir.SPARSE_PARITY_MEDIUM,
        sparse_parity_ir.SPARSE_PARITY_MEDIUM_APPROX50,
        mask_sparse_parity.MASK_SPARSE_PARITY,
        symmetry.SYMMETRY_SIX,
        symmetry.SYMMETRY_EIGHT,
    ):
        CHALLENGES.register(entry.name, entry)
    CHALLENGES.add_family(matmul.sized)
    for task in sparse_tasks.TASKS:
        if task.name != sparse_parity.SPARSE_PARITY.name:
            CHALLENGES.register(task.name, task)


_register_builtin()


def instance_params(challenge: str) -> dict[str, int | float]:
    """The instance parameters of ``challenge`` with their standard values (:attr:`Challenge.instance_params`); empty
    for a challenge that is not registered (a stored run of a retired name keeps the instance in its name)."""
    return CHALLENGES.get(challenge).instance_params if challenge in CHALLENGES else {}


def rules_version(challenge: str) -> str:
    """The correctness rules results on ``challenge`` are judged under today (``matmul rules@2``); "" for a
    challenge whose rules never changed or that is not registered. Part of a stored request's key, so a result
    judged under older rules is never served for today's."""
    if challenge not in CHALLENGES:
        return ""
    return str(getattr(CHALLENGES.get(challenge), "rules", "") or "")


# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.challenges.ir_track import BAND_PARAM as BAND_PARAM
    from engine.challenges.ir_track import IRChallenge as IRChallenge
    from engine.challenges.sparse_tasks import SPARSE_PARITY_TASK as SPARSE_PARITY_TASK
    from engine.challenges.sparse_tasks import TASKS as TASKS

_PUBLIC: dict[str, str] = {
    "BAND_PARAM": "engine.challenges.ir_track",
    "IRChallenge": "engine.challenges.ir_track",
    "SPARSE_PARITY_TASK": "engine.challenges.sparse_tasks",
    "TASKS": "engine.challenges.sparse_tasks",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = [
    "BAND_PARAM",
    "CHALLENGES",
    "Challenge",
    "IRChallenge",
    "SPARSE_PARITY_TASK",
    "TASKS",
    "current",
    "current_names",
    "instance_params",
    "retired_name",
    "rules_version",
]


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
