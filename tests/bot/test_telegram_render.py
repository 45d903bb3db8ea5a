"""Rendering a Reply for the chat: escaped HTML, aligned monospace tables, photos, long output as a document."""

from __future__ import annotations

from bot.commands.base import OutFile, Reply, Table
from bot.telegram_app.render import MESSAGE_LIMIT, fit_plain, preview, render, table_text


def test_table_columns_align_and_numbers_right_align() -> None:
    text = table_text(Table(headers=["who", "cost"], rows=[["ann", "12.5"], ["bartholomew", "7"]]))
    lines = text.splitlines()
    assert lines == ["who          cost", "-----------  ----", "ann          12.5", "bartholomew     7"]


def test_markup_in_user_text_is_escaped() -> None:
    out = render(Reply(text="a<b & c>d", tables=[Table(headers=["x"], rows=[["<i>"]])]))
    assert out.html.startswith("a&lt;b &amp; c&gt;d")
    assert "<pre>x" in out.html and "&lt;i&gt;" in out.html
    assert "<i>" not in out.html


def test_charts_are_photos_and_other_files_documents() -> None:
    png = OutFile("chart.png", b"\x89PNG", "image/png")
    csv = OutFile("results.csv", b"a,b\n", "text/csv")
    out = render(Reply(text="ok", files=[png, csv]))
    assert out.photos == [png] and out.documents == [csv]


def test_long_output_goes_out_as_a_document_under_a_summary() -> None:
    rows = [[str(i), "x" * 30] for i in range(400)]
    reply = Reply(text="400 rows\nmore detail", tables=[Table(headers=["i", "v"], rows=rows)])
    out = render(reply)
    assert len(out.html) <= MESSAGE_LIMIT
    assert out.html.startswith("400 rows")
    [doc] = out.documents
    assert doc.name == "reply.txt"
    body = doc.content.decode()
    assert "399  " + "x" * 30 in body and body.count("\n") >= 400


def test_a_reply_without_text_still_says_something() -> None:
    assert render(Reply()).html == "done"
    assert render(Reply(ok=False)).html == "failed"


def test_a_table_too_wide_for_a_phone_becomes_one_card_per_row() -> None:
    narrow = Table(headers=["who", "cost"], rows=[["ann", "12.5"]])
    wide = Table(
        headers=["method", "n", "what"],
        rows=[["local_update", "20", "a long description " * 3], ["b<x>", "3", "y"]],
    )
    assert render(Reply(tables=[narrow])).html.startswith("<pre>who")
    out = render(Reply(tables=[wide])).html
    assert "<pre>" not in out
    assert out.splitlines() == [
        "<b>local_update</b>",
        "  n: 20",
        "  what: " + "a long description " * 3,
        "<b>b&lt;x&gt;</b>",
        "  n: 3",
        "  what: y",
    ]
    pairs = Table(headers=["what", "value"], rows=[["python-telegram-bot", "22.8"], ["job queue", "x " * 30]])
    assert render(Reply(tables=[pairs])).html.splitlines() == [
        "<b>python-telegram-bot</b>: 22.8",
        "<b>job queue</b>: " + "x " * 30,
    ]
    assert all(len(line) <= 70 for line in out.splitlines())


def test_preview_is_one_short_line() -> None:
    assert preview("/run a\n  b") == "/run a b"
    long = "/log " + "x" * 200
    cut = preview(long)
    assert len(cut) == 80 and cut.endswith("…") and cut.startswith("/log xxx")


def test_fit_plain_cuts_at_a_line_with_a_note() -> None:
    lines = [f"line {i:04d}" for i in range(1000)]  # 10 characters + newline each: 10,999 characters
    text = "\n".join(lines)
    cut = fit_plain(text)
    assert len(cut) <= MESSAGE_LIMIT
    body, note = cut.rsplit("\n", 1)
    assert note.startswith("… (cut")
    assert all(line in lines for line in body.splitlines())  # whole lines only
    assert fit_plain("short") == "short"
