"""A small name -> entry registry with "did you mean" lookups, used for challenges, methods and metrics."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Generic, TypeVar

from engine.errors import UnknownName

T = TypeVar("T")


class Registry(Generic[T]):
    """Ordered mapping of unique names to entries; ``get`` raises :class:`UnknownName` with suggestions."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}

    def register(self, name: str, entry: T) -> T:
        if name in self._entries:
            raise ValueError(f"{self.kind} '{name}' registered twice")
        self._entries[name] = entry
        return entry

    def get(self, name: str) -> T:
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownName(self.kind, name, self.suggest(name), self.names()) from None

    def suggest(self, name: str) -> list[str]:
        """Up to three registered names close to ``name`` (difflib ratio ≥ 0.6)."""
        return difflib.get_close_matches(name, self.names(), n=3, cutoff=0.6)

    def names(self) -> list[str]:
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[T]:
        return iter(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)
