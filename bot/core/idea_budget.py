"""The limits on /idea: a monthly budget shared by everyone, in tokens and in money (tokens stored per month in
``assistant_usage``, priced per million input/output tokens), and a per-member rate (ideas asked for in the last
hour, from the ``ideas`` table)."""

from __future__ import annotations

from datetime import timedelta

from storage.database import SessionFactory
from storage.ideas import add_usage, ideas_since, month_key, tokens_used
from storage.timestamps import utcnow
from tools.errors import ToolError


class BudgetExhausted(Exception):
    """This month's budget is used up: one line for the member."""

    def one_line(self) -> str:
        return str(self.args[0])


class MonthlyBudget:
    """Checked before each request to the model; every response's usage is added to the month's row.

    limit_usd: money per month; usd_per_mtok: (input, output) price of a million tokens.
    """

    def __init__(
        self,
        sessions: SessionFactory,
        limit_tokens: int,
        limit_usd: float = float("inf"),
        usd_per_mtok: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        self.sessions = sessions
        self.limit_tokens = limit_tokens
        self.limit_usd = limit_usd
        self.usd_per_mtok = usd_per_mtok

    def used(self) -> tuple[int, float]:
        """(tokens, USD) used this month."""
        with self.sessions() as session:
            tokens_in, tokens_out = tokens_used(session, month=month_key(utcnow()))
        usd = (tokens_in * self.usd_per_mtok[0] + tokens_out * self.usd_per_mtok[1]) / 1e6
        return tokens_in + tokens_out, usd

    def check(self) -> None:
        """Raise :class:`BudgetExhausted` when this month's tokens or money reached the limit."""
        tokens, usd = self.used()
        if tokens >= self.limit_tokens:
            spent = f"{tokens:,} of {self.limit_tokens:,} tokens"
        elif usd >= self.limit_usd:
            spent = f"${usd:,.2f} of ${self.limit_usd:,.2f}"
        else:
            return
        raise BudgetExhausted(
            f"the assistant's budget for {month_key(utcnow())} is used up ({spent}) — "
            "/idea works again next month, or an admin raises the budget; everything else works as usual"
        )

    def add(self, input_tokens: int, output_tokens: int) -> None:
        with self.sessions() as session:
            add_usage(session, month=month_key(utcnow()), input_tokens=input_tokens, output_tokens=output_tokens)


def check_rate(sessions: SessionFactory, *, member: str, per_hour: int) -> None:
    """ToolError when ``member`` already asked for ``per_hour`` ideas in the last hour."""
    with sessions() as session:
        count = ideas_since(session, member=member, since=utcnow() - timedelta(hours=1))
    if count >= per_hour:
        raise ToolError(
            f"you asked for {count} ideas in the last hour (limit {per_hour})",
            hint="try again later; /run and /score are not limited by this",
        )
