"""Where the published reference programs are: ../shared/reference beside the checkout, else the copies in
tests/data (same files, see tests/data/ir/PROVENANCE.md). IR_TESTS_USE_COPIES=1 forces the copies."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent
COPIES = _HERE / "data"
SHARED = _HERE.parents[1] / "shared" / "reference"
if not SHARED.exists():
    SHARED = Path("/work/shared/reference")

REFERENCE = SHARED if (SHARED / "expected.tsv").exists() and not os.environ.get("IR_TESTS_USE_COPIES") else COPIES
"""Folder holding ``expected.tsv`` and ``ir/*.ir``."""
