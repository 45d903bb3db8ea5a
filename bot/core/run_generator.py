"""Score an IR challenge's built-in generator (``sutro run matmul_16x16 generator=tiled``), stored once.

The generators are the engine's own (``IRChallenge.generators``); their text is trusted, so it is scored in this
process by :func:`engine.scoring.ir.score_ir` on fresh hidden instances. The generated IR is kept as the run's
code, so ``rescore`` can price it again and a changed generator is a new request (kind ``generate``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from bot.core.band_adjudication import adjudicated
from bot.core.recording import RecordedRun, record_once
from bot.core.services import Services
from engine.errors import EngineError, UnknownName
from engine.metrics import metrics_for
from engine.progress import Progress, no_progress
from engine.result import FailureKind, Provenance, RunResult
from engine.scoring import ir_challenge, is_ir_name, score_ir
from tools.run_request import NormalisedRequest

DEFAULT_GENERATOR = "baseline"
GENERATOR_PROVENANCE = "the challenge's built-in generator, scored by the trusted scorer (no submitted code runs)"


def is_ir_challenge(name: str) -> bool:
    """Whether ``name`` is an IR-track challenge: listed, or any size of a family by name (``matmul_32x32``)."""
    return is_ir_name(name)


@dataclass(frozen=True)
class GeneratorRequest:
    """A built-in generator of an IR challenge, checked to exist."""

    challenge: str
    generator: str

    @classmethod
    def parse(cls, challenge: str, generator: str = DEFAULT_GENERATOR) -> GeneratorRequest:
        """UnknownName (with "did you mean") when ``challenge`` has no such generator."""
        spec = ir_challenge(challenge)
        if generator not in spec.generators:
            known = sorted(spec.generators)
            raise UnknownName(
                f"generator of {challenge}", generator, difflib.get_close_matches(generator, known), known
            )
        return cls(challenge=spec.name, generator=generator)


def run_generator(
    services: Services,
    request: GeneratorRequest,
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
) -> RecordedRun:
    """Build the generator's program, score it (or reuse the stored score of the same text), store and log it."""
    services.run_policy().check_challenge(request.challenge)
    progress(f"building {request.challenge}'s {request.generator} program", None)
    text = ir_challenge(request.challenge).generators[request.generator]()
    stored = NormalisedRequest(
        challenge=request.challenge,
        kind="generate",
        subject=request.generator,
        params={"generator": request.generator},
        code=text,
        metric_versions=metrics_for("ir", "generate"),
    )

    def compute() -> RunResult:
        progress(f"scoring on {request.challenge}", None)
        return adjudicated(services, _score(request.challenge, request.generator, text), text, trusted_text=True)

    return record_once(services, stored, compute, member=member, force=force)


def _score(challenge: str, generator: str, text: str) -> RunResult:
    provenance = Provenance(judged_by="generator", sandbox=GENERATOR_PROVENANCE)
    try:
        result = score_ir(challenge, text, subject=generator)
    except EngineError as err:  # a broken built-in generator: stored as a failed run, shown in one line
        return RunResult(
            challenge=challenge,
            subject=generator,
            kind="generate",
            ok=False,
            failure=err.one_line(),
            failure_kind=FailureKind.REJECTED,
            provenance=provenance,
        )
    result.kind = "generate"
    result.params = {**result.params, "generator": generator}  # a banded challenge's scorer set ``band``
    result.provenance = provenance
    return result
