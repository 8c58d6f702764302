"""Child-side wrapper: run one snippet as ``__main__`` and report how it ended.

Started by the runner as ``python bootstrap.py SNIPPET``; it writes a JSON
result (exception, provenance) to ``$PHASE25_RESULT``. The traceback printed on
failure hides this wrapper's and runpy's frames, so it reads as if the snippet
had been run directly.
"""

from __future__ import annotations

import json
import os
import re
import runpy
import sys
import traceback
from pathlib import Path

_SYS_PATH = list(sys.path)  # [this folder, $PYTHONPATH..., stdlib, site-packages]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from phase25 import provenance  # noqa: E402


def _print_clean_traceback(exc: BaseException) -> None:
    here = {os.path.abspath(__file__), os.path.abspath(runpy.__file__)}
    report = traceback.TracebackException.from_exception(exc)
    kept = [
        frame
        for frame in report.stack
        if not frame.filename.startswith("<frozen runpy") and os.path.abspath(frame.filename) not in here
    ]
    report.stack = traceback.StackSummary.from_list(kept)
    sys.stderr.write("".join(report.format()))


CELL = re.compile(r"^# %%[ \t]*(?P<id>[\w-]*)[ \t]*$", re.MULTILINE)


def run_cells(path: str) -> None:
    """Run a lab cell by cell in one namespace, marking where each cell's output starts.

    Each cell is compiled with its real line numbers, so tracebacks point into
    the file; the marker lines let the notebook builder split the output.
    """
    source = Path(path).read_text(encoding="utf-8")
    starts = list(CELL.finditer(source))
    namespace = {"__name__": "__main__", "__file__": path}
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(source)
        line = source.count("\n", 0, match.end())
        code = "\n" * (line + 1) + source[match.end() + 1 : end]
        for stream in (sys.stdout, sys.stderr):
            stream.write(f"##phase25-cell {match.group('id') or index}##\n")
            stream.flush()
        exec(compile(code, path, "exec"), namespace)


def main() -> int:
    snippet = os.path.abspath(sys.argv[1])
    result_path = os.environ["PHASE25_RESULT"]
    device = os.environ.get("PHASE25_DEVICE", "cpu")
    sys.argv = [snippet]
    # As if run with "python SNIPPET": its folder first, then what python would add.
    sys.path[:] = [os.path.dirname(snippet), *_SYS_PATH[1:]]
    error = None
    code = 0
    try:
        if os.environ.get("PHASE25_CELLS") == "1":
            run_cells(snippet)
        else:
            runpy.run_path(snippet, run_name="__main__")
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
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump({"error": error, "provenance": provenance.collect(device)}, handle)
    return code


if __name__ == "__main__":
    sys.exit(main())
