"""A small name -> entry registry with "did you mean" lookups, used for challenges, methods and metrics.

Besides its listed entries a registry may hold *families*: functions that build an entry from a name on demand
(``matmul_32x32``), so that a parameterised challenge is reachable by name without listing every size.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from engine.errors import EngineError, UnknownName

T = TypeVar("T")


class Registry(Generic[T]):
    """Ordered mapping of unique names to entries; ``get`` raises :class:`UnknownName` with suggestions."""

    def __init__(self, kind: str, *, offered: Callable[[T], bool] | None = None) -> None:
        """``offered``: which entries "did you mean" may suggest (all when None); the others stay reachable by
        their exact name (a retired challenge: scoreable, never offered as current)."""
        self.kind = kind
        self._entries: dict[str, T] = {}
        self._families: list[Callable[[str], T | None]] = []
        self._offered = offered

    def register(self, name: str, entry: T) -> T:
        if name in self._entries:
            raise ValueError(f"{self.kind} '{name}' registered twice")
        self._entries[name] = entry
        return entry

    def add_family(self, build: Callable[[str], T | None]) -> None:
        """Resolve unlisted names with ``build``: it returns the entry for a name of its family, None for a name
        that is not of its family, and raises an :class:`engine.errors.EngineError` (one line, with the valid
        range) for a family name out of range."""
        self._families.append(build)

    def get(self, name: str) -> T:
        if name in self._entries:
            return self._entries[name]
        for build in self._families:
            entry = build(name)
            if entry is not None:
                return entry
        raise UnknownName(self.kind, name, self.suggest(name), self.offered_names())

    def relatives(self, name: str) -> list[str]:
        """For an unlisted family member, the listed names of the same family (its policy follows theirs);
        otherwise an empty list."""
        if name in self._entries:
            return []
        for build in self._families:
            try:
                if build(name) is None:
                    continue
            except EngineError:
                return []
            return [listed for listed in self._entries if _builds(build, listed)]
        return []

    def suggest(self, name: str) -> list[str]:
        """Up to three offered registered names close to ``name`` (difflib ratio ≥ 0.6)."""
        return difflib.get_close_matches(name, self.offered_names(), n=3, cutoff=0.6)

    def names(self) -> list[str]:
        return list(self._entries)

    def offered_names(self) -> list[str]:
        """The names a hint may list: the registered ones ``offered`` lets through, in order."""
        return [n for n, e in self._entries.items() if self._offered is None or self._offered(e)]

    def __contains__(self, name: object) -> bool:
        """Listed, or a valid member of a family (an out-of-range family name is not contained)."""
        if name in self._entries:
            return True
        if not isinstance(name, str):
            return False
        for build in self._families:
            try:
                if build(name) is not None:
                    return True
            except EngineError:
                return False
        return False

    def __iter__(self) -> Iterator[T]:
        return iter(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)


def _builds(build: Callable[[str], object], name: str) -> bool:
    try:
        return build(name) is not None
    except EngineError:
        return False
