"""The run policy and challenges reached by name: matmul_32x32 is enabled when a listed matmul size is."""

from __future__ import annotations

import pytest

from tools.config.policy import RunPolicy
from tools.errors import ToolError

LIMITS = {"cpu_s": 1.0, "wall_s": 1.0, "memory_mib": 64, "job_wall_s": 1.0, "queue_per_member": 1}


def test_sizes_by_name_follow_their_listed_family():
    RunPolicy(challenges=("matmul_4x4",), methods=(), **LIMITS).check_challenge("matmul_32x32")
    with pytest.raises(ToolError) as err:
        RunPolicy(challenges=("sparse_parity",), methods=(), **LIMITS).check_challenge("matmul_32x32")
    assert "challenge matmul_32x32 is not enabled here" in err.value.one_line()
