"""The trusted main program of every sandboxed child (``python -I -S bootstrap.py``; never a ``preexec_fn``).

Order (docs/sandbox.md#layers): read the JSON config line from stdin → rlimits (BLAS threads are already 1 through
the environment) → import what the mode needs → drop to the sandbox uid when started as root → Landlock →
seccomp → run the submission. Messages to the parent go as JSON lines on the dedicated channel fd: requests
(solve mode, ``{"op": …}``) and one final ``{"type": "result" | "error", …}``. A layer that was asked for and
fails to apply ends the run before any submitted code runs.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

_MEMORY_ERROR = b'{"type":"error","kind":"memory"}\n'
ALLOWED_IMPORTS = ("numpy", "math", "itertools", "functools", "collections")


def _write(fd: int, message: dict[str, Any]) -> None:
    data = (json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n").encode()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _set_rlimits(lim: dict[str, Any], as_root: bool, memory_above: bool = False) -> None:
    """The run's rlimits. memory_above: a child forked from its caller (engine/forked_child.py) already maps the
    caller's address space, so its limit is that size plus ``memory_bytes`` (what the run may add), within the
    inherited hard limit."""
    cpu = max(1, int(lim["cpu_s"] + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    memory = lim["memory_bytes"]
    if memory_above:  # only in a fork, where the engine is loaded already (engine/sandbox/watchdog.py preloads it)
        from engine.sandbox.judge_memory import address_space_bytes

        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        memory = address_space_bytes() + memory
        memory = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (lim["file_bytes"], lim["file_bytes"]))
    resource.setrlimit(resource.RLIMIT_NOFILE, (lim["open_files"], lim["open_files"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if lim.get("processes") is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (lim["processes"], lim["processes"]))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversize write fails with EFBIG instead of killing


def _drop_uid(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError("uid drop did not take effect")


def _apply_layers(cfg: dict[str, Any]) -> None:
    layers = cfg["layers"]
    from engine.sandbox import landlock, seccomp_filter  # imported while the files are still readable

    if layers.get("seccomp"):
        seccomp_filter.preload(cfg.get("libraries") or {})
    if layers.get("uid") is not None and os.getuid() == 0:
        _drop_uid(int(layers["uid"]))
    if layers.get("landlock"):
        if cfg.get("scratch_sealed"):  # the working directory: its ancestors may be closed to the sandbox uid
            landlock.restrict(cfg["read_only"], [], ["."])
        else:
            landlock.restrict(cfg["read_only"], [cfg["scratch"]])
    if layers.get("seccomp"):
        seccomp_filter.install()


def _guarded_import(original: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(
        name: str,
        globals: dict[str, Any] | None = None,
        locals: dict[str, Any] | None = None,
        fromlist: Sequence[str] = (),
        level: int = 0,
    ) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__")  # the importing code, whatever it passes
        if caller == "__submission__" and name.split(".")[0] not in ALLOWED_IMPORTS:
            raise ImportError(
                f"your code imports {name.split('.')[0]}, which is not allowed — use "
                "numpy, math, itertools, functools or collections"
            )
        return original(name, globals, locals, fromlist, level)

    return guarded


def _where(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<submission>"]
    line = f"line {frames[-1].lineno}: " if frames else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{line}{type(exc).__name__}: {text}"[:400] if text else f"{line}{type(exc).__name__}"


def _run_submission(cfg: dict[str, Any], entry: str, ns: dict[str, Any]) -> Any:
    code = compile(cfg["code"], "<submission>", "exec")
    exec(code, ns)
    fn = ns.get(entry)
    if not callable(fn):
        raise NameError(f"your code does not define {entry}()")
    return fn


def main() -> None:
    cfg = json.loads(sys.stdin.buffer.readline())
    sys.path[1:1] = [p for p in cfg.get("sys_path", []) if p not in sys.path]  # started with -S: no site
    fd = int(cfg["channel_fd"])
    mode = cfg["mode"]
    try:
        _set_rlimits(cfg["limits"], os.getuid() == 0, bool(cfg.get("memory_above")))
        if mode == "trusted":
            import importlib

            module_name, _, qualname = cfg["fn"].partition(":")
            fn = getattr(importlib.import_module(module_name), qualname)
            _apply_layers(cfg)
            from engine.sandbox.npy_pipe import read_array

            arrays = [
                read_array(sys.stdin.buffer, cfg["limits"]["memory_bytes"]) for _ in range(cfg.get("n_arrays", 0))
            ]
            value = fn(*cfg["args"], *arrays)
            _write(fd, {"type": "result", "value": value.to_dict() if hasattr(value, "to_dict") else value})
            return
        import collections  # noqa: E401,F401  (before the uid drop)

        if mode == "solve":
            from engine.sandbox.remote import client

            np_mod = client.connect(
                fd,
                sys.stdin,
                cfg["functions"],
                cfg["dtypes"],
                next_id=int(cfg["next_id"]),
                pipeline=bool(cfg["pipeline"]),
            )
            inputs = [client.RemoteArray(i, tuple(s), d) for i, s, d in cfg["inputs"]]
        elif cfg.get("numpy", True):
            import numpy  # noqa: F401
        if mode == "probe":
            from engine.sandbox import probe_child

            _apply_layers(cfg)
            _write(fd, {"type": "result", "value": probe_child.observe(cfg)})
            return
        _apply_layers(cfg)
        ns: dict[str, Any] = {"__name__": "__submission__", "__builtins__": dict(vars(builtins))}
        if cfg.get("check_imports", True):
            ns["__builtins__"]["__import__"] = _guarded_import(builtins.__import__)
        if mode == "solve":
            ns["np"] = np_mod
            fn = _run_submission(cfg, "solve", ns)
            started, cpu = time.perf_counter(), time.process_time()
            answer = fn(inputs[0], inputs[1], int(cfg["n_bits"]), int(cfg["k_sparse"]))
            indices = [int(v) for v in answer]  # may still ask the parent (a handle's elements)
            client.flush()  # pipelined requests reach the parent before the answer
            # self-reported timings of solve() itself, for benchmarks only: never judged
            timing = {"solve_s": time.perf_counter() - started, "solve_cpu_s": time.process_time() - cpu}
            _write(fd, {"type": "result", "answer": indices, **timing})
        else:
            fn = _run_submission(cfg, "generate", ns)
            captured = io.StringIO()
            real_stdout, sys.stdout = sys.stdout, captured
            try:
                text = fn()
            finally:
                sys.stdout = real_stdout
            text = captured.getvalue() if text is None else text
            if not isinstance(text, str):
                raise TypeError(f"generate() must return IR text (a str), not {type(text).__name__}")
            _write(fd, {"type": "result", "text": text})
    except MemoryError:
        os.write(fd, _MEMORY_ERROR)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 — everything becomes one line for the member
        try:
            remote = sys.modules.get("engine.sandbox.remote.client")
            if remote is not None:  # queued requests first: a refusal of one is the verdict, as if waited for
                remote.flush()
            _write(fd, {"type": "error", "kind": "exception", "message": _where(exc)})
        except MemoryError:
            os.write(fd, _MEMORY_ERROR)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    main()
