"""Re-scorers for ``sutro rescore``: price a stored IR / generate() run again with the current IR scorer.

Wired into ``AppContext.rescorers`` by the composition root (``bot.app``) under the scorer's current metric
(``dally@1``). The run's stored code is all it uses: IR text is scored by the trusted scorer in a
resource-limited child; a member's ``generate()`` runs again in the sandbox and its text is scored the same
way.
A run without code, a solve() or a method run, or code that no longer produces IR, is skipped (None).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import EngineError
from engine.ir.scoring import METRIC
from storage.tables import Run

IR_KINDS = ("ir", "generate")


def ir_rescorer(*, dev_override: bool = False) -> Callable[[Run], float | None]:
    """A re-scorer giving a stored IR/generate run's current ``dally@N`` from its stored code, or None."""

    def rescore_run(run: Run) -> float | None:
        from bot.submissions import score_ir_limited  # the sandbox is loaded only when re-scoring
        from engine.sandbox.generate import run_generate
        from engine.sandbox.lint import detect_kind

        if run.kind not in IR_KINDS or not run.code:
            return None
        try:
            kind = detect_kind(run.code)
            if kind == "generate":
                generated = run_generate(run.code, dev_override=dev_override)
                text = generated.text
            else:
                text = run.code if kind == "ir" else None
        except EngineError:
            return None
        if text is None:
            return None
        result = score_ir_limited(run.challenge, text, label=run.subject)
        value = result.metrics.get(METRIC)
        return None if value is None else float(value)

    return rescore_run
