"""The long-lived program judge (engine/scoring/program_judge.py) gives the verdicts of the scorer every stored IR
result comes from (engine.scoring.ir.score_ir): the same cost, pass/fail, reason and failure kind.

Oracles: the published costs of expected.tsv and of the mask32 record tables (tests/data/mask32/README.md, with the
dev successes the group reports; the table is tests/engine/test_mask_records.py's); ``score_ir`` itself on the
published programs and on mutated ones (a line dropped, an operand or an op changed, outputs swapped); the matmul
symbolic check of engine/challenges/matmul_symbolic.py for the prepared one (engine/challenges/matmul_identity.py).
"""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from engine.challenges.matmul_identity import MatmulIdentity
from engine.challenges.matmul_symbolic import check_matmul
from engine.errors import BadParameter, EngineError
from engine.ir.instruction_set import MATMUL_V0
from engine.ir.parser import parse
from engine.result import FailureKind
from engine.scoring import ProgramJudge, ProgramVerdict
from engine.scoring.ir import score_ir
from tests.engine.test_mask_records import RECORDS
from tests.engine.test_matmul_symbolic import STRASSEN_2X2
from tests.reference_data import REFERENCE

ROWS = list(csv.DictReader((REFERENCE / "expected.tsv").read_text().splitlines(), delimiter="\t"))
MATMUL_ROWS = [r for r in ROWS if r["scorer"].startswith("matmul")]
MASK32 = Path(__file__).resolve().parents[1] / "data" / "mask32"
MASK_RECORDS = RECORDS  # file, published cost, band of its table, dev successes the group reports


def mask_program(name: str) -> str:
    return gzip.decompress((MASK32 / name).read_bytes()).decode()


def oracle(challenge: str, text: str) -> tuple[int | None, bool, str | None, FailureKind | None]:
    """(cost, ok, reason, kind) as score_ir gives them (a refused text: its one line, ``rejected``)."""
    try:
        result = score_ir(challenge, text)
    except EngineError as err:
        return None, False, err.one_line(), FailureKind.REJECTED
    return int(result.metrics["dally@1"]), result.ok, result.failure, result.failure_kind


def verdict_tuple(v: ProgramVerdict) -> tuple[int | None, bool, str | None, FailureKind | None]:
    return v.cost, v.correct, v.reason, v.failure_kind


@pytest.mark.parametrize("row", MATMUL_ROWS, ids=[r["file"] for r in MATMUL_ROWS])
def test_published_matmul_programs_cost_what_was_published(row: dict[str, str]) -> None:
    verdict = ProgramJudge(row["scorer"]).judge((REFERENCE / "ir" / row["file"]).read_text())
    assert verdict.correct and verdict.reason is None and verdict.failure_kind is None
    assert verdict.cost == int(row["cost"])
    assert verdict.instructions == int(row["ops"])
    assert verdict.rules == "matmul rules@2" and verdict.instances == 1


@pytest.mark.parametrize(("name", "cost", "band", "successes"), MASK_RECORDS)
def test_published_band_programs_cost_and_recover_as_published(name: str, cost: int, band: int, successes: int) -> None:
    verdict = ProgramJudge("mask_sparse_parity").judge(mask_program(name))
    assert (verdict.cost, verdict.band, verdict.successes, verdict.instances) == (cost, band, successes, 1024)
    assert verdict.correct and verdict.accuracy == successes / 1024


def mutants(text: str, rng: random.Random, count: int) -> list[str]:
    """``count`` variants of ``text``: a body line dropped or duplicated, an operand moved to a neighbouring address,
    an op replaced, two output addresses swapped."""
    lines = text.strip().split("\n")
    out = []
    for _ in range(count):
        body = lines[1:-1]
        kind = rng.randrange(5)
        i = rng.randrange(len(body))
        if kind == 0:
            body = body[:i] + body[i + 1 :]
        elif kind == 1:
            body = body[: i + 1] + [body[i]] + body[i + 1 :]
        elif kind == 2:
            op, args = body[i].split(" ", 1)
            parts = args.split(",")
            j = rng.randrange(len(parts))
            parts[j] = str(max(1, int(parts[j]) + rng.choice((-1, 1))))
            body = body[:i] + [f"{op} {','.join(parts)}"] + body[i + 1 :]
        elif kind == 3:
            op, args = body[i].split(" ", 1)
            new = rng.choice([o for o in ("add", "sub", "mul") if o != op]) if len(args.split(",")) == 3 else op
            body = body[:i] + [f"{new} {args}"] + body[i + 1 :]
        outputs = lines[-1].split(",")
        if kind == 4:
            a, b = rng.sample(range(len(outputs)), 2)
            outputs[a], outputs[b] = outputs[b], outputs[a]
        out.append("\n".join([lines[0], *body, ",".join(outputs)]))
    return out


@pytest.mark.parametrize(
    ("file", "challenge", "count"),
    [
        ("matmul__outer_product_4x4.ir", "matmul_4x4", 60),
        ("matmul__baseline_4x4.ir", "matmul_4x4", 40),
        ("matmul__weighted_lifetime_copyelim_66707.ir", "matmul_16x16", 12),
        ("matmul__aliased_16x16.ir", "matmul_16x16", 12),
    ],
)
def test_mutated_matmul_programs_get_the_scorers_verdict(file: str, challenge: str, count: int) -> None:
    judge = ProgramJudge(challenge)
    rng = random.Random(file)
    original = (REFERENCE / "ir" / file).read_text()
    texts = [original, *mutants(original, rng, count)]
    verdicts = [verdict_tuple(judge.judge(t)) for t in texts]
    assert verdicts == [oracle(challenge, t) for t in texts]
    assert any(not v[1] and v[0] is not None for v in verdicts)  # a wrong answer among them, not only refusals


def test_mutated_band_programs_get_the_scorers_verdict() -> None:
    judge = ProgramJudge("mask_sparse_parity")
    rng = random.Random(7)
    texts = mutants(mask_program("packedstatic20_mask32.ir.gz"), rng, 6)
    assert [verdict_tuple(judge.judge(t)) for t in texts] == [oracle("mask_sparse_parity", t) for t in texts]


def test_the_prepared_identity_check_agrees_with_the_rule() -> None:
    prepared = {n: MatmulIdentity(n) for n in (2, 4)}
    texts = [STRASSEN_2X2, *mutants(STRASSEN_2X2, random.Random(3), 40)]
    texts += [(REFERENCE / "ir" / "matmul__outer_product_4x4.ir").read_text()]
    texts += mutants(texts[-1], random.Random(4), 40)
    texts += ["1,2\nmul 3,1,2\nmul 4,3,1\nsub 5,4,4\nadd 6,5,3\n6", "1,2\nmul 3,1,2\nmul 4,3,3\n4"]
    checked = 0
    for text in texts:
        try:
            program = parse(text, MATMUL_V0)
        except EngineError:
            continue
        n = round((program.outputs.size) ** 0.5)
        if n in prepared and program.inputs.size == 2 * n * n:
            assert prepared[n].check(program) == check_matmul(program, n)
            checked += 1
    assert checked > 60


def test_a_board_band_is_held_and_a_lower_band_is_refused_in_one_line() -> None:
    text = mask_program("packedroute40_mask32.ir.gz")
    assert ProgramJudge("mask_sparse_parity", band=40).judge(text).correct
    verdict = ProgramJudge("mask_sparse_parity", band=60).judge(text)
    assert not verdict.correct and verdict.band == 40 and verdict.failure_kind == FailureKind.WRONG_ANSWER
    assert verdict.reason is not None and "\n" not in verdict.reason and "60 %" in verdict.reason


def test_a_broken_program_is_refused_with_the_parsers_line_and_no_cost() -> None:
    verdict = ProgramJudge("matmul_4x4").judge("1,2\nadd 3,1\n3")
    assert (verdict.cost, verdict.correct, verdict.failure_kind) == (None, False, FailureKind.REJECTED)
    assert verdict.reason == oracle("matmul_4x4", "1,2\nadd 3,1\n3")[2]


def test_hidden_instance_boards_are_judged_by_the_scorer() -> None:
    row = next(r for r in ROWS if r["scorer"] == "symmetry_six")
    verdict = ProgramJudge("symmetry_six").judge((REFERENCE / "ir" / row["file"]).read_text())
    assert verdict.correct and verdict.cost == int(row["cost"])


@pytest.mark.parametrize(
    ("challenge", "band", "words"),
    [("no_such_board", None, "no_such_board"), ("mask_sparse_parity", 50, "50 %"), ("matmul_4x4", 20, "no 20 %")],
)
def test_bad_boards_and_bands_are_refused_in_one_line(challenge: str, band: int | None, words: str) -> None:
    with pytest.raises(EngineError) as caught:
        ProgramJudge(challenge, band=band)
    assert words in caught.value.one_line() and "\n" not in caught.value.one_line()
    if band is not None:
        assert isinstance(caught.value, BadParameter)
