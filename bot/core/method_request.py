"""A built-in method run as asked: the method, its validated parameters, its seed set, and who asks (pure).

``run local_update n=20`` names no seed: the admins' default seed set applies (``seeds.default``, the
sparse-parity-challenge protocol's 42, 123, 456). ``seed=7`` is a set of one; ``seeds=0,1,2`` a set of three, at most
``seeds.max`` seeds. A set of one is stored exactly as single-seed runs always were (``seed`` among the
parameters); a larger set stores ``seeds`` (the list) instead of ``seed``, so each set has its own request key and
its own baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.seed_task import SeedTask
from engine.errors import BadParameter
from engine.methods import method_values
from engine.metrics import metrics_for
from storage.tables import ROLE_MEMBER
from tools.config.values import seed_list
from tools.errors import ToolError
from tools.run_request import NormalisedRequest

METHOD_METRICS = metrics_for("numpy", "method")
"""The metric versions a traced method run computes (part of its stored request)."""


def _seeds_of(text: Any) -> tuple[int, ...]:
    """``seeds=0,1,2`` (text, or a list from code) as a tuple; BadParameter in one line when malformed."""
    as_text = ",".join(map(str, text)) if isinstance(text, list | tuple) else str(text)
    try:
        return tuple(seed_list(as_text))
    except ValueError as err:
        raise BadParameter(f"seeds={as_text}: {err}", hint="e.g. seeds=0,1,2 (or seed=7 for one seed)") from None


@dataclass(frozen=True)
class MethodRequest:
    """A method run as asked.

    params: validated and defaulted (a set of several seeds: ``seeds`` instead of ``seed``); raw: as typed, without
    ``seed``/``seeds``; seeds: the set; seeds_named: whether ``seed=``/``seeds=`` was given (else the admins'
    default set replaces ``seeds`` before the run, :meth:`with_seeds`); role: ``member`` or ``baseline``.
    """

    name: str
    params: dict[str, Any]
    raw: dict[str, Any] = field(default_factory=dict)
    challenge: str = "sparse_parity"
    seeds: tuple[int, ...] = (0,)
    seeds_named: bool = True
    role: str = ROLE_MEMBER

    @classmethod
    def parse(cls, name: str, params: dict[str, Any], *, role: str = ROLE_MEMBER) -> MethodRequest:
        """Validate ``params`` for method ``name``; UnknownName / BadParameter (one line, a hint) when wrong."""
        raw = dict(params)
        named_set = raw.pop("seeds", None)
        if named_set is not None and "seed" in raw:
            raise BadParameter("name seed= or seeds=, not both", hint="seed=7 runs one seed, seeds=0,1,2 a set")
        seeds = _seeds_of(named_set) if named_set is not None else ()
        one = raw.pop("seed", None)
        challenge, values = method_values(
            name, {**raw, **({"seed": seeds[0] if seeds else one} if seeds or one is not None else {})}
        )
        if not seeds:
            seeds = (int(values["seed"]),)
        request = cls(name, values, raw, challenge, seeds, named_set is not None or one is not None, role)
        return request.with_seeds(seeds)

    def with_seeds(self, seeds: Sequence[int]) -> MethodRequest:
        """The same request over ``seeds`` (its parameters rewritten: ``seed`` for one, ``seeds`` for several)."""
        base = {k: v for k, v in self.params.items() if k not in ("seed", "seeds")}
        params = {**base, "seed": seeds[0]} if len(seeds) == 1 else {**base, "seeds": list(seeds)}
        return replace(self, params=params, seeds=tuple(seeds))

    def check_cap(self, most: int) -> None:
        """Refuse a set larger than the admins' ``seeds.max`` (one line, nothing runs)."""
        if len(self.seeds) > most:
            raise ToolError(
                f"{len(self.seeds)} seeds is over this group's limit of {most}",
                hint=f"name at most {most} seeds (an admin sets seeds.max)",
            )

    @property
    def tasks(self) -> list[SeedTask]:
        """One run per seed of the set (the method's raw parameters with that seed); only the first seed says where
        its cost went, the one table a stored set keeps."""
        return [SeedTask(self.name, {**self.raw, "seed": s}, attribution=i == 0) for i, s in enumerate(self.seeds)]

    @property
    def stored(self) -> NormalisedRequest:
        """The request under which the run is stored (its parameters, the metric versions and the role)."""
        return NormalisedRequest(
            challenge=self.challenge,
            kind="method",
            subject=self.name,
            params=self.params,
            metric_versions=METHOD_METRICS,
            role=self.role,
        )
