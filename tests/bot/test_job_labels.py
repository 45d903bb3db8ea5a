"""Job numbers read differently from run ids: ``job 7`` (the queue) beside ``run #7`` (the store)."""

from __future__ import annotations

import pytest

from bot.jobs.labels import job_label, job_number


def test_a_job_is_named_job_n_never_with_a_hash() -> None:
    assert job_label(7) == "job 7" and "#" not in job_label(7)


@pytest.mark.parametrize(("token", "number"), [("7", 7), ("#7", 7), ("job7", 7), ("J7", 7), ("j12", 12)])
def test_cancel_takes_the_number_with_or_without_the_word(token: str, number: int) -> None:
    assert job_number(token) == number


@pytest.mark.parametrize("token", ["", "seven", "run7", "#", "7a"])
def test_anything_else_is_not_a_job_number(token: str) -> None:
    assert job_number(token) is None
