"""Text normalised to what Google Docs keeps, before indices are computed: random Unicode (controls, ANSI escapes,
bidi marks, astral characters, private use, lone surrogates) replayed on the strict document model.

Oracle: the document model strips exactly what the Docs API reference documents (tests/fakes/docs_model.py) and
rejects any range past the body; the text read back must equal the entry's text put through the normaliser, and a
batch built by counting characters the service drops must be rejected (so the model can catch the bug at all).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.fakes.docs_model import BadRequest, Document, Paragraph, Table
from tools.sprint_log.docs_requests import entry_requests
from tools.sprint_log.docs_text import docs_text, stored_text
from tools.sprint_log.entry import LogEntry, entry_heading, neutral, utf16_len
from tools.user_text import one_line, plain_body

SPECIALS = (
    "\x00\x07\x08\t\n\x0b\x0c\r\x1b\x1f\x7f\x85\x9b"  # C0, DEL, C1 (incl. NEL and the 8-bit CSI)
    "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"  # bidi marks, embeddings, isolates
    "\u2028\u2029\u200d\ufeff\ufffd\u0301"  # separators, ZWJ, BOM, replacement, combining acute
    "\ue000\uf8ff\U000f0000\U0010fffd"  # private use (BMP and planes 15-16)
    "\U0001f680\U0001f468\U0001d11e\U00020000"  # astral: 2 UTF-16 units each
    "\ud800\udfff"  # unpaired surrogates
    "|[]m;0123456789 "
)
texts = st.text(alphabet=st.one_of(st.sampled_from(SPECIALS), st.characters()), max_size=40)
ansi = st.builds(lambda n, t: f"\x1b[{n}m{t}\x1b[0m", st.integers(0, 107), texts)
fields = st.one_of(texts, ansi)


def entry_of(uid: str, title: str, body: str, cells: list[str]) -> LogEntry:
    results = [(cells[0], cells[1], cells[2], cells[3])] if cells else []
    return LogEntry(
        uid=uid,
        created_at=datetime(2026, 11, 23, 21, 5, tzinfo=UTC),
        author="al",
        kind="run",
        title=title,
        body=body,
        results=results,
    )


def paragraph_texts(document: Document) -> list[str]:
    return [p.text().rstrip("\n") for p in document.body if isinstance(p, Paragraph)]


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(fields, fields, st.one_of(st.just([]), st.lists(fields, min_size=4, max_size=4))),
        min_size=1,
        max_size=3,
    )
)
# found by hypothesis on 2026-11-29: a cell reading "SUTRO#" is written broken up as "SUTRO #" (entry.neutral, so no
# text can pass for an entry's marker); the test's expectation had left that step out
@example(entries=[("", "", ["", "", "", "SUTRO#"])])
def test_every_entry_lands_and_reads_back_normalised(entries: list[tuple[str, str, list[str]]]) -> None:
    document = Document("doc")
    for i, (title, body, cells) in enumerate(entries):
        entry = entry_of(f"u{i}", title, body, cells)
        requests = entry_requests(document.to_json(), entry)
        document.apply(requests)  # raises BadRequest (a 400) if any index overran the text
        paragraphs = paragraph_texts(document)
        heading = " ".join(docs_text(entry_heading(entry)).split("\n"))
        assert heading in paragraphs
        for line in docs_text(neutral(plain_body(body))).split("\n"):  # member text is escaped first (user_text.py)
            if line.strip():
                assert line in paragraphs
        if cells:
            table = document.body[-2]
            assert isinstance(table, Table)
            read = [p.text().rstrip("\n") for cell in table.rows[1] for p in cell]
            assert read == [" ".join(docs_text(neutral(one_line(c))).split("\n")) for c in cells]
    assert sorted(document.named_ranges) == sorted(f"sutro#u{i}" for i in range(len(entries)))  # one marker each


@given(texts)
def test_normalised_text_is_a_fixed_point_of_what_docs_strips(text: str) -> None:
    clean = docs_text(text)
    assert docs_text(clean) == clean
    document = Document("doc")
    document.apply([{"insertText": {"location": {"index": 1}, "text": clean + "x"}}])
    assert document.end_index() == 1 + utf16_len(clean + "x") + 1  # nothing was dropped: the indices we count hold


def test_terminal_output_loses_escapes_not_words() -> None:
    assert docs_text("\x1b[1;31mFAIL\x1b[0m ard\r\n\x1b]0;title\x07done\uf8ff\x00") == "FAIL ard\ndone"
    assert docs_text("a\rb") == "a\nb"  # Google would glue "ab"
    assert docs_text("🚀 נ\u200f x") == "🚀 נ\u200f x"  # emoji and bidi marks are kept


def test_stored_text_joins_pairs_and_replaces_lone_surrogates() -> None:
    assert stored_text("\ud83d\ude80 ok \udc80") == "🚀 ok \ufffd"
    stored_text("\udc80").encode("utf-8")  # storable


def test_counting_stripped_characters_overruns_and_is_rejected() -> None:
    """Without the normaliser (the old arithmetic) the strict model answers 400, as Google does."""
    document = Document("doc")
    raw = "\x1b[31mred\x1b[0m \uf8ff"
    end = 1 + utf16_len(raw)
    with pytest.raises(BadRequest, match="past the end"):
        document.apply(
            [
                {"insertText": {"location": {"index": 1}, "text": raw + "\n"}},
                {
                    "updateParagraphStyle": {
                        "range": {"startIndex": end, "endIndex": end + 2},
                        "paragraphStyle": {"namedStyleType": "NORMAL_TEXT"},
                        "fields": "namedStyleType",
                    }
                },
            ]
        )
    assert document.to_json()["body"]["content"][1]["endIndex"] == 2  # rolled back: batchUpdate is atomic
