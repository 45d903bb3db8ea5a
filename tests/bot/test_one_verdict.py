"""One verdict per result, rendered the same everywhere (issue 28): each kind of result — training method, solver,
judged solve(), IR text, generated IR — is stored with the verdict the core computed once (``run_verdicts``), and
the card, the card of the stored answer, ``--json``, ``/show`` (text and JSON), the sprint-log headline and the
digest all state that one value. Then a researcher's week replayed: no result has two verdicts, no LOSS against a
baseline is a record, no board mixes instances or tracks, identical code judged twice in an epoch gives one figure;
and bad input (a verdict setting out of range, an epoch rotation by a non-admin) is one line with nothing stored.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.commands.card_voice import judged_part, metric_name, verdict_words
from bot.context import AppContext
from bot.core.judgement import judgement_from
from bot.core.judgement_words import judgement_lines, judgement_summary
from bot.dispatch import execute
from bot.settings import Settings
from engine.sandbox.tier import probe_tier
from storage.tables import JudgeEpoch, RunVerdict, ToolConfigChange
from tools.board import instance_label

SUBMISSIONS = Path(__file__).resolve().parents[1] / "engine" / "sandbox" / "submissions"
IR = Path(__file__).resolve().parents[1] / "data" / "ir"
WRONG_4X4 = "1,2\nmul 3,1,2\n3\n"
"""matmul_1x1's program sent for matmul_4x4: a wrong answer, stored as a failed run."""


def flat(text: str) -> str:
    """The terminal wraps long lines: compare words, not line breaks."""
    return " ".join(text.split())


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def cli_json(*args: str) -> dict[str, Any]:
    code, out = cli(*args, "--json")
    lines = [line for line in out.splitlines() if line.strip()]
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def sprint_log(data_dir: Path) -> str:
    return flat("".join(p.read_text() for p in data_dir.rglob("*.md")))


def assert_one_verdict(data_dir: Path, card: str, answer: dict[str, Any], again: str) -> dict[str, Any]:
    """Every rendering of run ``answer["run_id"]`` states the verdict stored for it; the stored body returned."""
    run_id = answer["run_id"]
    stored = answer["verdict"]
    assert stored is not None, answer
    judgement = judgement_from(stored)
    shown = cli_json("show", str(run_id))
    assert shown["verdict"] == stored  # /show --json: the same stored value, not recomputed
    _, show_text = cli("show", str(run_id))
    _, full_text = cli("show", str(run_id), "--full")
    said = verdict_words(judgement)  # the short renderings: the card and /show's summary
    if answer.get("published_as"):  # the group's own program: credited to its authors, no record claimed for the member
        said = [line for line in [judged_part(judgement)] if line]
        assert not any("new record" in flat(text) or "record #" in flat(text) for text in [card, again])
    for line in said:
        assert flat(line) in flat(card), (line, card)  # the card when it was judged
        assert flat(line) in flat(again), (line, again)  # the stored answer's card later
        assert flat(line) in flat(show_text), (line, show_text)  # /show
    for line in judgement_lines(judgement):
        assert flat(line) in flat(full_text), (line, full_text)  # /show --full, in the verdict's long words
    log = sprint_log(data_dir)
    assert flat(judgement_summary(judgement)) in log, (judgement_summary(judgement), log)  # the log's headline
    digest = flat(cli("digest")[1])
    assert flat(judgement_summary(judgement)) in digest  # the digest quotes the same headline
    # the card never states a second outcome of the primary metric
    outcome = judgement.outcome
    if outcome is not None and judgement.versus_baseline is not None:
        named = f"{metric_name(judgement.metric)} "
        stated = [p for p in flat(card).split("; ") if named in p]  # the headline's part on the judged metric
        words = {"WIN": "(WIN)", "LOSS": "(LOSS)", "INCONCLUSIVE": "inconclusive"}
        assert stated and all(words[outcome.value] in p for p in stated), (stated, outcome)
    return stored


@pytest.mark.slow
def test_each_kind_of_result_has_one_verdict_in_every_rendering(_isolated_data_dir: Path) -> None:
    data_dir = _isolated_data_dir
    cases: list[tuple[str, ...]] = [
        ("run", "local_update", "seed=3"),  # a training method against sgd on the same seed
        ("run", "gf2", "seed=3"),  # a solver
        ("run", "matmul_16x16", "generator=tiled"),  # generated IR (a built-in generator)
        ("submit", str(IR / "matmul__tiled_16x16.ir")),  # IR text (the group's published program: credited to it)
    ]
    if probe_tier().runs_submissions:
        cases.append(("submit", str(SUBMISSIONS / "gf2_solve.py")))  # a judged solve()
        cases.append(("submit", str(SUBMISSIONS / "small_generate.py"), "--challenge", "matmul_1x1"))
    kinds = set()
    for args in cases:
        answer = cli_json(*args)
        _, card = cli(*args)  # the stored answer as a card (reused: nothing runs again)
        kinds.add(answer.get("kind") or "method")
        first_card = flat(card)
        assert_one_verdict(data_dir, first_card, answer, card)
    assert {"method", "generate", "ir"} <= kinds


@pytest.mark.slow
def test_a_researchers_week(_isolated_data_dir: Path) -> None:
    answers: list[dict[str, Any]] = []
    answers.append(cli_json("run", "matmul_16x16"))  # the built-in baseline program
    answers.append(cli_json("submit", str(IR / "matmul__tiled_16x16.ir")))  # cheaper than the baseline program
    answers.append(cli_json("submit", str(IR / "matmul__weighted_lifetime_copyelim_66707.ir")))  # = the record
    answers.append(cli_json("run", "gf2", "seed=3"))  # solver, n=20 k=3
    answers.append(cli_json("run", "km", "n=6", "k=2", "seed=3"))  # oracle solver, another instance: its own board
    answers.append(cli_json("run", "sgd", "seed=3"))  # training, n=20 k=3
    if probe_tier().runs_submissions:
        brute = cli_json("submit", str(SUBMISSIONS / "brute_force_solve.py"))
        twice = cli_json("submit", str(SUBMISSIONS / "brute_force_solve.py"))
        # identical code judged twice in an epoch: one stored result, one figure
        assert twice["run_id"] == brute["run_id"] and twice["metrics"] == brute["metrics"]
        assert brute["verdict"] == twice["verdict"]
        gf2 = cli_json("submit", str(SUBMISSIONS / "gf2_solve.py"))
        # the member's GF(2) beats their own brute force by far, but the built-in gf2 costs less: never a record
        assert gf2["verdict"]["versus_baseline"]["outcome"] == "LOSS" and gf2["verdict"]["new_record"] is False
        # and its details name the solvers kept off this board: they need oracle queries a solve() does not get
        _, shown = cli("show", str(gf2["run_id"]))
        assert "km, km_min not taken: they need oracle (membership) queries" in flat(shown)
        answers += [brute, gf2]
    result = CliRunner().invoke(main, ["submit", "-", "--challenge", "matmul_4x4", "--json"], input=WRONG_4X4)
    failed = json.loads([line for line in result.output.splitlines() if line.strip()][-1])
    assert failed["ok"] is False and isinstance(failed["run_id"], int)
    # a failed run is not a result: no WIN or LOSS, and the card shows why, not a metric table
    assert failed["verdict"] is None or failed["verdict"]["outcome"] is None
    _, failed_card = cli("show", str(failed["run_id"]))
    assert "not a result" in flat(failed_card) or failed["verdict"] is None
    # no result has two verdicts: each stored verdict is what every rendering says
    stored = {a["run_id"]: a["verdict"] for a in answers if a.get("verdict") is not None}
    for run_id, verdict in stored.items():
        assert cli_json("show", str(run_id))["verdict"] == verdict
        assert cli_json("show", str(run_id))["verdict"] == verdict  # judged once: asking again changes nothing
    # no LOSS against a baseline is a record
    for verdict in stored.values():
        versus = verdict["versus_baseline"]
        assert not (verdict["new_record"] and versus is not None and versus["outcome"] == "LOSS")
    # the tiled IR program loses to the group's published 63,290: not a record, said as a ratio (2.1× costlier)
    tiled = answers[1]["verdict"]
    assert tiled["new_record"] is False and tiled["versus_record"]["outcome"] == "LOSS"
    # the digest's tally is the stored outcomes of the logged runs (the system's baseline and the failure: none)
    digest = cli_json("digest")
    # (a program identical to the group's published one is credited to its authors and not logged as the member's)
    mine = [a for a in answers if a.get("verdict") and not a.get("published_as")]
    logged = [a["verdict"]["outcome"] for a in mine if a["verdict"]["outcome"]]
    assert digest["verdicts"] == dict(Counter(logged))
    # no board mixes instances or tracks: every row of a board has the board's instance and track
    boards = cli_json("leaderboard", "sparse_parity")["boards"]
    small = cli_json("leaderboard", "sparse_parity", "n=6", "k=2")["boards"]
    seen = {(tuple(sorted(b["instance"].items())), b["track"], r["run"]) for b in [*boards, *small] for r in b["rows"]}
    runs = [r for _, _, r in seen]
    assert len(runs) == len(set(runs))  # each run on exactly one board
    for b in boards:
        assert b["instance"] == {"n": 20, "k": 3}
    assert [b["track"] for b in small] == ["oracle solver"] and small[0]["instance"] == {"n": 6, "k": 2}
    assert instance_label(((k, v) for k, v in small[0]["instance"].items())) == "n=6 k=2"  # type: ignore[arg-type]


def _command(ctx: AppContext, name: str, *args: str, caller: Caller) -> tuple[str, int]:
    command = command_named(name)
    assert command is not None
    reply, status = execute(ctx, command, Invocation(command=name, args=list(args), options={}, caller=caller))
    return reply.text, status


def test_bad_verdict_settings_and_a_non_admin_rotation_are_one_line_and_store_nothing(tmp_path: Path) -> None:
    ctx = AppContext(settings=Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]
    admin = Caller(name="root", user_id=1, is_admin=True)
    member = Caller(name="ann", user_id=2)
    for key, value in (("verdict.min_change", "-0.5"), ("verdict.min_change", "2"), ("verdict.spread_factor", "x")):
        text, status = _command(ctx, "config", "set", key, value, caller=admin)
        assert status == 2 and len(text.splitlines()) == 1 and key in text, text
    text, status = _command(ctx, "epoch", caller=member)  # anyone may see the current epoch (the first starts)
    assert status == 0 and text.startswith("judge epoch 1,")
    text, status = _command(ctx, "epoch", "rotate", caller=member)
    assert status == 2 and text.splitlines() == [text] and "only an admin" in text
    with ctx.sessions()() as session:
        assert session.query(ToolConfigChange).count() == 0  # type: ignore[attr-defined]
        assert session.query(JudgeEpoch).count() == 1  # type: ignore[attr-defined]
        assert session.query(RunVerdict).count() == 0  # type: ignore[attr-defined]
    text, status = _command(ctx, "epoch", "rotate", caller=admin)
    assert status == 0 and text.startswith("judge epoch 2 started (was 1); re-judged 0 of 0 board entries")
