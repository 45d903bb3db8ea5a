"""The built-in baseline programs' metrics are kept on disk per engine code, so that a new process (each job is one)
reads them back instead of pricing the program again.

Oracles: the group's published 16×16 matmul baseline (340,704, sutro-problems' matmul README), a scorer replaced by
one that counts its calls (none may happen on a read-back), and the engine-code digest replaced by another (which
must not be served the old entry).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core import baselines
from bot.core.baselines import PROGRAM_BASELINES_FILE, builtin_baseline_metrics, keep_program_baselines_in

PUBLISHED_16X16 = 340_704


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh kept-file directory and a cold per-process cache, restored afterwards."""
    monkeypatch.setattr(baselines, "_kept_in", [])
    builtin_baseline_metrics.cache_clear()
    keep_program_baselines_in(tmp_path / "cache")
    yield tmp_path / "cache" / PROGRAM_BASELINES_FILE
    builtin_baseline_metrics.cache_clear()


def _counting_scorer(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = baselines.score_ir

    def counted(challenge: str, text: str, **kwargs: object) -> object:
        calls.append(challenge)
        return real(challenge, text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(baselines, "score_ir", counted)
    return calls


def test_a_new_process_reads_the_kept_figure_instead_of_pricing_the_program(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting_scorer(monkeypatch)
    assert builtin_baseline_metrics("matmul_16x16") == {"dally@1": PUBLISHED_16X16}
    assert calls == ["matmul_16x16"] and kept.exists()
    builtin_baseline_metrics.cache_clear()  # what a new process starts with
    assert builtin_baseline_metrics("matmul_16x16") == {"dally@1": PUBLISHED_16X16}
    assert calls == ["matmul_16x16"]  # read back, not priced again


def test_other_engine_code_prices_the_program_again_and_replaces_the_entry(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting_scorer(monkeypatch)
    builtin_baseline_metrics("matmul_16x16")
    builtin_baseline_metrics.cache_clear()
    monkeypatch.setattr(baselines, "code_digest", lambda: "another-engine")
    assert builtin_baseline_metrics("matmul_16x16") == {"dally@1": PUBLISHED_16X16}
    assert calls == ["matmul_16x16", "matmul_16x16"]
    assert list(json.loads(kept.read_text())) == ["matmul_16x16 baseline another-engine"]


def test_an_unreadable_kept_file_is_priced_again_and_written_anew(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept.parent.mkdir()
    kept.write_text("{half a file")
    calls = _counting_scorer(monkeypatch)
    assert builtin_baseline_metrics("matmul_16x16") == {"dally@1": PUBLISHED_16X16}
    assert calls == ["matmul_16x16"]
    assert list(json.loads(kept.read_text()).values()) == [{"dally@1": PUBLISHED_16X16}]


def test_a_directory_that_cannot_be_written_keeps_nothing_and_still_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(baselines, "_kept_in", [])
    builtin_baseline_metrics.cache_clear()
    keep_program_baselines_in(tmp_path / "no such data directory" / "cache")  # its parent does not exist
    try:
        assert builtin_baseline_metrics("matmul_16x16") == {"dally@1": PUBLISHED_16X16}
        assert not (tmp_path / "no such data directory").exists()
    finally:
        builtin_baseline_metrics.cache_clear()


@pytest.mark.parametrize("configured", [True, False])
def test_the_cache_dir_setting_says_where_the_figures_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, configured: bool
) -> None:
    from bot.context import AppContext
    from bot.settings import Settings

    monkeypatch.setattr(baselines, "_kept_in", [])
    builtin_baseline_metrics.cache_clear()
    shared = tmp_path / "shared"
    shared.mkdir()
    data = tmp_path / "data"
    settings = Settings(_env_file=None, data_dir=data, cache_dir=shared if configured else None)  # type: ignore[call-arg]
    AppContext(settings=settings).sessions()
    try:
        assert builtin_baseline_metrics("matmul_16x16") == {"dally@1": PUBLISHED_16X16}
    finally:
        builtin_baseline_metrics.cache_clear()
    expected = (shared if configured else data / "cache") / PROGRAM_BASELINES_FILE
    assert json.loads(expected.read_text())  # the entry is there
    assert not (data / "cache" if configured else shared / PROGRAM_BASELINES_FILE).exists()
