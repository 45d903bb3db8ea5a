"""The built-in search for a method's parameters: one parameter halved or doubled at a time, around the current best
(docs/explore.md#method-boards).

The instance (n, k) and the seeds stay fixed; the method's own knobs move — learning rate, weight decay, hidden
units, batch, epochs, training samples, population, episodes — each only within its documented range
(:data:`engine.methods.params.SPECS`) and only to values the method accepts at this instance
(:func:`engine.methods.method_values`, which refuses what the method's defaults are known not to solve). A candidate
is the parameter line ``key=value …``; the loop runs it like ``/run`` and keeps it only when it wins beyond the seeds'
noise.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import EngineError
from engine.explore.ir_search import Proposal
from engine.methods import method_values
from engine.methods.params import SPECS

TUNED = ("lr", "wd", "hidden", "batch", "epochs", "m", "pop", "episodes")
"""The knobs the search moves, in the order it tries them (the instance — n, k, seed — never moves)."""
FACTORS = ((0.5, "halving"), (2.0, "doubling"))


def params_text(method: str, params: Mapping[str, int | float]) -> str:
    """``local_update hidden=200 lr=0.1 …``: the method and its parameters in key order (a candidate's text)."""
    return " ".join([method, *(f"{k}={params[k]}" for k in sorted(params))])


def parse_text(text: str) -> tuple[str, dict[str, str]]:
    """The method and its ``key=value`` parameters from a candidate's text."""
    method, *pairs = text.split()
    return method, dict(pair.split("=", 1) for pair in pairs)


class ParamSearch:
    """Propose neighbours of the current best parameters; :meth:`accept` moves the best."""

    def __init__(self, text: str) -> None:
        self.accept(text)

    def accept(self, text: str) -> None:
        self._method, raw = parse_text(text)
        _, self._values = method_values(self._method, raw)
        self._moves = [(key, factor, verb) for key in TUNED if key in self._values for factor, verb in FACTORS]
        self._next = 0

    def propose(self) -> Proposal | None:
        """The next neighbour the method accepts; None when every move of every knob has been tried."""
        while self._next < len(self._moves):
            key, factor, verb = self._moves[self._next]
            self._next += 1
            spec = SPECS[key]
            old = self._values[key]
            new: int | float = round(old * factor) if spec.kind is int else old * factor
            if new == old or not spec.low <= new <= spec.high:
                continue
            params = {k: v for k, v in self._values.items() if k != "seed"}
            params[key] = new
            try:
                method_values(self._method, params)
            except EngineError:
                continue
            return Proposal(
                operator=f"{key}×{factor:g}",
                hypothesis=f"{verb} {key} ({old:g} → {new:g}) lowers the cost and keeps the accuracy",
                text=params_text(self._method, params),
            )
        return None
