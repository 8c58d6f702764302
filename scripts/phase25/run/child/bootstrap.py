"""The snippet's side of a run: execute it as ``__main__`` and write how it ended.

A fresh run starts it as ``python -m phase25.run.child.bootstrap``; a warm run calls
:func:`run_forked` in a process forked from a warm interpreter. Both read the
same ``PHASE25_RUN`` description from the environment, so both modes see the
same environment, the same ``sys.path`` and the same ``sys.argv`` as
``python snippets/<page>/<name>.py`` would, with only the snippet's declared
dependencies importable (its private copy of ``scripts/``). The traceback of a
failing snippet hides this module's and runpy's frames, so it reads as if the
snippet had been run directly.
"""

from __future__ import annotations

import logging
import os
import runpy
import sys
import sysconfig
import traceback
import warnings
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from ...core import cells
from ...core.environment import TORCH_LOGGING
from .. import handoff
from ..handoff import RunDescription, RunError, RunWarning
from . import provenance, ranks
from .messages import Spec

_OWN_SCRIPTS = str(Path(__file__).resolve().parents[2])


def _isolate(run: RunDescription) -> None:
    """As if started with ``python SNIPPET`` and ``PYTHONPATH=<its copy of scripts/>``."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p and p != _OWN_SCRIPTS)
    base = [p for p in sys.path[1:] if p and os.path.realpath(p) != _OWN_SCRIPTS and p != run["scripts"]]
    sys.path[:] = [os.path.dirname(run["snippet"]), run["scripts"], *base]
    sys.argv = [run["snippet"]]


def _print_clean_traceback(exc: BaseException) -> None:
    hidden = {os.path.abspath(__file__), os.path.abspath(runpy.__file__)}
    report = traceback.TracebackException.from_exception(exc)
    kept = [
        f
        for f in report.stack
        if not f.filename.startswith("<frozen runpy") and os.path.abspath(f.filename) not in hidden
    ]
    report.stack = traceback.StackSummary.from_list(kept)
    sys.stderr.write("".join(report.format()))


def _run_cells(path: str, tag: str) -> None:
    """Run a lab cell by cell in one namespace, marking where each cell's output starts.

    Each cell is compiled with its real line numbers, so tracebacks point into the file.
    """
    source = Path(path).read_text(encoding="utf-8")
    namespace = {"__name__": "__main__", "__file__": path}
    for cell_id, start, end in cells.spans(source):
        for stream in (sys.stdout, sys.stderr):
            stream.write(cells.marker(cell_id, tag))
            stream.flush()
        code = "\n" * source.count("\n", 0, start) + source[start:end]
        exec(compile(code, path, "exec"), namespace)


# Modules whose ``deprecated`` decorator issues the warning for the object it wraps (PEP 702).
_DEPRECATION_DECORATORS = ("typing_extensions", "warnings")


def _raiser() -> str:
    """The module whose code issued the warning now being shown (a stacklevel points elsewhere, at a caller).

    A warning that a ``deprecated`` decorator issues comes from the decorator's wrapper: the module it names is
    the one that defines the wrapped object, so a deprecated torch API reads as torch's, not typing_extensions'.
    """
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__")
        wrapped = frame.f_locals.get("arg") if name in _DEPRECATION_DECORATORS else None
        if isinstance(getattr(wrapped, "__module__", None), str):
            return str(wrapped.__module__)
        if name not in ("warnings", __name__):
            break
        frame = frame.f_back
    name = str(frame.f_globals.get("__name__", "")) if frame is not None else ""
    # The snippet's own code runs as __main__ under runpy: then its file names the warning's source.
    return "__main__" if name in ("__main__", "runpy") or name.startswith("phase25") else name


def _harvest_warnings() -> list[RunWarning]:
    """Keep every warning the run shows (deprecations among them), and show it as before: stderr unchanged."""
    harvested: list[RunWarning] = []
    original = warnings.showwarning

    def show(  # noqa: PLR0917 - the signature warnings.showwarning is called with
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        harvested.append(
            {"category": category.__name__, "message": str(message), "filename": filename, "module": _raiser()}
        )
        original(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    return harvested


HOST_TOOLKIT_LOGGER = "torch.utils.cpp_extension"
HOST_TOOLKIT_MESSAGE = "No CUDA runtime is found"


class _HostToolkit(logging.Filter):
    """Drops torch's note that it found a CUDA toolkit but no GPU (see :func:`hide_host_toolkit`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(HOST_TOOLKIT_MESSAGE)


def hide_host_toolkit() -> None:
    """Keep the host's CUDA toolkit out of the output.

    torch's CUDA build, with no GPU, logs the first time it compiles "No CUDA runtime is found, using
    CUDA_HOME='<path>'" when the machine has nvcc on its PATH or a /usr/local/cuda: a fact about the machine
    (one has a toolkit, CI has none), not about the snippet, and a record must read the same on both. Only
    that message of that logger is dropped; every other line torch logs reaches the output.
    """
    logger = logging.getLogger(HOST_TOOLKIT_LOGGER)
    if not any(isinstance(f, _HostToolkit) for f in logger.filters):
        logger.addFilter(_HostToolkit())


def execute(run: RunDescription) -> int:
    """Run the snippet (every rank of it, for ``ranks = N``); write the result file; return the exit status."""
    os.environ.pop(handoff.DESCRIPTION, None)  # its tag marks the run's structure: the snippet's code must not read it
    hide_host_toolkit()
    if run.get("ranks", 1) > 1:
        return ranks.launch(run, execute)
    _isolate(run)
    if "rank" in run:
        ranks.count_collectives()
    harvested = _harvest_warnings()
    error: RunError | None = None
    code = 0
    try:
        if run["cells"]:
            _run_cells(run["snippet"], run["tag"])
        else:
            runpy.run_path(run["snippet"], run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 - reported, then turned into an exit status
        sys.stdout.flush()
        _print_clean_traceback(exc)
        error = {
            "type": type(exc).__name__,
            "qualname": f"{type(exc).__module__}.{type(exc).__qualname__}",
            "message": str(exc),
        }
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    handoff.write_result(
        run["result"],
        {
            "error": error,
            "exit_code": code,
            "provenance": provenance.collect(run["device"]),
            "site_packages": sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}),
            "collectives": dict(sorted(ranks.COUNTS.items())),
            "warnings": harvested,
        },
    )
    return code


def relog() -> None:
    """Read torch's logging variables again, in the two steps ``import torch`` takes."""
    from torch._logging import _internal

    _internal.DEFAULT_FORMATTER = _internal._default_formatter()
    _internal._init_logs()


def can_relog() -> bool:
    """Whether this torch has the two steps :func:`relog` repeats (they are internal API)."""
    from torch._logging import _internal

    return callable(getattr(_internal, "_default_formatter", None)) and callable(getattr(_internal, "_init_logs", None))


def _own_headers() -> None:
    """Inductor fixes its precompiled-header folder at import, under the warm interpreter's TMPDIR, which every
    run forked from it shares: point it into this run's TMPDIR, so no run builds a header that a later one reads."""
    codecache = sys.modules.get("torch._inductor.codecache")
    if codecache is None or not hasattr(codecache, "_HEADER_DIR"):
        return
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    folder = os.path.join(default_cache_dir(), "precompiled_headers")
    setattr(codecache, "_HEADER_DIR", folder)  # noqa: B010 (torch's private names: no attribute mypy knows)
    setattr(codecache, "_HEADER_LOCK_DIR", os.path.join(folder, "locks"))  # noqa: B010


def run_forked(spec: Spec) -> NoReturn:
    """In a process forked from a warm interpreter: take the run's environment, then run."""
    import random
    import tempfile

    os.environ.clear()
    os.environ.update(spec["env"])
    tempfile.tempdir = None  # read TMPDIR again
    _own_headers()
    random.seed()  # a fresh interpreter seeds from the OS; so does each forked run
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()
    if any(name in spec["env"] for name in TORCH_LOGGING):
        relog()
    os._exit(described(spec["env"].get(handoff.DESCRIPTION)))


def described(text: str | None) -> int:
    """Execute the run that ``text`` describes. A description without its shape ends the run at once, in one line
    that names the key: no traceback, and nothing of the snippet started (no rank forked before a key is missed)."""
    try:
        if text is None:
            raise handoff.Refused(f"{handoff.DESCRIPTION} is not set: the runner describes every run it starts")
        run = handoff.description(text)
    except handoff.Refused as refused:
        sys.stderr.write(f"phase25: {refused}\n")
        return 2
    return execute(run)


def main() -> int:
    return described(os.environ.get(handoff.DESCRIPTION))


if __name__ == "__main__":
    sys.exit(main())
