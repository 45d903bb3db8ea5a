"""Search for cheaper IR programs (docs/explore.md): the value form of a program, address placement, rewrites that
keep a program's function, the built-in search that proposes them, and the in-process judge of a candidate.

Modules, one idea each: ``values`` (the value form and rendering), ``allocate`` (choosing cells), ``rewrites``
(the operators' rewrites), ``ir_search`` (operators in turn from the current best), ``judge`` (the board's scorer
on one candidate). The loop that drives them, with its budget and journal, is ``bot.core.explore``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.explore.ir_search import OPERATORS as OPERATORS
    from engine.explore.ir_search import IRSearch as IRSearch
    from engine.explore.ir_search import Proposal as Proposal
    from engine.explore.judge import CandidateVerdict as CandidateVerdict
    from engine.explore.judge import judge_candidate as judge_candidate
    from engine.explore.param_search import ParamSearch as ParamSearch
    from engine.explore.param_search import params_text as params_text
    from engine.explore.param_search import parse_text as parse_text

_PUBLIC: dict[str, str] = {
    "CandidateVerdict": "engine.explore.judge",
    "IRSearch": "engine.explore.ir_search",
    "OPERATORS": "engine.explore.ir_search",
    "Proposal": "engine.explore.ir_search",
    "judge_candidate": "engine.explore.judge",
    "ParamSearch": "engine.explore.param_search",
    "params_text": "engine.explore.param_search",
    "parse_text": "engine.explore.param_search",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = [
    "OPERATORS",
    "CandidateVerdict",
    "IRSearch",
    "ParamSearch",
    "Proposal",
    "judge_candidate",
    "params_text",
    "parse_text",
]


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
