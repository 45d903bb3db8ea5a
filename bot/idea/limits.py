"""The limits on /idea: a monthly token budget shared by everyone (stored per month in ``assistant_usage``) and a
per-member rate (ideas asked for in the last hour, from the ``ideas`` table)."""

from __future__ import annotations

from datetime import timedelta

from storage.database import SessionFactory
from storage.ideas import add_usage, ideas_since, month_key, tokens_used
from storage.timestamps import utcnow
from tools.errors import ToolError


class BudgetExhausted(Exception):
    """This month's token budget is used up: one line for the member."""

    def one_line(self) -> str:
        return str(self.args[0])


class MonthlyBudget:
    """Checked before each request to the model; every response's usage is added to the month's row."""

    def __init__(self, sessions: SessionFactory, limit_tokens: int) -> None:
        self.sessions = sessions
        self.limit_tokens = limit_tokens

    def used(self) -> int:
        with self.sessions() as session:
            return tokens_used(session, month=month_key(utcnow()))

    def check(self) -> None:
        """Raise :class:`BudgetExhausted` when this month's tokens reached the limit."""
        used = self.used()
        if used >= self.limit_tokens:
            month = month_key(utcnow())
            raise BudgetExhausted(
                f"the assistant's budget for {month} is used up ({used:,} of {self.limit_tokens:,} tokens) — "
                "/idea works again next month, or an admin raises the budget; everything else works as usual"
            )

    def add(self, input_tokens: int, output_tokens: int) -> None:
        with self.sessions() as session:
            add_usage(
                session, month=month_key(utcnow()), input_tokens=input_tokens, output_tokens=output_tokens
            )


def check_rate(sessions: SessionFactory, *, member: str, per_hour: int) -> None:
    """UsageError when ``member`` already asked for ``per_hour`` ideas in the last hour."""
    with sessions() as session:
        count = ideas_since(session, member=member, since=utcnow() - timedelta(hours=1))
    if count >= per_hour:
        raise ToolError(
            f"you asked for {count} ideas in the last hour (limit {per_hour})",
            hint="try again later; /run and /score are not limited by this",
        )
