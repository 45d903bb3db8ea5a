"""Issue 29 (``Why`` 2 and 3) through ``sutro submit``: copies, casts, random draws and ``.tolist()`` no longer make
a correct brute force cheap.

Every attack is the honest brute force (tests/engine/sandbox/submissions/brute_force_solve.py) run on a copy of the
data made without arithmetic. Oracle: the copy holds the same values, so the same 1,140 tries read as many
elements as the honest twin's; judged on the same hidden instance (fixed here), each must cost at least half of the
honest ``bytedmd@2`` (on the landed code they cost 0 or up to 248 times less). The half allows for where the copy
sits on the stack (fresh values on top rather than the inputs' placement); measured ratios are in the docstrings.
``.tolist()`` followed by plain Python (24 rows, every product of every try computed) is another algorithm, so its
oracle is the in-process element tracer of the same code, where the list's values stay tracked: the judge may not
charge less (docs/metrics.md#what-a-solve-pays-for). On the landed code each value was read once as it crossed to
the child and the Python work was free: at most 24 × 20 reads against the tracer's 20,000-odd tracked operations.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.metrics.bytedmd import bytedmd
from engine.sandbox import judge as judge_module
from engine.sandbox.tier import TierReport
from tests.bot.test_submit_command import one_json, sandboxed, submit

__all__ = ["sandboxed"]  # the fixture, imported for the tests below

HONEST = (Path(__file__).parents[1] / "engine/sandbox/submissions/brute_force_solve.py").read_text()
_HEAD = "from itertools import combinations\nimport numpy as np\n\ndef solve(x, y, n_bits, k_sparse):\n"
_LOOP = """    for combo in combinations(range(n_bits), k_sparse):
        if (np.prod(xc[:, list(combo)], axis=1) == yc).all():
            return list(combo)
    return []
"""
COPIES = {
    "normal": "    xc = np.random.normal(x, 0.0)\n    yc = np.random.normal(y, 0.0)\n",
    "permutation": "    xc = np.random.permutation(np.stack([x, x]))[0]\n"
    "    yc = np.random.permutation(np.stack([y, y]))[0]\n",
    "astype": "    xc = x.astype(np.int8)\n    yc = y.astype(np.int8)\n",
    "zeros": "    xc = np.zeros(x.shape, dtype=np.int64)\n    xc[:, :] = x\n"
    "    yc = np.zeros(y.shape, dtype=np.int64)\n    yc[:] = y\n",
    "dtype": "    xc = np.array(x, dtype=np.float64)\n    yc = np.array(y, dtype=np.float64)\n",
}
TOLIST = (
    _HEAD
    + """    rows, ys = x.tolist()[:24], y.tolist()[:24]
    for combo in combinations(range(n_bits), k_sparse):
        agree = 0
        for r, v in zip(rows, ys):
            agree = agree + (r[combo[0]] * r[combo[1]] * r[combo[2]] == v)
        if agree == len(ys):
            return list(combo)
    return []
"""
)


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> dict:  # type: ignore[type-arg]
    """One hidden instance for every judgement of the test (n=20, k=3; the secret early in the combination order,
    about 200 tries, so that three judgements of each program stay well inside the wall-clock limit under load)."""
    rng = np.random.default_rng(29)
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(1200, 20))
    secret = [1, 7, 12]
    y = np.prod(x[:, secret], axis=1)
    inst = {"secret": secret, "x_train": x[:200], "y_train": y[:200], "x_test": x[200:], "y_test": y[200:]}
    monkeypatch.setattr(judge_module, "hidden_instance", lambda *a, **k: inst)
    return inst


def _judged(tmp_path: Path, name: str, code: str) -> dict:  # type: ignore[type-arg]
    path = tmp_path / f"{name}.py"
    path.write_text(code)
    code_, out = submit(str(path), "--json")
    payload = one_json(out)
    assert code_ == 0 and payload["ok"] is True and payload["accuracy"] == 1.0, payload
    return payload["metrics"]  # type: ignore[no-any-return]


@pytest.mark.slow
def test_copies_casts_and_draws_do_not_make_brute_force_cheap(
    sandboxed: TierReport, fixed: dict, tmp_path: Path
) -> None:
    """Measured by bench/bench_pricing.py (secret [17, 18, 19]): every copy costs 1.00-1.01x the honest bytedmd@2
    (45.2 M); on the landed code normal and permutation cost 0, astype, zeros and dtype= 172,641 (248x below)."""
    honest = _judged(tmp_path, "honest", HONEST)["bytedmd@2"]
    assert honest > 0
    for name, copy in COPIES.items():
        forged = _judged(tmp_path, name, _HEAD + copy + _LOOP)
        assert forged["bytedmd@2"] >= 0.5 * honest, (name, forged["bytedmd@2"], honest)


@pytest.mark.slow
def test_tolist_values_stay_priced(sandboxed: TierReport, fixed: dict, tmp_path: Path) -> None:
    """``.tolist()`` gives 0-d arrays held by the parent: the Python loop's products and comparisons are requests,
    priced; the judge charges at least the in-process element tracer on the same code and data (landed code:
    the values crossed free and the judge charged less)."""
    metrics = _judged(tmp_path, "tolist", TOLIST)
    names: dict = {}  # type: ignore[type-arg]
    exec(compile(TOLIST, "<tolist>", "exec"), names)  # noqa: S102 — the test's own attack source
    traced = bytedmd(lambda x, y: names["solve"](x, y, 20, 3), (fixed["x_train"], fixed["y_train"]))
    assert metrics["bytedmd@2"] >= traced > 0
