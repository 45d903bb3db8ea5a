"""Job keys: the same submission by the same member has one key; any difference in what or who gives another."""

from __future__ import annotations

from bot.commands import COMMANDS
from bot.commands.base import Attachment, Caller, Invocation
from bot.executors.keys import job_key

SCORE = next(c for c in COMMANDS if c.name == "score")

ANN = Caller(name="ann", user_id=1)


def _inv(content: bytes = b"1,2\nmul 3,1,2\n3", caller: Caller = ANN, **options: str) -> Invocation:
    return Invocation(
        command="score",
        options=options,
        attachments=[Attachment(name="p.ir", content=content)],
        caller=caller,
    )


def test_same_submission_same_key_and_every_difference_changes_it() -> None:
    base = job_key(SCORE, _inv(challenge="matmul_1x1"))
    assert base == job_key(SCORE, _inv(challenge="matmul_1x1")) and len(base) == 64
    assert Caller(name="ann", user_id=1, chat_id=5) != ANN
    assert job_key(SCORE, _inv(challenge="matmul_1x1", caller=Caller(name="ann", user_id=1, chat_id=5))) == base
    others = {
        job_key(SCORE, _inv(challenge="matmul_4x4")),
        job_key(SCORE, _inv(b"1,2\nmul 4,1,2\n4", challenge="matmul_1x1")),
        job_key(SCORE, _inv(challenge="matmul_1x1", caller=Caller(name="bob", user_id=2))),
        job_key(SCORE, _inv()),
    }
    assert base not in others and len(others) == 4
