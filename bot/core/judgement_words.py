"""A :class:`bot.core.judgement.Judgement` in words — the only place a result's verdict becomes text (pure).

The result card prints :func:`judgement_lines`; the sprint-log headline (and so the digest, which quotes it) prints
:func:`judgement_summary`; both are built from the same phrases, so a run's outcome, its figure and its "new
record" read the same wherever it is shown. Values are written with :func:`tools.metric_format.format_value`,
changes with :func:`tools.metric_format.format_relative_change` (ratios beyond ±100 %).
"""

from __future__ import annotations

from bot.core.judgement import Judgement, swamped
from bot.core.verdict import Verdict
from tools.metric_format import format_relative_change, format_value, ratio_words
from tools.published.records import PUBLISHED_MEMBER_SUFFIX


def _change(verdict: Verdict) -> str:
    return format_relative_change(verdict.candidate_mean, verdict.reference_mean) or format_value(
        verdict.candidate_mean - verdict.reference_mean
    )


def _with_spread(text: str, judgement: Judgement, verdict: Verdict) -> str:
    note = swamped(verdict, judgement.rule)
    return f"{text} ({note})" if note else text


def baseline_cheaper(judgement: Judgement) -> str:
    """``sgd (#1), the baseline, is 6.2× cheaper`` for a run that loses to its baseline; "" otherwise."""
    verdict = judgement.versus_baseline
    if verdict is None or not judgement.loses_to_baseline or judgement.baseline is None:
        return ""
    factor = ratio_words(verdict.reference_mean, verdict.candidate_mean)
    if factor is None:
        factor = format_relative_change(verdict.reference_mean, verdict.candidate_mean).lstrip("−") + " cheaper"
    return f"{judgement.baseline}, the baseline, is {factor}"


def baseline_words(judgement: Judgement) -> str | None:
    """``INCONCLUSIVE vs sgd (#1), the baseline: dmc@1 −0.5 %`` (None: no baseline, or the run failed)."""
    verdict = judgement.versus_baseline
    if verdict is None or not judgement.passed or judgement.baseline is None:
        return None
    text = f"{verdict.outcome.value} vs {judgement.baseline}, the baseline: {judgement.metric} {_change(verdict)}"
    return _with_spread(text, judgement, verdict)


def record_words(judgement: Judgement) -> str | None:
    """The run against its board's record (None: the run failed or has no value of the metric):

    - ``WIN — dmc@1 66,707: new record on BOARD, −0.019 % vs the previous one (#3)``
    - ``dmc@1 1.2e+06: best on BOARD so far, not a record: gf2 (#12), the baseline, is 6.2× cheaper``
    - ``LOSS — dmc@1 …: 665× costlier than the record on BOARD (#3)``
    - ``dmc@1 …: first result on BOARD`` (and the baseline's factor when it loses to it)
    """
    j = judgement
    if not j.passed or j.value is None:
        return None
    shown = f"{j.metric} {format_value(j.value)}"
    if j.frozen:
        return (
            f"{shown}: {j.board} was retired by the group on {j.frozen}; its board is frozen, this result is not ranked"
        )
    cheaper = baseline_cheaper(j)
    if j.record is None:
        return f"{shown}: first result on {j.board}" + (f", not a record: {cheaper}" if cheaper else "")
    verdict = j.versus_record
    assert verdict is not None
    by = f" ({j.record_label})" if j.record_label else ""
    if j.new_record:
        published = j.record_label.endswith(PUBLISHED_MEMBER_SUFFIX)
        beaten = "the group's published record" if published else "the previous one"
        return f"WIN — {shown}: new record on {j.board}, {_change(verdict)} vs {beaten}{by}"
    if j.beats_record:
        return f"{shown}: best on {j.board} so far, not a record: {cheaper}"
    text = f"{verdict.outcome.value} — {shown}: {_change(verdict)} vs the record on {j.board}{by}"
    return _with_spread(text, j, verdict)


def failure_words(judgement: Judgement) -> str:
    """``FAILED — mean accuracy 0.53 …: not a result (no verdict, not on any board)``."""
    return f"FAILED — {judgement.failure or 'no reason recorded'}: not a result (no verdict, not on any board)"


def judgement_lines(judgement: Judgement) -> list[str]:
    """The card's verdict lines: against the record, then against the baseline; a failed run's one line."""
    if not judgement.passed:
        return [failure_words(judgement)]
    return [line for line in (record_words(judgement), baseline_words(judgement)) if line]


def judgement_summary(judgement: Judgement) -> str:
    """The same verdict in one clause for the sprint-log headline: the baseline's phrase first (the headline
    outcome), then the record's standing in short — ``INCONCLUSIVE vs sgd (#1): dmc@1 −0.5 %; first on its
    board``."""
    j = judgement
    if not j.passed:
        return failure_words(j)
    parts = []
    if j.versus_baseline is not None and j.baseline is not None:
        v = j.versus_baseline
        parts.append(_with_spread(f"{v.outcome.value} vs {j.baseline}: {j.metric} {_change(v)}", j, v))
    elif j.value is not None:
        parts.append(f"{j.metric} {format_value(j.value)}")
    if j.value is not None:
        if j.record is None:
            parts.append("first on its board")
        elif j.new_record:
            assert j.versus_record is not None
            parts.append(f"new record ({_change(j.versus_record)} vs {j.record_label or 'the previous one'})")
        elif j.beats_record:
            parts.append("best on its board so far, not a record")
        elif j.versus_record is not None:
            v = j.versus_record
            text = f"{v.outcome.value} vs the record {j.record_label}".rstrip() + f": {_change(v)}"
            parts.append(_with_spread(text, j, v))
    return "; ".join(parts)
