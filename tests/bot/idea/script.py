"""Shared pieces of the /idea tests: the fake Anthropic fixture, a context pointed at it, scripted proposals."""

from __future__ import annotations

from typing import Any

from bot.app import build_context
from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.commands.tokens import parse_tokens
from bot.context import AppContext
from bot.dispatch import execute
from bot.settings import Settings
from tests.fakes.anthropic_server import API_KEY, FakeAnthropic

IDEA = "try flipping each bit once"

FLIP_EACH_BIT_ONCE: dict[str, Any] = {
    "title": "one membership query per bit",
    "hypothesis": "one flip per bit finds the secret as reliably as five, with a fifth of the reads",
    "change": "samples per bit: 5 (km) -> 1 (km_min)",
    "baseline": "km on the same seed",
    "form": "method",
    "challenge": "sparse_parity",
    "method": "km_min",
    "params": {"n": 20, "k": 3, "seed": 7},
    "seeds": [7],
}

WRONG_SOLVE = """import numpy as np

def solve(x, y, n_bits, k_sparse):
    return [0, 1, 2]  # guesses: right on about half of the rows
"""

BRUTE_FORCE_SOLVE = """import itertools
import numpy as np

def solve(x, y, n_bits, k_sparse):
    for subset in itertools.combinations(range(n_bits), k_sparse):
        if np.all(np.prod(x[:, list(subset)], axis=1) == y):
            return list(subset)
    return []
"""


def solve_card(code: str) -> dict[str, Any]:
    return {
        "title": "brute-force subsets",
        "hypothesis": "checking each k-subset against the labels finds the secret exactly",
        "change": "search: SGD -> exhaustive subset check",
        "baseline": "sgd",
        "form": "solve",
        "challenge": "sparse_parity",
        "code": code,
        "seeds": [],
    }


def idea_settings(fake: FakeAnthropic, **overrides: Any) -> dict[str, Any]:
    """Settings values pointing /idea at ``fake`` (short timeouts; dev override where no sandbox exists)."""
    return {
        "anthropic_api_key": API_KEY,
        "anthropic_base_url": fake.base_url,
        "anthropic_model": "claude-test-model",
        "anthropic_timeout_s": 10.0,
        "anthropic_max_retries": 2,
        **overrides,
    }


def context(fake: FakeAnthropic, **overrides: Any) -> AppContext:
    return build_context(Settings(**idea_settings(fake, **overrides)))


def call(ctx: AppContext, *tokens: str, caller: Caller | None = None) -> tuple[Reply, int]:
    """Run ``sutro idea TOKENS`` through the shared dispatcher (as the CLI and the bot do)."""
    command = command_named("idea")
    assert command is not None
    inv: Invocation = parse_tokens(command, list(tokens))
    if caller is not None:
        inv.caller = caller
    return execute(ctx, command, inv)
