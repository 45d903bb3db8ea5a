"""Rendering a Reply for the chat: escaped HTML, aligned monospace tables, photos, long output as a document."""

from __future__ import annotations

from bot.commands.base import OutFile, Reply, Table
from bot.telegram_app.render import MESSAGE_LIMIT, render, table_text


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
