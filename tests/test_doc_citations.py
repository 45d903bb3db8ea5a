"""Every ``docs/<page>.md#<anchor>`` cited anywhere in the repository exists, and nothing cites the design briefs that
live outside it (a cloner does not have them).

Oracle: the docs pages themselves. An anchor is the GitHub slug of a heading (lower case, punctuation other than
``-`` and ``_`` dropped, spaces to ``-``, ``-1``/``-2``… for repeats), which is what the link resolves to on GitHub.
Inside docs/, relative Markdown links (``[x](metrics.md#bytedmd)``) are checked the same way.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_BRIEFS = ("engine", "sandbox", "integrations", "product", "architecture")  # the out-of-repo design briefs
# A brief named without the docs/ folder (e.g. "sandbox" + ".md" on its own), or the briefs' folder itself.
OUT_OF_REPO = re.compile(
    r"(?<![\w/.-])(?:" + "|".join(_BRIEFS) + r")\.md\b|shared/" + r"design|(?<![\w/])design/" + r"\w+\.md"
)
CITATION = re.compile(r"(?<![\w/.:-])docs/([\w./-]+\.md)(?:#([\w-]+))?")
RELATIVE_LINK = re.compile(r"\]\(([\w./-]+\.md)(?:#([\w-]+))?\)")
_TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yaml", ".yml", ".service", ".mako", ".sh", ""}


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading's text."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # keeps letters, digits, _, - and spaces
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return frozenset(found)


def source_files() -> list[Path]:
    """Files git tracks or would track (untracked, not ignored), text-like, outside tests/data."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    chosen = []
    for name in out.splitlines():
        path = ROOT / name
        if name.startswith("tests/data/") or not path.is_file():
            continue
        if path.suffix in _TEXT_SUFFIXES or path.name.startswith("Dockerfile"):
            chosen.append(path)
    return chosen


def _problems(path: Path, rel: Path) -> list[str]:
    """What is wrong with the citations in ``path`` (shown as ``rel``, its place in the repository)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return []
    inside_docs = rel.parts[0] == "docs"
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{rel}:{number}"
        if not inside_docs and OUT_OF_REPO.search(line):
            problems.append(f"{where}: cites a design brief outside the repository: {line.strip()[:100]}")
        targets = [(DOCS / page, anchor) for page, anchor in CITATION.findall(line)]
        if inside_docs:
            targets += [((path.parent / page).resolve(), anchor) for page, anchor in RELATIVE_LINK.findall(line)]
        for page, anchor in targets:
            if not page.is_file():
                problems.append(f"{where}: {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page} missing")
            elif anchor and anchor not in anchors(page):
                problems.append(f"{where}: no heading with anchor #{anchor} in {page.relative_to(ROOT)}")
    return problems


def test_slug_matches_githubs_rules() -> None:
    assert slug("Reuse distance and DMC") == "reuse-distance-and-dmc"
    assert slug("solve() submissions") == "solve-submissions"
    assert slug("L4 seccomp") == "l4-seccomp"
    assert slug("Sparse parity, IR track") == "sparse-parity-ir-track"
    assert slug("`ard_per_read@1`") == "ard_per_read1"


def test_the_checker_catches_what_it_should(tmp_path: Path) -> None:
    # the checker must be able to fail: a bad anchor, a missing page and a brief citation are each reported
    # (the cited names are built from pieces so that this file itself stays clean)
    d = "docs/"
    probe = tmp_path / "probe.py"
    probe.write_text(
        f'"""See {d}metrics.md#no-such-heading, {d}nowhere.md and {"engine" + ".md"} §1.1; {d}metrics.md#bytedmd is'
        ' fine."""\n',
        encoding="utf-8",
    )
    found = _problems(probe, Path("tests/probe.py"))
    assert len(found) == 3, found
    assert any("#no-such-heading" in p for p in found)
    assert any(d + "nowhere.md missing" in p for p in found)
    assert any("design brief" in p for p in found)


def test_docs_pages_exist() -> None:
    for page in ("docs/README.md", "docs/metrics.md", "docs/challenges.md", "docs/sandbox.md", "docs/integrations.md"):
        assert (ROOT / page).is_file(), page


def test_every_cited_doc_and_anchor_exists_and_no_brief_is_cited() -> None:
    files = source_files()
    assert len(files) > 100  # the scan really covers the tree
    problems = [p for path in files for p in _problems(path, path.relative_to(ROOT))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", ["docs/metrics.md", "docs/challenges.md", "docs/sandbox.md", "docs/integrations.md"])
def test_code_cites_each_page(page: str) -> None:
    cited = {m for path in source_files() if path.parts[len(ROOT.parts)] != "docs" for m in _cited_pages(path)}
    assert page.removeprefix("docs/") in cited


def _cited_pages(path: Path) -> set[str]:
    try:
        return {page for page, _ in CITATION.findall(path.read_text(encoding="utf-8"))}
    except UnicodeDecodeError:
        return set()
