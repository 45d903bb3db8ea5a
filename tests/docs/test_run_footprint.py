"""The file count docs/architecture.md states for ``sutro run local_update n=20`` is the one the run has today:
bench/run_footprint.py runs the command and counts, the test reads the figures back from the doc."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/architecture.md"
FIGURES = re.compile(
    r"`sutro run local_update n=20` loads \*\*(?P<total>\d+)\*\* of the project's files.*?"
    r"\*\*(?P<cli>\d+)\*\* in the CLI process and \*\*(?P<child>\d+)\*\* in each of its \*\*(?P<children>\d+)\*\* "
    r"seed\s+children",
    re.DOTALL,
)


def _bench() -> object:
    spec = importlib.util.spec_from_file_location("run_footprint", ROOT / "bench" / "run_footprint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["run_footprint"] = module
    spec.loader.exec_module(module)
    return module


def stated() -> dict[str, int]:
    found = FIGURES.search(DOC.read_text(encoding="utf-8"))
    assert found, "docs/architecture.md no longer states the run's file count in the checked form"
    return {k: int(v) for k, v in found.groupdict().items()}


def test_the_doc_states_the_figures_in_the_checked_form() -> None:
    figures = stated()
    assert figures["cli"] <= figures["total"] and figures["child"] <= figures["total"]


@pytest.mark.slow  # runs the command (about 10 s of CPU with its seed children)
def test_the_stated_file_count_is_the_measured_one() -> None:
    figures = stated()
    footprint = _bench().measure(workers=figures["children"])  # type: ignore[attr-defined]
    measured = {
        "total": footprint.total,
        "cli": len(footprint.cli),
        "child": footprint.per_child,
        "children": len(footprint.children),
    }
    assert measured == figures, (
        f"docs/architecture.md states {figures}, the run loads {measured}: "
        "update the doc's figures (python bench/run_footprint.py -v lists the files)"
    )
