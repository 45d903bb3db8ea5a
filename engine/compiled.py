"""Loading the engine's optional compiled extensions, and refusing one that is older than its Cython source.

The engine has three Cython extensions (``pyproject.toml`` ``[[tool.setuptools.ext-modules]]``): the ByteDMD depth
pass (``engine/metrics/bytedmd_kernel.pyx``), the element tracer (``engine/tracing/tracked_kernel.pyx``) and the signed
8-bit lane runner (``engine/ir/lanes_kernel.pyx``). Each has a
plain-Python twin that is its oracle, so an install without a C compiler still works, only slower.

Two ways a build can lie, and what this module does about them:

- **A stale module.** An editable install compiles the ``.pyx`` once; editing the ``.pyx`` afterwards leaves the old
  ``.so`` in use, so a change seems to have no effect (or tests pass against code that is no longer in the tree).
  :func:`load_extension` compares the modification times and raises :class:`StaleBuild`, one line saying to
  reinstall. A wheel install ships no ``.pyx`` beside the module, so there is nothing to compare and nothing refused.
- **A missing module.** Without a C compiler the extensions are skipped at install and the engine silently takes the
  plain-Python path. ``tests/test_compiled_extensions.py`` fails in that case, unless the run says it means to test
  the plain-Python engine (:data:`PURE_PYTHON_ENV`), which also makes :func:`load_extension` ignore built modules so
  that such a run really exercises the fallbacks.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

from engine.errors import EngineError

PURE_PYTHON_ENV = "SUTRO_PURE_PYTHON"
"""Set to ``1`` to run the engine on its plain-Python paths even where the compiled extensions are built (the CI's
pure-Python job; the extensions' tests then skip, naming this variable)."""


class StaleBuild(EngineError):
    """A compiled extension older than its ``.pyx`` source: the running code is not the code in the tree."""


def pure_python_requested() -> bool:
    """Whether :data:`PURE_PYTHON_ENV` asks for the plain-Python engine."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


def check_fresh(module_file: Path, source: Path) -> None:
    """Raise :class:`StaleBuild` when ``source`` (a ``.pyx``) was modified after ``module_file`` (its built module).

    A missing source (a wheel install) passes: there is nothing the module could be stale against.
    """
    try:
        source_mtime = source.stat().st_mtime
    except FileNotFoundError:
        return
    if source_mtime > module_file.stat().st_mtime:
        raise StaleBuild(
            f"the compiled module {module_file.name} is older than {source.name}",
            hint="reinstall to rebuild it: pip install -e .",
        )


def load_extension(module_name: str) -> ModuleType | None:
    """Import the compiled extension ``module_name`` (e.g. ``engine.metrics.bytedmd_kernel``).

    Returns ``None`` when it is not built or when :data:`PURE_PYTHON_ENV` is set; raises :class:`StaleBuild` when the
    built module is older than the ``.pyx`` beside it.
    """
    if pure_python_requested():
        return None
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    module_file = Path(module.__file__ or "")
    if module_file.suffix in (".so", ".pyd"):
        stem = module_name.rsplit(".", 1)[-1]
        check_fresh(module_file, module_file.with_name(f"{stem}.pyx"))
    return module
