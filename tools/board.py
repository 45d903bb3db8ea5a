"""Board identity: which stored results may be ranked together, compared and called a record (pure).

A board is (challenge, problem instance, track, metric@version). Leaderboards, record histories and "vs record"
only ever look at one board, so a solver on n=6 is never ranked against training runs on n=20.

- **Instance**: the parameters that change the problem itself, as the challenge registry lists them for every
  challenge (:func:`engine.challenges.instance_params`; there is no second list here). Every sparse task: ``n``
  (input bits) and ``k`` (secret bits), defaulting to the group's standard n=20, k=3; threshold adds ``t`` and
  noisy_parity ``noise_rate``. The IR challenges carry their instance in their name (``matmul_16x16``,
  ``sparse_parity_small``), so their instance is empty — except mask sparse parity, whose five record tables are
  its recovery bands: ``band`` (20, 40, 60, 80, 100; the highest band a program's dev-suite recovery reaches, set
  by the scorer, and after an adjudication the one its fresh count confirms; default board 100).
- **Track**: how the answer was produced — ``training`` (a training method such as sgd), ``solver`` (a direct solver
  such as gf2 or km), ``submission`` (a judged ``solve()``) or ``program`` (an IR program, given or generated).

Boards are derived from each stored run's own columns (challenge, kind, subject, params) when they are read; no
column stores them, so runs stored before boards existed are placed on their board without a migration.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.challenges import BAND_PARAM, instance_params
from engine.errors import UnknownName
from engine.methods import METHODS
from storage.scores import ScoredRun
from tools.errors import ToolError

BAND_KEY = BAND_PARAM
"""The parameter naming a recovery band's board (mask sparse parity; :data:`engine.challenges.ir_track.BAND_PARAM`)."""

TRACKS = ("training", "solver", "oracle solver", "submission", "program")

Instance = tuple[tuple[str, int | float], ...]
"""``(("n", 20), ("k", 3))``: each instance parameter of the challenge and its value, in the registry's order."""


@dataclass(frozen=True)
class Board:
    """One board: results on it are ranked together; nothing else is."""

    challenge: str
    instance: Instance
    track: str
    metric: str

    @property
    def instance_label(self) -> str:
        """``n=20 k=3`` (empty for challenges whose name is their instance)."""
        return instance_label(self.instance)

    @property
    def name(self) -> str:
        """``sparse_parity n=20 k=3 · solver`` — the board without its metric (``matmul_16x16`` for IR programs,
        whose only track is ``program``)."""
        where = " ".join(p for p in (self.challenge, self.instance_label) if p)
        return where if self.track == "program" and not self.instance else f"{where} · {self.track}"

    @property
    def title(self) -> str:
        """``sparse_parity n=20 k=3 · solver · dmc@1``."""
        where = " ".join(p for p in (self.challenge, self.instance_label) if p)
        return f"{where} · {self.track} · {self.metric}"


def instance_label(instance: Instance) -> str:
    return " ".join(f"{k}={v}" for k, v in instance)


def instance_of(challenge: str, params: Mapping[str, Any]) -> Instance:
    """The problem instance a run with ``params`` solved (a parameter it does not name, or names with a value of
    the wrong kind, at the challenge's standard value)."""
    values: list[tuple[str, int | float]] = []
    for key, standard in instance_params(challenge).items():
        values.append((key, _as_kind(params.get(key, standard), standard)))
    return tuple(values)


def _as_kind(raw: Any, standard: int | float) -> int | float:
    """``raw`` as the kind of ``standard`` (a whole number for an int parameter), else ``standard``."""
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return standard
    if isinstance(standard, int):
        return int(value) if value.is_integer() else standard
    return value


def track_of(kind: str, subject: str) -> str:
    """The track of a stored run of ``kind`` (method, solve, ir, generate) named ``subject``."""
    if kind == "method":
        try:
            method = METHODS.get(subject)
            if method.kind != "solver":
                return "training"
            return "oracle solver" if method.oracle else "solver"  # membership queries: a board of their own
        except UnknownName:
            return "training"
    if kind == "solve":
        return "submission"
    if kind in ("ir", "generate"):
        return "program"
    return kind


def board_of(challenge: str, kind: str, subject: str, params: Mapping[str, Any], metric: str) -> Board:
    """The board of one stored run's value for ``metric``."""
    return Board(challenge, instance_of(challenge, params), track_of(kind, subject), metric)


def default_instance(challenge: str) -> Instance:
    """The board shown when no instance is named: the group's standard (n=20, k=3 for sparse parity)."""
    return instance_of(challenge, {})


def requested_instance(challenge: str, options: Mapping[str, str], stored: Iterable[Instance]) -> Instance:
    """The instance named by ``n=… k=…`` options (missing keys: the standard's), checked against the stored ones.

    Raises :class:`ToolError` (one line, with the valid choices) for a key the challenge has no instance
    parameter for, a value that is not a number of its kind (whole for n, k, t), or an instance with no stored
    results.
    """
    standards = instance_params(challenge)
    named = {k: v for k, v in options.items() if k != "metric"}
    known = sorted(set(stored))
    choices = ", ".join(instance_label(i) for i in known if i) or "none stored yet"
    for key, value in named.items():
        if key not in standards:
            valid = ", ".join(standards) if standards else f"none ({challenge}'s instance is in its name)"
            raise ToolError(f"'{key}' is not an instance parameter of {challenge}", hint=f"valid: {valid}")
        if isinstance(standards[key], int) and not value.strip().lstrip("-").isdigit():
            raise ToolError(f"{key}={value} is not a whole number", hint=f"stored instances: {choices}")
        if not _is_number(value):
            raise ToolError(f"{key}={value} is not a number", hint=f"stored instances: {choices}")
    instance = instance_of(challenge, {**dict(default_instance(challenge)), **named})
    if named and instance not in known:
        raise ToolError(f"no results on {challenge} {instance_label(instance)}", hint=f"stored instances: {choices}")
    return instance


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def on_board(challenge: str, scores: Iterable[ScoredRun], board: Board) -> list[ScoredRun]:
    """The entries of ``scores`` (all of ``challenge``) that lie on ``board``; published entries lie on the
    program board of their challenge at their instance. Order is kept."""
    return [s for s in scores if board_of_score(challenge, s) == board]


def board_of_score(challenge: str, score: ScoredRun) -> Board:
    if score.published:  # the program board of its instance (the standard one unless its board is joined to one)
        return Board(challenge, instance_of(challenge, score.params), "program", score.metric)
    return board_of(challenge, score.kind, score.subject, score.params, score.metric)


@dataclass(frozen=True)
class Setting:
    """What makes two results comparable: challenge, instance, track, seed set (empty: deterministic) and the
    versions of each metric (``dmc`` -> ``dmc@1``)."""

    challenge: str
    instance: Instance
    track: str
    seeds: tuple[int, ...]
    versions: tuple[tuple[str, str], ...]


def setting_of(
    challenge: str, kind: str, subject: str, params: Mapping[str, Any], seeds: Iterable[int], metrics: Iterable[str]
) -> Setting:
    """The setting of one stored run (``metrics``: its ``name@version`` keys)."""
    versions = tuple(sorted((m.split("@")[0], m) for m in metrics if "@" in m))
    seed_set = tuple(seeds) if track_of(kind, subject) != "program" else ()
    return Setting(challenge, instance_of(challenge, params), track_of(kind, subject), seed_set, versions)


def what_differs(a: Setting, b: Setting) -> str:
    """One line naming each setting in which ``a`` and ``b`` differ ("" when like for like): ``not like for like:
    instance n=20 k=3 vs n=30 k=4; seeds 42,123,456 vs 7``."""
    parts = []
    if a.challenge != b.challenge:
        parts.append(f"challenge {a.challenge} vs {b.challenge}")
    if a.instance != b.instance:
        parts.append(f"instance {instance_label(a.instance) or '—'} vs {instance_label(b.instance) or '—'}")
    if a.track != b.track:
        parts.append(f"track {a.track} vs {b.track}")
    if a.seeds != b.seeds and a.seeds and b.seeds:
        parts.append(f"seeds {','.join(map(str, a.seeds))} vs {','.join(map(str, b.seeds))}")
    va, vb = dict(a.versions), dict(b.versions)
    versions = [f"{va[n]} vs {vb[n]}" for n in sorted(va.keys() & vb.keys()) if va[n] != vb[n]]
    if versions:
        parts.append("metric " + ", ".join(versions))
    return "not like for like: " + "; ".join(parts) if parts else ""


def seeds_of(params: Mapping[str, Any]) -> tuple[int, ...]:
    """The seed set a run with ``params`` covered (``seeds`` for a set, ``seed`` for one; empty: none)."""
    if isinstance(params.get("seeds"), list):
        return tuple(int(s) for s in params["seeds"])
    return (int(params["seed"]),) if isinstance(params.get("seed"), int) else ()


def mixed_seeds_note(scores: Iterable[ScoredRun]) -> str:
    """One line when a board's entries were measured on different seed sets ("" when they all share one):
    ``not like for like: seeds 42,123,456 (3 entries), 7 (1 entry)``."""
    counts: dict[tuple[int, ...], int] = {}
    for score in scores:
        if not score.published:
            seeds = seeds_of(score.params)
            counts[seeds] = counts.get(seeds, 0) + 1
    sets = {k: v for k, v in counts.items() if k}
    if len(sets) < 2:
        return ""
    listed = ", ".join(
        f"{','.join(map(str, k))} ({v} entr{'y' if v == 1 else 'ies'})"
        for k, v in sorted(sets.items(), key=lambda kv: -kv[1])
    )
    return f"not like for like: seeds {listed}"


def split_by_board(challenge: str, scores: Iterable[ScoredRun]) -> dict[Board, list[ScoredRun]]:
    """``scores`` (all of ``challenge``) grouped by board, each group in the given order; boards by instance, then
    track."""
    boards: dict[Board, list[ScoredRun]] = {}
    for score in scores:
        boards.setdefault(board_of_score(challenge, score), []).append(score)
    return dict(sorted(boards.items(), key=lambda kv: (kv[0].instance, kv[0].track)))
