"""The Sutro engine: challenges, IR scoring, tracing and energy metrics, sandboxed runs.

Pure and synchronous; depends on numpy and the standard library only (checked by import-linter).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.version import __version__

if TYPE_CHECKING:
    from engine.metrics.bytedmd import bytedmd

__all__ = ["__version__", "bytedmd"]


def __getattr__(name: str) -> Any:
    """``engine.bytedmd`` on first use: importing the package (for ``__version__``) must not load numpy."""
    if name == "bytedmd":
        from engine.metrics.bytedmd import bytedmd

        return bytedmd
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
