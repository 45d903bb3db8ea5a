"""Golden renderings of every kind of result card, as a phone shows it (40 characters) and as the terminal shows it
(80 columns), made from real runs in a fresh data directory.

Each card must fit its budget — a headline of at most three rows at 40 characters, then at most six lines of at
most 40 characters (bot/commands/card_voice.py) — and read exactly as its golden file under
``tests/bot/golden/cards/`` (run times masked). ``/show``'s summary must fit 25 rows at 40 characters. After a
deliberate change of wording, regenerate the files with ``SUTRO_UPDATE_GOLDEN=1 pytest tests/bot/test_card_goldens.py``
and read the diff.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from bot.app import build_context
from bot.cli import render_reply
from bot.commands import COMMANDS
from bot.commands.base import Attachment, Caller, Reply
from bot.commands.card_voice import CARD_LINES, CARD_WIDTH, HEADLINE_ROWS, phone_rows
from bot.commands.show_summary import SUMMARY_ROWS
from bot.commands.tokens import parse_tokens
from bot.context import AppContext
from bot.dispatch import execute
from bot.settings import Settings
from bot.telegram_app.render import plain_text
from tests.reference_data import REFERENCE

GOLDEN = Path(__file__).parent / "golden" / "cards"
TERMINAL_COLUMNS = 80
UPDATE = os.environ.get("SUTRO_UPDATE_GOLDEN") == "1"
_SECONDS = re.compile(r"\b\d+\.\d+ s\b")

TINY_IR = "1,2\nmul 3,1,2\n3\n"
"""matmul_1x1 in one multiply: inputs at addresses 1 and 2, the product at 3 (the e2e tests' tiny program)."""
WRONG_IR = "1,2\nadd 3,1,2\n3\n"
"""matmul_1x1 with an add instead of a multiply: rejected as wrong."""


def mask(text: str) -> str:
    """Run times vary with the machine: ``2.5 s`` → ``N.NN s``."""
    return _SECONDS.sub("N.NN s", text)


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppContext]:
    data_dir = tmp_path_factory.mktemp("golden-cards")
    context = build_context(Settings(data_dir=data_dir, _env_file=None))  # type: ignore[call-arg]
    yield context
    context.close()


def ask(ctx: AppContext, line: str, *, member: str = "ann", attachment: str | None = None) -> Reply:
    name, _, rest = line.partition(" ")
    command = next(c for c in COMMANDS if c.name == name)
    inv = parse_tokens(command, rest.split())
    inv.caller = Caller(name=member, is_admin=False)
    if attachment is not None:
        inv.attachments.append(Attachment(name="program.ir", content=attachment.encode()))
    reply, _ = execute(ctx, command, inv)
    return reply


def phone(reply: Reply) -> str:
    """The reply's text as a phone shows it: wrapped at 40 characters."""
    return "\n".join(phone_rows(mask(plain_text(reply)).rstrip("\n"), CARD_WIDTH)) + "\n"


def terminal(reply: Reply) -> str:
    """The reply as ``sutro`` prints it in an 80-column terminal."""
    out = io.StringIO()
    render_reply(Console(file=out, width=TERMINAL_COLUMNS, color_system=None, legacy_windows=False), reply)
    return mask(out.getvalue())


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden {path}: run with SUTRO_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; regenerate with SUTRO_UPDATE_GOLDEN=1"


def check_card(name: str, reply: Reply, *, chart: bool = False) -> None:
    """The card fits its budget on a phone and in the terminal, and reads as its goldens (``chart``: a sweep's
    card carries its chart, a photo in the chat)."""
    headline, *lines = reply.text.splitlines()
    assert len(phone_rows(headline, CARD_WIDTH)) <= HEADLINE_ROWS, headline
    assert len(lines) <= CARD_LINES, reply.text
    assert all(len(line) <= CARD_WIDTH for line in lines), [line for line in lines if len(line) > CARD_WIDTH]
    assert not reply.tables, "a card's tables are in show ID (a sweep's: --table)"
    assert [f.mime for f in reply.files] == (["image/png"] if chart else []), "a card's files are in show ID"
    shown = terminal(reply)
    assert all(len(line) <= TERMINAL_COLUMNS for line in shown.splitlines())
    assert len(shown.splitlines()) <= 2 + CARD_LINES + len(reply.followups)  # headline in ≤ 2 rows at 80
    check_golden(f"{name}.phone.txt", phone(reply))
    check_golden(f"{name}.terminal.txt", shown)


CASES = [
    # (golden name, command line, member, attached program)
    ("method", "run local_update n=20", "ann", None),  # the card: ByteDMD WIN, DMC inconclusive
    ("method-stored", "run local_update n=20", "ann", None),  # the stored answer of the same request
    ("method-failed", "run local_update n=20 epochs=1", "ann", None),  # not a result: says why
    ("solver", "run gf2 seed=3", "ann", None),  # a solver against the best other built-in solver
    ("generator", "run matmul_16x16 generator=tiled", "ann", None),  # built-in IR: WIN vs baseline, LOSS vs record
    ("submission", "submit --challenge matmul_1x1 --name tiny", "ann", TINY_IR),
    ("submission-credited", "submit --challenge matmul_1x1 --name copy", "bob", TINY_IR),  # identical to ann's
    ("submission-failed", "submit --challenge matmul_1x1 --name wrong", "ann", WRONG_IR),
    ("published", "submit --challenge matmul_16x16 --name own", "ann", None),  # the group's published program
]


@pytest.mark.slow
def test_every_card_kind_fits_a_phone_and_reads_as_its_golden(ctx: AppContext) -> None:
    published = (REFERENCE / "ir" / "matmul__tiled_16x16.ir").read_text(encoding="utf-8")
    for name, line, member, program in CASES:
        reply = ask(ctx, line, member=member, attachment=published if name == "published" else program)
        check_card(name, reply)


SUBMISSIONS = Path(__file__).resolve().parents[1] / "engine" / "sandbox" / "submissions"


@pytest.fixture
def fresh_ctx(tmp_path: Path) -> Iterator[AppContext]:
    """A data directory of the test's own: its goldens name run ids, which must not depend on which other tests
    ran before it in the same worker."""
    context = build_context(Settings(data_dir=tmp_path, _env_file=None))  # type: ignore[call-arg]
    yield context
    context.close()


@pytest.mark.slow
def test_sweep_and_compat_cards_fit_a_phone_and_read_as_their_goldens(fresh_ctx: AppContext) -> None:
    ctx = fresh_ctx
    check_card("sweep", ask(ctx, "sweep km_min n=12,16 k=3"), chart=True)
    # more points than a card has lines: five, then how to see the rest
    long = ask(ctx, "sweep km_min n=10,12,14,16,18,20,22 k=3")
    check_card("sweep-long", long, chart=True)
    assert long.text.splitlines()[-1] == "2 more: add --table for all"
    table = ask(ctx, "sweep km_min n=10,12,14,16,18,20,22 k=3 --table")
    without_pointer = long.text.rsplit("\n", 1)[0].replace("(2 stored", "(7 stored")
    assert [len(t.rows) for t in table.tables] == [7] and table.text == without_pointer
    # a local solve() by the public leaderboard's protocol: where it would rank on the group's board
    check_card("compat", ask(ctx, f"run solve={SUBMISSIONS / 'gf2_solve.py'} --compat spc"))


@pytest.mark.slow
def test_show_summary_fits_25_rows_and_compare_leads_with_the_verdict(ctx: AppContext) -> None:
    card = ask(ctx, "run local_update n=20")
    assert card.data is not None
    run_id, baseline_id = card.data["run_id"], card.data["baseline"]["run_id"]
    shown = ask(ctx, f"show {run_id}")
    assert len(phone(shown).splitlines()) <= SUMMARY_ROWS and not shown.files, phone(shown)
    check_golden("show.phone.txt", phone(shown))
    check_golden("show.terminal.txt", terminal(shown))
    compared = ask(ctx, f"compare {baseline_id} {run_id}")
    first = compared.text.splitlines()[0]
    # the verdict leads: the same per-metric verdicts the card's headline states
    assert first.startswith(f"#{run_id} local_update vs #{baseline_id} sgd: ByteDMD ")
    assert card.text.split(": ", 1)[1].split("\n")[0] in first
    check_golden("compare.terminal.txt", terminal(compared))
