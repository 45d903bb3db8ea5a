"""/explore on a built-in method's parameters (docs/explore.md#method-boards): ``explore local_update``.

The board is the method's challenge at the instance asked for (``sparse_parity n=20 k=3``); the search is
:class:`engine.explore.ParamSearch` (one knob halved or doubled at a time); each candidate is a run exactly as
``/run METHOD key=value …`` stores it — the admins' default seed set, stored once, its own verdict — but without a
sprint-log entry of its own (the loop's entry tells them). A candidate is kept only when it passes and its
primary-metric values over the seeds WIN against the loop's best under the admins' verdict rule (the seeds' spread
decides, as on every card): a change inside the noise is not progress.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.attribution_diff import primary_metric
from bot.core.comparison import seed_values
from bot.core.explore import CandidateSource, Judged
from bot.core.explore_start import StartPoint
from bot.core.method_request import MethodRequest
from bot.core.recording import RecordedRun
from bot.core.run_method import run_registered_methods
from bot.core.services import Services
from bot.core.verdict import Outcome, configured_rule, judge
from engine.challenges import CHALLENGES
from engine.errors import BadParameter, EngineError
from engine.explore import ParamSearch, params_text, parse_text
from engine.methods import METHODS, method_values
from storage.runs import get_run
from storage.scores import scored_runs

INSTANCE_KEYS = ("n", "k")


def is_method(name: str) -> bool:
    return name in METHODS


def method_start(method: str, options: Mapping[str, str]) -> StartPoint:
    """The method at its defaults for the instance named in ``options`` (n=, k=; the standard instance else)."""
    instance = {k: options[k] for k in INSTANCE_KEYS if k in options}
    _, values = method_values(method, instance)
    params = {k: v for k, v in values.items() if k != "seed"}
    return StartPoint(label=f"{method} at its defaults", text=params_text(method, params))


class MethodLoop:
    """A method's parameters as an /explore board (see the module docstring)."""

    def __init__(self, services: Services, method: str, *, member: str) -> None:
        self._services = services
        self._member = member
        self._method = method
        request = MethodRequest.parse(method, {})
        self.name = request.challenge
        self.summary = CHALLENGES.get(self.name).summary
        self.params: dict[str, int] = {}
        metric = primary_metric(services, self.name)
        if metric is None:
            raise BadParameter(f"{self.name} has no primary metric to search on", hint="set metric.primary.…")
        self.metric = metric
        self._values: dict[str, tuple[float, ...]] = {}
        self._runs: dict[str, RecordedRun] = {}

    def _request(self, text: str) -> MethodRequest:
        method, raw = parse_text(text)
        request = MethodRequest.parse(method, dict(raw))
        seeds = [int(s) for s in self._services.tool_config().get("seeds.default")]
        return request.with_seeds(seeds)

    def _run(self, text: str) -> RecordedRun:
        (recorded,) = run_registered_methods(self._services, [self._request(text)], member=self._member, log=False)
        with self._services.sessions()() as session:
            run = get_run(session, run_id=recorded.stored.id)
            values = seed_values(run, self.metric) or (float(recorded.result.metrics[self.metric]),)
        self._values[text] = values
        self._runs[text] = recorded
        return recorded

    def start(self, start: StartPoint) -> int:
        _, raw = parse_text(start.text)
        self.params = {k: int(raw[k]) for k in INSTANCE_KEYS if k in raw}
        recorded = self._run(start.text)
        if not recorded.result.ok or self.metric not in recorded.result.metrics:
            raise BadParameter(
                f"the start ({start.label}) does not pass: {recorded.result.failure or 'no ' + self.metric}",
                hint="start from parameters that solve the instance",
            )
        return round(recorded.result.metrics[self.metric])

    def search(self, text: str) -> CandidateSource:
        return ParamSearch(text)

    def judge(self, text: str, best_text: str, best_cost: int) -> Judged:
        try:
            recorded = self._run(text)
        except EngineError as err:  # a setting the method refuses when it runs (gf2 below n+1 rows): one step
            return Judged(ok=False, cost=None, reason=err.one_line())
        result = recorded.result
        value = result.metrics.get(self.metric)
        cost = None if value is None else round(value)
        if not result.ok or value is None:
            return Judged(ok=False, cost=cost, reason=result.failure or f"no {self.metric}", run_id=recorded.stored.id)
        rule = configured_rule(self._services.tool_config().get)
        verdict = judge(self._values[text], self._values[best_text], rule=rule)
        reason = "" if verdict.outcome is Outcome.WIN else verdict.reason
        return Judged(
            ok=True, cost=cost, reason=reason, better=verdict.outcome is Outcome.WIN, run_id=recorded.stored.id
        )

    def record_cost(self, services: Services) -> float | None:
        with services.sessions()() as session:
            scores = scored_runs(session, challenge=self.name, metric=self.metric)
        values = [s.value for s in scores if all(s.params.get(k) == v for k, v in self.params.items())]
        return round(min(values)) if values else None  # whole units, as the loop's costs

    def baseline_cost(self) -> int | None:
        return None

    def finish(
        self, services: Services, *, best_text: str, loop_id: int, start_label: str, member: str, origin: str
    ) -> RecordedRun | None:
        """The best is already a stored run (every candidate is): the run as recorded, with its one verdict."""
        return self._runs.get(best_text)
