"""Which challenge and metric a leaderboard or records request is about, resolved against the registry, the stored
runs and the group's published records (a name is matched with "did you mean"; nothing stored is an empty scope)."""

from __future__ import annotations

from collections.abc import Mapping

from sqlmodel import Session

from engine.challenges import CHALLENGES, retired_name
from engine.scoring import METRIC as DALLY
from storage.runs import stored_challenges, stored_metrics
from tools.choices import choose
from tools.published.records import current_snapshot, published_challenges


def challenge_names(session: Session) -> list[str]:
    """Registered challenges plus any with stored runs."""
    return sorted(set(CHALLENGES.names()) | set(stored_challenges(session)))


def resolve_metric(
    session: Session, challenge: str, metric: str | None, primary: Mapping[str, str] | None = None
) -> str | None:
    """``metric`` checked against the stored ones; default: the challenge's primary metric (``primary``, the
    admins' ``metric.primary.<challenge>`` settings, else the registry's), else the first stored."""
    stored = stored_metrics(session, challenge=challenge)
    if challenge in published_challenges(session) and DALLY not in stored:
        stored = [*stored, DALLY]  # the group's published records are on the Dally metric
    if metric:
        return choose("metric", metric, stored)
    chosen = (primary or {}).get(challenge)
    if chosen is None and challenge in CHALLENGES:
        chosen = CHALLENGES.get(challenge).primary_metric
    if chosen in stored:
        return chosen
    return stored[0] if stored else None


def resolve_scope(
    session: Session, challenge: str | None, metric: str | None, primary: Mapping[str, str] | None = None
) -> list[tuple[str, str | None]]:
    """(challenge, metric) pairs: the named challenge, or every challenge with stored runs (with ``metric``, only
    those that have it; none having it is an unknown-metric error)."""
    if challenge:
        snapshot = current_snapshot(session)  # retired by the group's legacy page as synced, or by the registry
        name = choose(
            "challenge",
            challenge,
            challenge_names(session),
            retired=lambda n: retired_name(n) or snapshot.retirement(n) is not None,
        )
        return [(name, resolve_metric(session, name, metric, primary))]
    names = sorted(set(stored_challenges(session)) | set(published_challenges(session)))
    if metric:
        having = [n for n in names if metric in stored_metrics(session, challenge=n)]
        if not having:
            everything = {m for n in names for m in stored_metrics(session, challenge=n)}
            choose("metric", metric, everything)  # raises with "did you mean"
        return [(n, metric) for n in having]
    return [(n, resolve_metric(session, n, None, primary)) for n in names]
