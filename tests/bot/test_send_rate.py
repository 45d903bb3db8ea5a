"""Telegram's sending limits as SendRate applies them; every expected wait is worked out by hand from the rules
(1 s between sends in a chat, 20 per sliding 60 s in a group, 30 per sliding second overall, a 429's hold)."""

from __future__ import annotations

from bot.telegram_app.send_rate import Limits, SendRate

GROUP, OTHER_GROUP, PERSON = -100100, -100200, 4242


def test_a_group_gets_twenty_sends_in_any_sixty_seconds() -> None:
    rate = SendRate()
    for t in range(20):  # one a second, t = 0 … 19
        assert rate.wait_s(GROUP, float(t)) == 0.0
        rate.record(GROUP, float(t))
    # at 19.5: the 1 s gap would allow 20.0, but the window holds 20 sends until the one at t=0 leaves at 60
    assert rate.wait_s(GROUP, 19.5) == 40.5
    assert rate.headroom(GROUP, 19.5) == 0
    assert rate.wait_s(GROUP, 60.0) == 0.0  # sliding: the send at 0 has left, the one at 1 has not
    rate.record(GROUP, 60.0)
    assert rate.wait_s(GROUP, 60.5) == 0.5  # the gap after 60.0 …
    assert rate.wait_s(GROUP, 61.0) == 0.0  # … and t=1 left the window
    assert rate.wait_s(OTHER_GROUP, 19.5) == 0.0  # another group has its own window


def test_a_private_chat_has_only_the_one_second_gap() -> None:
    rate = SendRate()
    for t in range(25):
        assert rate.wait_s(PERSON, float(t)) == 0.0
        rate.record(PERSON, float(t))
    assert rate.wait_s(PERSON, 24.25) == 0.75
    assert rate.headroom(PERSON, 24.25) > 1000


def test_thirty_sends_a_second_overall() -> None:
    rate = SendRate()
    for chat in range(1, 31):  # 30 people at t = 0
        rate.record(chat, 0.0)
    assert rate.wait_s(31, 0.5) == 0.5  # the 31st waits until the first leaves the one-second window
    assert rate.wait_s(31, 1.0) == 0.0


def test_a_429_holds_the_chat_for_retry_after() -> None:
    rate = SendRate()
    rate.hold(GROUP, 35.0)  # answered at t=5 with retry_after 30
    assert rate.wait_s(GROUP, 5.0) == 30.0
    assert rate.wait_s(GROUP, 35.0) == 0.0
    assert rate.wait_s(PERSON, 5.0) == 0.0


def test_a_rule_set_to_zero_is_off() -> None:
    rate = SendRate(Limits(per_chat_gap_s=0.0, group_per_minute=0, overall_per_s=0))
    for _ in range(100):
        rate.record(GROUP, 1.0)
    assert rate.wait_s(GROUP, 1.0) == 0.0
