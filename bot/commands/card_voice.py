"""A result card in the group's voice: one headline, then at most six short lines, everything else behind details.

The group's own log says a result in one line — what ran, against what, and the verdict with its reason
("local_update vs sgd, n=20 k=3, 3 seeds: ByteDMD −1.2 % (WIN); DMC −0.5 %, inconclusive — seed spread ±17 %").
A card here reads the same way: :attr:`Card.headline` is that sentence, and :attr:`Card.lines` are at most
:data:`CARD_LINES` lines of at most :data:`CARD_WIDTH` characters (a phone shows about 40 monospace characters before
it wraps): accuracy and time, the board standing, where the energy moved, the run id. Every other figure (the metric
panel, per-seed values, per-step diagnostics, the comparison table, counting notes) is in ``show ID``.

Pure rendering of values the core computed once: the verdicts are the stored
:class:`bot.core.judgement.Judgement` (never judged again here) and the per-metric verdicts of
:class:`bot.core.run_method.BaselineComparison`; numbers are written with :mod:`tools.metric_format` (values with
``format_value``, changes with ``format_relative_change``).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.judgement import Judgement
from bot.core.recording import RecordedRun
from bot.core.verdict import LOG, Outcome, Verdict, VerdictRule
from engine.attribution import AttributionDiff
from tools.metric_format import format_relative_change, format_value, percent_needed

CARD_WIDTH = 40
"""Characters a line of a card may have: what a phone shows of a monospace line before it wraps."""
CARD_LINES = 6
"""Lines a card may have under its headline."""
HEADLINE_ROWS = 3
"""Rows the headline may take when a phone wraps it at :data:`CARD_WIDTH` characters."""
HEADLINE_CHARS = 160
"""The longest headline before it is cut (a failure's reason can be long; ``show ID`` has it whole)."""
MOVERS_SHOWN = 3
"""Buffers named on the card's movers line."""

METRIC_NAMES = {
    "bytedmd": "ByteDMD",
    "dmc": "DMC",
    "dmd": "DMD",
    "ard": "ARD",
    "ard_per_read": "ARD/read",
    "dally": "Dally",
}
"""How the card names a metric (``dmc@1`` → ``DMC``); the version is in ``show ID``, beside every value."""
BYTEDMD = "bytedmd"
"""The group's primary sparse-parity metric since 2026-04-14 (ByteDMD repository): always on a sparse-parity card."""


@dataclass(frozen=True)
class Card:
    """A result card: a headline sentence and at most :data:`CARD_LINES` short lines."""

    headline: str
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join([self.headline, *self.lines])


def card_of(headline: str, lines: Sequence[str | None]) -> Card:
    """A card from its parts: empty lines dropped, each line fitted to :data:`CARD_WIDTH`, the headline to
    :data:`HEADLINE_CHARS`; more than :data:`CARD_LINES` lines is a programming error (the builder chooses)."""
    kept = tuple(fit(line) for line in lines if line)
    if len(kept) > CARD_LINES:
        raise ValueError(f"a card has at most {CARD_LINES} lines under its headline, got {len(kept)}")
    return Card(headline=fit(headline, HEADLINE_CHARS), lines=kept)


def fit(text: str, width: int = CARD_WIDTH) -> str:
    """``text`` on one line of at most ``width`` characters, cut with "…" (the whole is in ``show ID``)."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1].rstrip(" ,;:—") + "…"


def phone_rows(text: str, width: int = CARD_WIDTH) -> list[str]:
    """``text`` wrapped as a phone wraps a monospace message ``width`` characters wide (whole words where it can)."""
    rows: list[str] = []
    for line in text.splitlines():
        rows += textwrap.wrap(line, width) or [""]
    return rows


def metric_name(key: str) -> str:
    """``dmc@1`` → ``DMC``, ``bytedmd@2`` → ``ByteDMD``; an unknown metric keeps its key."""
    return METRIC_NAMES.get(key.partition("@")[0], key)


def spread_share(verdict: Verdict) -> float:
    """The seed spread of a comparison as a share of the larger of its two means (the noisier side's scale), as
    :func:`bot.core.judgement.swamped` states it; 0 without a spread."""
    scale = max(abs(verdict.reference_mean), abs(verdict.candidate_mean))
    return verdict.spread / scale if scale else 0.0


def verdict_phrase(verdict: Verdict, rule: VerdictRule, *, spread_of: str = "seed spread") -> str:
    """A stored verdict in the group's words: ``−1.2 % (WIN)``, ``2.1× costlier (LOSS)``, ``−0.5 %, inconclusive —
    seed spread ±17 %`` or ``−0.4 %, inconclusive — under the 1 % minimum``."""
    change = format_relative_change(verdict.candidate_mean, verdict.reference_mean) or "±0"
    if verdict.outcome is not Outcome.INCONCLUSIVE:
        return f"{change} ({verdict.outcome.value})"
    if verdict.scale == LOG:  # the spread of log costs, as a factor either way (bot.core.judgement.swamped)
        if verdict.spread > 0 and rule.spread_factor * verdict.spread > math.log1p(rule.min_change):
            factor = math.exp(verdict.spread)
            shown = f"{factor:.1f}" if factor < 10 else f"{factor:,.0f}"
            of = f"{spread_of} (paired)" if verdict.paired else spread_of
            return f"{change}, inconclusive — {of} ×/÷{shown}"
        return f"{change}, inconclusive — under the {rule.min_change * 100:g} % minimum"
    share = spread_share(verdict)
    if verdict.spread > 0 and rule.spread_factor * verdict.spread > rule.min_change * abs(verdict.reference_mean):
        shown = f"±{share * 100:.0f} %" if share >= 0.1 else f"±{share * 100:.2g} %"
        return f"{change}, inconclusive — {spread_of} {shown}"
    return f"{change}, inconclusive — under the {rule.min_change * 100:g} % minimum"


def standing_line(recorded: RecordedRun) -> str | None:
    """The run on its board, in one short line (:func:`board_standing`); a result credited to another submission or
    to the group's published program says whose it is instead."""
    if recorded.published_as is not None:
        return f"{recorded.published_as.authors}'s published record"
    credit = recorded.credit
    if credit is not None and recorded.credited_elsewhere:
        return f"identical to run #{credit.run_id} by {credit.member}"
    return board_standing(recorded.comparison.judgement)


def board_standing(judgement: Judgement | None) -> str | None:
    """A judged run on its board: ``new record: −0.019 % vs #3``, ``first result on its board``, ``best on its board,
    not a record`` or ``record #3: 2.1× costlier (LOSS)``; None for a failed run or one with no value."""
    if judgement is None or not judgement.passed or judgement.value is None:
        return None
    if judgement.frozen:
        return f"retired {judgement.frozen}: not ranked"
    if judgement.record is None:
        return "first result on its board"
    verdict = judgement.versus_record
    label = record_holder(judgement)
    if judgement.new_record and verdict is not None:
        return f"new record: {format_relative_change(verdict.candidate_mean, verdict.reference_mean)} vs {label}"
    if judgement.beats_record:
        return "best on its board, not a record"
    if verdict is None:
        return None
    return f"record {label}: {verdict_phrase(verdict, judgement.rule, spread_of='spread')}"


def record_holder(judgement: Judgement) -> str:
    """Who holds the record, short: ``#3`` or ``@jurajselep``."""
    return judgement.record_label.split(" (")[0] or "the record"


def movers_lines(diff: AttributionDiff | None, baseline: str) -> list[str]:
    """Where the energy moved against ``baseline``, in two lines: the metric, its scope and the whole change as a
    share of the baseline's total, then the top buffers' changes as shares of that same total — so every sign and
    share agrees with its buffer's change and they add up toward the whole (``DMC, one step: −2.9 % vs sgd`` /
    ``b1 −1.5 %, w1 +1.4 %, dw1 −1.2 %``)."""
    if diff is None or not diff.total_a or not diff.rows:
        return []
    whole = percent_needed(diff.change / abs(diff.total_a))
    head = f"{metric_name(diff.metric)}, {diff.scope}: {whole} vs {baseline}"
    shown = [r for r in diff.rows if r.change][:MOVERS_SHOWN]
    if not shown:
        return [head]
    parts = [f"{r.name} {percent_needed(r.change / abs(diff.total_a))}" for r in shown]
    return [head, fit_parts(parts)]


def fit_parts(parts: list[str], width: int = CARD_WIDTH) -> str:
    """As many of ``parts`` (joined by ", ") as fit ``width`` characters."""
    line = ""
    for part in parts:
        candidate = f"{line}, {part}" if line else part
        if len(candidate) > width:
            break
        line = candidate
    return line or fit(parts[0], width)


def run_line(recorded: RecordedRun) -> str:
    """The run's id and what kind of answer it is: ``run #2, logged to the sprint log``, ``run #2, stored answer
    (--force reruns)``; a result credited elsewhere: ``run #1 is theirs; yours is #2`` (the member's submission) or
    ``run #2, run again at your request`` (forced)."""
    run = f"run #{recorded.stored.id}"
    if recorded.published_as is not None:
        return f"{run}, credited to its authors"
    if recorded.credited_elsewhere:
        if not recorded.stored.reused:
            return f"{run}, run again at your request"
        mine = f"; yours is #{recorded.submission_id}" if recorded.submission_id is not None else ""
        return f"{run} is theirs{mine}"
    if recorded.stored.reused:
        return f"{run}, stored answer (--force reruns)"
    return f"{run}, logged to the sprint log"


def value_words(judgement: Judgement | None) -> str:
    """``DMC 5.926e+10`` — the judged metric's value, as every card writes values; "" without one."""
    if judgement is None or judgement.value is None:
        return ""
    return f"{metric_name(judgement.metric)} {format_value(judgement.value)}"


def judged_part(judgement: Judgement | None) -> str | None:
    """The stored verdict against the baseline in the headline's words: ``DMC −0.5 %, inconclusive — seed spread
    ±17 %``; None without a baseline (or for a failed run)."""
    if judgement is None or not judgement.passed or judgement.versus_baseline is None:
        return None
    return f"{metric_name(judgement.metric)} {verdict_phrase(judgement.versus_baseline, judgement.rule)}"


def instance_words(params: dict[str, object]) -> str:
    """The instance a sparse-parity run was on, as the group writes it: ``n=20 k=3`` ("" without n and k)."""
    return " ".join(f"{key}={params[key]}" for key in ("n", "k") if key in params)


def seeds_words(seeds: Sequence[int]) -> str:
    """``3 seeds`` or ``seed 42`` (the seeds themselves are in ``show ID``)."""
    return f"seed {seeds[0]}" if len(seeds) == 1 else f"{len(seeds)} seeds"


def recovery_short(recorded: RecordedRun) -> list[str]:
    """A recovery-scored result (mask sparse parity) in short: ``recovered 74.2 % — band 60%`` and, when a fresh
    suite decided it, ``adjudicated: 74.1 % ± 1.9 pp``; the counts, key and suite digest are in ``show ID``."""
    recovery = recorded.result.recovery
    if recovery is None:
        return []
    band = "below every band" if recovery.band is None else f"band {recovery.band}%"
    lines = [f"recovered {recovery.dev.recovery:.1%} of dev, {band}"]
    audit = recovery.adjudication
    if audit is not None:
        lines.append(f"adjudicated: {audit.recovery:.1%} ± {audit.noise_pp:.1f} pp")
    return lines


def scored_card(recorded: RecordedRun, what: str, measured: str, notes: Sequence[str] = ()) -> Card:
    """The card of a scored program (a built-in generator, submitted IR text, ``generate()`` or ``solve()``):
    ``WHAT on CHALLENGE vs BASELINE: METRIC CHANGE (OUTCOME)`` from the stored judgement, then the ``measured`` line
    (correctness, the metric's value, accuracy), the board standing, recovery, ``notes`` (review flags,
    self-reported metrics) and the run id."""
    result, judgement = recorded.result, recorded.comparison.judgement
    where = f"{what} on {result.challenge}"
    if not result.ok:
        headline = f"{where}: FAILED — {result.failure or 'no reason recorded'}"
    elif judgement is not None and judgement.baseline is not None and (part := judged_part(judgement)) is not None:
        headline = f"{where} vs {judgement.baseline}: {part}"
    else:
        headline = f"{where}: {value_words(judgement) or 'passed'}"
    lines = [measured, standing_line(recorded) if result.ok else None, *recovery_short(recorded), *notes]
    kept = [line for line in lines if line]
    return card_of(headline, [*kept[: CARD_LINES - 1], run_line(recorded)])


def verdict_words(judgement: Judgement) -> list[str]:
    """The stored verdict as every short rendering says it (the card, ``show ID``): the judged part against the
    baseline and the board standing, each present only where it applies."""
    return [line for line in (judged_part(judgement), board_standing(judgement)) if line]
