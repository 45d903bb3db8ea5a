"""The Sutro engine: challenges, IR scoring, tracing and energy metrics, sandboxed runs.

Pure and synchronous; depends on numpy and the standard library only (checked by import-linter).
"""

from engine.metrics.bytedmd import bytedmd
from engine.version import __version__

__all__ = ["__version__", "bytedmd"]
