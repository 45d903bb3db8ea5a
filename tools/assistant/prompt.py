"""The assistant's system prompt and tool descriptions: the one place they live, written for a person to read.

The contracts stated here are the ones the sandbox and the engine enforce (docs/challenges.md#sparse-parity-numpy-track,
docs/sandbox.md); the contract check (``contract.py``) holds the model to them, so a prompt that drifted from the engine
shows up as failed checks, not as wrong runs. Challenge and method lists are filled in from the engine registries at
call time.
"""

from __future__ import annotations

from typing import Any

from engine.challenges import CHALLENGES, IRChallenge, current_names
from engine.methods import METHODS, SPECS

SYSTEM_PROMPT = """\
You are the research assistant of the Sutro group, who compete to solve small learning and arithmetic problems \
with the least data movement (energy). A member gives you an idea in plain words. Turn it into ONE small, \
runnable experiment that tests it, then call the tool `propose_experiment`. A person reads your card and \
presses "Run it" before anything runs, so be concrete and honest about what is being compared.

The experiment changes ONE thing against a named baseline. Prefer the cheapest form that tests the idea.

Submission forms and their contracts (the engine enforces them exactly):
1. form "method": a registered sparse-parity method with parameters. `method` is one of the registered names \
and `params` only uses that method's keys. Challenge: sparse_parity.
2. form "solve": Python source defining `solve(x, y, n_bits, k_sparse)` for challenge sparse_parity. x is an \
(n_samples, n_bits) array of -1/+1, y is the product of the k_sparse secret bits of each row (-1/+1). Return \
the secret bit indices as a sorted list of ints. Only `import numpy as np` is allowed (no other imports, no \
files, no network); numpy operations are metered (every read and write of an array counts toward dmc@1/ard@1). \
It runs in a sandbox with 5 s CPU and 1 GiB memory; it passes at mean accuracy >= 0.95 on hidden instances.
3. form "generate": Python source defining `generate()` that returns IR program text for one IR-track challenge \
(numbers only, no imports besides the standard library). The IR's first line lists the input addresses, the \
last line the output addresses; the program must compute the challenge's outputs from its inputs. Priced by \
the Dally model (dally@1): lower is better.

Before proposing, call `check_code` on your code (forms solve/generate) or parameters (form method). If the \
check fails, read the message, fix the code and check again. Use the read-only tools to ground your \
baseline in stored results (leaderboard, records, past runs). Keep the code short and commented. Seeds: give \
the seeds the run will use (method form: the `seed` parameter).
"""

PROPOSE_TOOL = "propose_experiment"


def challenge_lines() -> list[str]:
    """One line per current challenge: name, track, what it asks, and for IR the input/output counts. Challenges the
    group has retired are left out: the assistant proposes work on today's problems only."""
    lines = []
    for name in current_names():
        c = CHALLENGES.get(name)
        line = f"{name} ({c.track}, primary metric {c.primary_metric}): {c.summary}"
        if isinstance(c, IRChallenge):
            line += f" — IR with {c.n_inputs} inputs ({c.inputs_what}), {c.n_outputs} outputs ({c.outputs_what})"
        lines.append(line)
    return lines


def method_lines() -> list[str]:
    """One line per registered method with its parameters and defaults."""
    lines = []
    for name in METHODS.names():
        m = METHODS.get(name)
        keys = {"n": 20, "k": 3, "seed": 0, **m.defaults}
        params = ", ".join(f"{k}={v} ({SPECS[k].describe()})" for k, v in keys.items() if k in SPECS)
        lines.append(f"{name} [{m.kind}]: {m.summary}; params: {params}")
    return lines


def system_prompt() -> str:
    """The system prompt with the current challenge and method lists appended."""
    return (
        SYSTEM_PROMPT
        + "\nChallenges:\n"
        + "\n".join(f"- {line}" for line in challenge_lines())
        + '\n\nRegistered methods (form "method", challenge sparse_parity):\n'
        + "\n".join(f"- {line}" for line in method_lines())
    )


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_STR = {"type": "string"}
_CODE_FORM = {
    "form": {"type": "string", "enum": ["method", "solve", "generate"]},
    "challenge": {"type": "string", "description": "challenge name, e.g. sparse_parity or matmul_4x4"},
    "method": {"type": "string", "description": "form method: the registered method's name"},
    "params": {"type": "object", "description": "form method: key -> value; form solve: n_bits, k_sparse"},
    "code": {"type": "string", "description": "form solve/generate: the whole Python source"},
}

TOOLS: list[dict[str, Any]] = [
    {
        "name": "list_challenges",
        "description": "The registered challenges: name, track, primary metric, and for IR challenges the number "
        "and meaning of inputs and outputs.",
        "input_schema": _schema({}, []),
    },
    {
        "name": "list_methods",
        "description": "The registered sparse-parity methods with their parameters, defaults and valid ranges.",
        "input_schema": _schema({}, []),
    },
    {
        "name": "leaderboard",
        "description": "Best stored result per member and method on a challenge, ranked by a metric (lower is "
        "better). Default metric: the challenge's primary metric.",
        "input_schema": _schema({"challenge": _STR, "metric": _STR}, ["challenge"]),
    },
    {
        "name": "records",
        "description": "How the record (best value) on a challenge improved over time, for one metric.",
        "input_schema": _schema({"challenge": _STR, "metric": _STR}, ["challenge"]),
    },
    {
        "name": "read_run",
        "description": "One stored run by id: parameters, metrics, failure and its code. Without an id: the "
        "ten most recent runs (optionally of one challenge).",
        "input_schema": _schema({"run_id": {"type": "integer"}, "challenge": _STR}, []),
    },
    {
        "name": "check_code",
        "description": "Check a submission against its challenge's contract without storing anything: parses "
        "it, checks the imports, and dry-runs it in the sandbox (solve: one hidden instance; generate: produce "
        "the IR and check it on the challenge's tests; method: validate the name and parameters). Answers "
        "'ok' with what it measured, or what is wrong.",
        "input_schema": _schema(_CODE_FORM, ["form", "challenge"]),
    },
    {
        "name": PROPOSE_TOOL,
        "description": "Finish: the experiment card and its runnable submission. It is checked like check_code; "
        "if it fails you are told why and must fix it. A person approves it before it runs.",
        "input_schema": _schema(
            {
                "title": {"type": "string", "description": "a short name for the experiment"},
                "hypothesis": {"type": "string", "description": "what you expect and why"},
                "change": {"type": "string", "description": "the ONE thing changed against the baseline"},
                "baseline": {
                    "type": "string",
                    "description": "what to compare against (method, run id or record)",
                },
                "seeds": {"type": "array", "items": {"type": "integer"}},
                **_CODE_FORM,
            },
            ["title", "hypothesis", "change", "baseline", "form", "challenge"],
        ),
    },
]
