"""Types of the compiled ByteDMD depth pass (engine/metrics/bytedmd_kernel.pyx)."""

import numpy as np
import numpy.typing as npt

def bytedmd_depths(
    is_store: npt.NDArray[np.uint8],
    key: npt.NDArray[np.int64],
    op: npt.NDArray[np.int64],
    keep: npt.NDArray[np.int64],
    n_keys: int,
) -> npt.NDArray[np.int64]: ...
