"""Reproduce an output on a reader's machine: run the snippet as the site did, compare with its record.

This is the program inside the reproduction kit a page offers for download (``python reproduce.py ID``).
It needs Python and torch only, outside this repository: the kit holds the snippets of one page, the
files they import, their CPU records and the modules of ``core`` it imports (standard library only). The
snippet runs in a scratch folder with the site's pins (the same environment the record was made in),
its output is normalized by the same rules, and the result says what matched, what differed (as a
diff), and where both outputs were made, side by side.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from ..core import bounded, compare, environment, normalize, records
from ..core.machine import cpu
from ..core.paths import Layout
from ..core.snippets import Snippet, discover

COMPARED = ("stdout", "stderr", "artifacts", "ranks")
_TORCH_FACTS = (
    "import json, torch; print(json.dumps({'torch': torch.__version__.split('+')[0], "
    "'threads': torch.get_num_threads(), 'cpu_capability': torch.backends.cpu.get_cpu_capability()}))"
)


def _env(snippet: Snippet, kit: Path, scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PHASE25_"))}
    env.update(environment.run_env(snippet, "cpu"))
    env["PYTHONPATH"] = str(kit / "scripts")
    return environment.confined(env, scratch)


def _run(snippet: Snippet, kit: Path, scratch: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the snippet (each rank of it) once; its output as a record holds it, and this machine's facts."""
    work = scratch / "work"
    for name in environment.SCRATCH_FOLDERS:
        (scratch / name).mkdir(parents=True)
    env = _env(snippet, kit, scratch)
    ranks = snippet.header.ranks
    command = [sys.executable, str(snippet.path)]
    env_of = [{**env, **one} for one in environment.rank_env(ranks, environment.free_port())] if ranks > 1 else [env]
    runs = []
    try:
        for e in env_of:
            runs.append(
                bounded.start(command, cwd=work, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            )
    except BaseException:
        for started in runs:
            bounded.kill_group(started)
        raise
    ended = bounded.wait_all(runs, snippet.header.timeout, snippet.id)
    purelib = sysconfig.get_paths()["purelib"]
    ctx = environment.folders_context(
        scratch, repo_root=str(kit), site_packages=(purelib, sysconfig.get_paths()["platlib"])
    )
    texts = [(normalize.normalize(out, ctx), normalize.normalize(err, ctx)) for out, err in ended]
    output: dict[str, Any] = {"artifacts": _artifacts(snippet, work, ctx)}
    if ranks > 1:
        output.update(stdout="", stderr="", ranks=[{"stdout": o, "stderr": e} for o, e in texts])
    else:
        output.update(stdout=texts[0][0], stderr=texts[0][1])
    machine: dict[str, Any] = {"python": platform.python_version(), **cpu()}
    try:
        facts = bounded.run([sys.executable, "-c", _TORCH_FACTS], env=env, capture_output=True, text=True, timeout=120)
    except bounded.Overtime:
        return output, machine  # this machine's torch facts are a courtesy: the comparison stands without them
    if facts.returncode == 0:
        machine.update(__import__("json").loads(facts.stdout))
    return output, machine


def _artifacts(snippet: Snippet, work: Path, ctx: normalize.Context) -> dict[str, str]:
    found = {}
    for name in snippet.header.artifacts:
        path = work / name
        if path.is_file() and not path.is_symlink():
            found[name] = normalize.normalize(path.read_text(encoding="utf-8"), ctx)
    return found


def _comparable(output: dict[str, Any], record: records.Record) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parts both sides have, ranks without their counts of collective calls (a record's own count)."""
    theirs = {k: v for k, v in record.output().items() if k in COMPARED}
    if "ranks" in theirs:
        theirs["ranks"] = [{"stdout": r["stdout"], "stderr": r["stderr"]} for r in theirs["ranks"]]
    return {k: v for k, v in output.items() if k in COMPARED}, theirs


def side_by_side(theirs: dict[str, Any], ours: dict[str, Any]) -> str:
    """The two machines' facts, one per line: the record's first, this machine's second."""
    keys = ("torch", "device_name", "cpu_model", "cpu_flags", "cpu_capability", "threads", "python")
    rows = []
    for key in keys:
        left, right = (
            " ".join(v) if isinstance(v, list) else str(v) for v in (theirs.get(key, "—"), ours.get(key, "—"))
        )
        mark = "" if left == right else "  (differs)"
        rows.append(f"  {key:<15} the record:   {left}\n  {'':<15} this machine: {right}{mark}")
    return "\n".join(rows)


def reproduce(kit: Path, snippet_id: str) -> int:
    """Run one snippet and compare its output with its record; 0 when everything the record shows matched."""
    layout = Layout.of(kit)
    found = {s.id: s for s in discover(layout)}
    if snippet_id not in found:
        print(f"no snippet {snippet_id!r} in this kit (it has: {', '.join(sorted(found))})", file=sys.stderr)
        return 2
    snippet, record = found[snippet_id], records.load(layout, snippet_id, "cpu")
    if record is None:
        print(f"this kit has no record of {snippet_id}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="reproduce-") as scratch:
        try:
            output, machine = _run(snippet, kit, Path(scratch))
        except bounded.Overtime as exc:
            print(f"{snippet_id}: {exc.message} (the snippet's timeout)", file=sys.stderr)
            return 3
    ours, theirs = _comparable(output, record)
    volatile = snippet.header.volatile
    masked_theirs, masked_ours = compare.comparable(theirs, volatile), compare.comparable(ours, volatile)
    diff = compare.diff_outputs(masked_theirs, masked_ours, "the record", "this machine")
    print(f"{snippet_id}: {'every line the record shows matched' if not diff else 'the outputs differ'}")
    for part in COMPARED:
        if part in masked_theirs:
            print(f"  {part:<10} {'matched' if masked_theirs[part] == masked_ours.get(part) else 'differs'}")
    if volatile:
        print(f"  (lines matching {list(volatile)} depend on the machine by nature and are not compared)")
    if diff:
        print(diff)
    print("\nwhere each output was made:\n" + side_by_side(record.provenance, machine))
    return 1 if diff else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python reproduce.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("snippet", help="the snippet's id, as the page names it (e.g. theory-01/dispatch_table)")
    args = parser.parse_args(argv)
    return reproduce(Path(__file__).resolve().parents[3], args.snippet)


if __name__ == "__main__":
    raise SystemExit(main())
