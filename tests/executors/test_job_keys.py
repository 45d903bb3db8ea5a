"""Job keys: the same request has one key, whoever sends it when its answer is shared (``run``), per member when
the answer is the asker's own (``log``, and ``score``/``submit``, whose card carries the submitter's own credit); any
difference in what is asked gives another key."""

from __future__ import annotations

from bot.commands import COMMANDS
from bot.commands.base import Attachment, Caller, Invocation
from bot.executors.keys import job_key

SCORE = next(c for c in COMMANDS if c.name == "score")
LOG = next(c for c in COMMANDS if c.name == "log")
RUN = next(c for c in COMMANDS if c.name == "run")
SUBMIT = next(c for c in COMMANDS if c.name == "submit")

ANN = Caller(name="ann", user_id=1)
BOB = Caller(name="bob", user_id=2)


def _inv(content: bytes = b"1,2\nmul 3,1,2\n3", caller: Caller = ANN, **options: str) -> Invocation:
    return Invocation(
        command="score",
        options=options,
        attachments=[Attachment(name="p.ir", content=content)],
        caller=caller,
    )


def test_same_request_same_key_and_every_difference_in_it_changes_it() -> None:
    base = job_key(SCORE, _inv(challenge="matmul_1x1"))
    assert base == job_key(SCORE, _inv(challenge="matmul_1x1")) and len(base) == 64
    assert job_key(SCORE, _inv(challenge="matmul_1x1", caller=Caller(name="ann", user_id=1, chat_id=5))) == base
    others = {
        job_key(SCORE, _inv(challenge="matmul_4x4")),
        job_key(SCORE, _inv(b"1,2\nmul 4,1,2\n4", challenge="matmul_1x1")),
        job_key(SCORE, _inv()),
        job_key(SCORE, _inv(challenge="matmul_1x1", caller=Caller(name="root", user_id=9, is_admin=True))),
    }
    assert base not in others and len(others) == 4


def test_options_are_one_request_in_any_order() -> None:
    assert job_key(SCORE, _inv(challenge="matmul_1x1", name="x")) == job_key(
        SCORE, _inv(name="x", challenge="matmul_1x1")
    )


def test_a_shared_answer_has_one_key_for_every_member_an_own_answer_one_per_member() -> None:
    assert RUN.shared_answer and not LOG.shared_answer
    run = ["local_update", "n=20"]
    assert job_key(RUN, Invocation(command="run", args=run, caller=BOB)) == job_key(
        RUN, Invocation(command="run", args=run, caller=ANN)
    )
    # identical code from two members is two submissions: each gets their own record and card (credit, issue 19.6)
    assert not SCORE.shared_answer and not SUBMIT.shared_answer
    assert job_key(SCORE, _inv(caller=BOB)) != job_key(SCORE, _inv(caller=ANN))
    note = ["tried", "lr=0.1"]
    ann_note = job_key(LOG, Invocation(command="log", args=note, caller=ANN))
    assert ann_note == job_key(LOG, Invocation(command="log", args=note, caller=ANN))
    assert ann_note != job_key(LOG, Invocation(command="log", args=note, caller=BOB))
    anonymous = Caller(name="Sutro", chat_id=-100, is_admin=True)
    assert job_key(LOG, Invocation(command="log", args=note, caller=anonymous)) != ann_note
