#!/usr/bin/env python3
"""Build and execution figures, side by side in one run (a benchmark, not a test).

1. Warm rebuild: `mkdocs build` with nothing stale, against the same site whose
   outputs were pasted in as plain code blocks (no hook at all). Target <= 1.15x.
2. Cold execution: every CPU snippet with -jN, against the sum of their
   single-run (-j1) wall times divided by N. Target <= 1.2x.
3. Executions per build: none when nothing changed, one per device when one
   snippet changed, one per (snippet, device) when all are stale, never doubled
   by the two languages.

    python scripts/bench.py [--repeat 5] [--jobs 2] [--json build/bench.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phase25 import header, pages, records, runner
from phase25.paths import REPO_ROOT, Layout, copy_project

EXECUTION_LINE = re.compile(r"^\[\d+/\d+\] ", re.MULTILINE)


def build(root: Path, *, execute: bool = True) -> tuple[float, str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PHASE25_EXECUTE": "1" if execute else "0"}
    mkdocs = str(Path(sys.executable).parent / "mkdocs")
    started = time.perf_counter()
    result = subprocess.run([mkdocs, "build", "--strict", "-d", str(root / "site")], cwd=root, env=env,
                            capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"build of {root} failed:\n{result.stderr[-3000:]}")
    return elapsed, result.stderr


def _fence(text: str) -> str:
    ticks = "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    return f"{ticks}text\n{text.rstrip()}\n{ticks}\n"


def make_plain_copy(target: Path) -> Path:
    """The same site with every directive replaced by plain code blocks, and no hook."""
    copy_project(target)
    layout = Layout.of(target)
    snippets = {s.id: s for s in records.discover(layout)}
    for md in (target / "docs").rglob("*.md"):
        text = md.read_text(encoding="utf-8")
        lines = text.split("\n")
        for directive in reversed(pages.directives(text)):
            if directive.kind != "snippet":
                lines[directive.line - 1] = ""
                continue
            snippet = snippets[directive.arg]
            blocks = ["```python\n" + header.split(snippet.source)[1].rstrip() + "\n```\n"]
            for device in snippet.header.devices:
                record = records.load(layout, snippet.id, device)
                if record:
                    blocks.append(_fence(record.stdout + record.stderr))
            lines[directive.line - 1] = "\n".join(blocks)
        md.write_text("\n".join(lines), encoding="utf-8")
    config = (target / "mkdocs.yml").read_text(encoding="utf-8")
    without_hook = re.sub(r"^hooks:\n(  - .*\n)+", "", config, flags=re.MULTILINE)
    (target / "mkdocs.yml").write_text(without_hook, encoding="utf-8")
    return target


def warm_rebuild(work: Path, repeat: int) -> dict:
    real, plain = copy_project(work / "real"), make_plain_copy(work / "plain")
    build(real), build(plain, execute=False)  # warm the OS caches and .pyc files
    times = {"real": [], "plain": []}
    for _ in range(repeat):  # interleaved, so drift in machine load hits both alike
        times["real"].append(build(real)[0])
        times["plain"].append(build(plain, execute=False)[0])
    real_s, plain_s = statistics.median(times["real"]), statistics.median(times["plain"])
    return {"real_s": round(real_s, 3), "plain_s": round(plain_s, 3), "ratio": round(real_s / plain_s, 3)}


def cold_execution(work: Path, jobs: int) -> dict:
    layout = Layout.of(REPO_ROOT)
    serial = Layout(layout.root, layout.snippets, work / "serial")
    parallel = Layout(layout.root, layout.snippets, work / "parallel")
    todo, _ = runner.plan(serial, ["cpu"], force=True)
    one = runner.run(serial, todo, workers=1, estimates_from=layout)
    many = runner.run(parallel, todo, workers=jobs, estimates_from=layout)
    total = sum(r.run["wall_s"] for r in one.executed)
    longest = max(r.run["wall_s"] for r in one.executed)
    ideal = total / jobs
    return {"runs": len(todo), "workers": jobs, "sum_single_s": round(total, 2), "longest_single_s": round(longest, 2),
            "parallel_wall_s": round(many.wall_s, 2), "ratio": round(many.wall_s / ideal, 3),
            "bound_by_longest_run": round(max(longest, ideal) / ideal, 3)}


def execution_counts(work: Path) -> dict:
    project = copy_project(work / "counts")
    layout = Layout.of(project)
    counts = {}
    counts["nothing_changed"] = len(EXECUTION_LINE.findall(build(project)[1]))
    snippet = project / "snippets" / "00-orientation" / "dispatch_keys.py"
    snippet.write_text(snippet.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    counts["one_snippet_edited"] = len(EXECUTION_LINE.findall(build(project)[1]))
    for record in (project / "records").rglob("*.json"):  # keep the folder: mkdocs.yml watches it
        record.unlink()
    cpu_pairs = sum(1 for s in records.discover(layout) if "cpu" in s.header.devices)
    counts["all_stale"] = len(EXECUTION_LINE.findall(build(project)[1]))
    counts["cpu_pairs"] = cpu_pairs
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="phase25-bench-") as tmp:
        work = Path(tmp)
        figures = {
            "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0], "torch": runner.installed_torch()},
            "warm_rebuild": warm_rebuild(work, args.repeat),
            "cold_execution": cold_execution(work, args.jobs),
            "executions_per_build": execution_counts(work),
        }
    w, c, e = figures["warm_rebuild"], figures["cold_execution"], figures["executions_per_build"]
    print(f"warm rebuild      {w['real_s']:.2f} s vs {w['plain_s']:.2f} s with plain code blocks: "
          f"{w['ratio']:.2f}x (target <= 1.15x)")
    print(f"cold execution    {c['runs']} CPU runs on {c['workers']} workers in {c['parallel_wall_s']:.1f} s; "
          f"sum of single runs {c['sum_single_s']:.1f} s / {c['workers']} = {c['sum_single_s'] / c['workers']:.1f} s: "
          f"{c['ratio']:.2f}x (target <= 1.2x; the longest run alone, {c['longest_single_s']:.1f} s, "
          f"bounds it at {c['bound_by_longest_run']:.2f}x)")
    print(f"executions        nothing changed: {e['nothing_changed']}, one snippet edited: {e['one_snippet_edited']}, "
          f"all stale: {e['all_stale']} (CPU pairs: {e['cpu_pairs']}; two languages built each time)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
