"""The experiment spec the assistant ends with: the card a person approves, and the submission that then runs.

Built from the ``propose_experiment`` (or ``check_code``) tool input; :func:`submission_from` refuses malformed
input with one line the model can act on.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

FORMS = ("method", "solve", "generate")


class SpecError(ValueError):
    """The tool input is not a usable spec; the message goes back to the model as the tool result."""


@dataclass(frozen=True)
class Submission:
    """What runs: a registered method with params, or code (a solve() or a generate()) for a challenge."""

    form: str
    challenge: str
    method: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    code: str | None = None

    def describe(self) -> str:
        if self.form == "method":
            params = " ".join(f"{k}={v}" for k, v in sorted(self.params.items()))
            return f"method {self.method} {params}".strip() + f" on {self.challenge}"
        return f"{self.form}() code ({len((self.code or '').splitlines())} lines) on {self.challenge}"


@dataclass(frozen=True)
class ExperimentSpec:
    """The card: what is tested, against what, and the submission."""

    title: str
    hypothesis: str
    change: str
    baseline: str
    seeds: list[int]
    submission: Submission

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (stored on the idea); the code is stored separately, so it is left out here."""
        data = asdict(self)
        data["submission"].pop("code", None)
        return data


def _text(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise SpecError(f"'{key}' is missing or empty: give it as a non-empty string")
    return value.strip()


def submission_from(raw: dict[str, Any]) -> Submission:
    """The submission part of a tool input; SpecError names the missing or wrong field."""
    form = raw.get("form")
    if form not in FORMS:
        raise SpecError(f"'form' must be one of {', '.join(FORMS)} (got {form!r})")
    challenge = _text(raw, "challenge")
    params = raw.get("params") or {}
    if not isinstance(params, dict):
        raise SpecError("'params' must be an object of key -> value")
    if form == "method":
        return Submission(form, challenge, method=_text(raw, "method"), params=dict(params))
    code = raw.get("code")
    if not isinstance(code, str) or not code.strip():
        raise SpecError(f"form {form} needs 'code': the whole Python source defining {form}()")
    return Submission(form, challenge, params=dict(params), code=code)


def spec_from(raw: dict[str, Any]) -> ExperimentSpec:
    """The whole card from a ``propose_experiment`` input."""
    seeds = raw.get("seeds") or []
    if not isinstance(seeds, list) or not all(isinstance(s, int) for s in seeds):
        raise SpecError("'seeds' must be a list of integers")
    submission = submission_from(raw)
    if submission.form == "method" and not seeds:
        seeds = [int(submission.params.get("seed", 0))]
    return ExperimentSpec(
        title=_text(raw, "title"),
        hypothesis=_text(raw, "hypothesis"),
        change=_text(raw, "change"),
        baseline=_text(raw, "baseline"),
        seeds=list(seeds),
        submission=submission,
    )


def spec_from_stored(data: dict[str, Any], code: str | None) -> ExperimentSpec:
    """The spec as stored on an idea (``to_dict()`` plus the code column)."""
    sub = dict(data["submission"])
    return ExperimentSpec(
        title=data["title"],
        hypothesis=data["hypothesis"],
        change=data["change"],
        baseline=data["baseline"],
        seeds=list(data.get("seeds") or []),
        submission=Submission(**{**sub, "code": code}),
    )
