"""Turn what a run left behind (its result file, streams and files) into a record.

Everything the snippet printed or wrote is normalized (run folders, addresses,
times) before it is kept; an expected error is asserted, not merely allowed.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import signal
import sysconfig
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core import cells, environment, limits, normalize, records
from ..core.names import problem_with, regular_files
from ..core.paths import Layout
from ..core.records import Record
from ..core.snippets import Snippet, source_sha256
from . import handoff
from .child import ranks
from .handoff import Lost, RunError, RunResult, RunWarning
from .streams import Ended


def collect_files(run_dir: Path, patterns: tuple[str, ...], ctx: normalize.Context) -> tuple[dict[str, str], list[str]]:
    """The run's own files that match ``patterns``: regular files inside the run folder, never a link."""
    found: dict[str, str] = {}
    problems: list[str] = []
    files, links = regular_files(run_dir)
    for pattern in patterns:
        matched = [p for p in files if fnmatch.fnmatchcase(p.relative_to(run_dir).as_posix(), pattern)]
        linked = [p for p in links if fnmatch.fnmatchcase(p.relative_to(run_dir).as_posix(), pattern)]
        problems += [
            f"file {p.relative_to(run_dir).as_posix()} is a symbolic link: a run keeps only files it wrote itself"
            for p in linked
        ]
        if not matched and not linked:
            problems.append(f"declared file {pattern!r} was not written")
        for path in matched:
            name = path.relative_to(run_dir).as_posix()
            if (why := problem_with(name)) is not None:
                problems.append(f"file {name!r} {why}")
            elif path.lstat().st_size > limits.MAX_ARTIFACT_BYTES:
                problems.append(f"file {name} is larger than {limits.MAX_ARTIFACT_BYTES} bytes")
            elif len(found) >= limits.MAX_FILES:
                problems.append(f"more than {limits.MAX_FILES} files match {pattern!r}: a record keeps at most that")
                break
            else:
                try:
                    found[name] = normalize.normalize(path.read_text(encoding="utf-8"), ctx)
                except UnicodeDecodeError:
                    problems.append(f"file {name} is not UTF-8 text")
    return found, problems


def _warning(found: RunWarning, ctx: normalize.Context) -> dict[str, str]:
    """A warning as a record keeps it: normalized like stderr, with the module whose code issued it
    (``torch.nn.functional``; the snippet's own file when the snippet itself warned)."""
    module = found["module"]
    if module in ("", "__main__"):
        module = normalize.normalize(found["filename"], ctx)
    message = normalize.normalize(found["message"], ctx)
    return {
        "category": found["category"][:200],
        "message": message[: limits.MAX_TEXT],
        "module": module[:200],
    }


def status_of(snippet: Snippet, exit_code: int, error: RunError | None) -> tuple[str, str | None]:
    """Status and diagnosis; an expected error is asserted, not merely allowed."""
    expected = snippet.header.expect_error
    if expected is None:
        if exit_code == 0:
            return "ok", None
        if error:
            return "failed", f"raised {error['type']}: {error['message']}"
        if exit_code < 0:
            return "failed", f"killed by signal {signal.Signals(-exit_code).name}"
        return "failed", f"exited with status {exit_code}"
    if error is None:
        return "failed", (
            f"expected {expected.type} matching {expected.match!r}, but the snippet finished without raising"
        )
    if expected.type not in (error["type"], error["qualname"]):
        return "failed", f"expected {expected.type}, got {error['type']}: {error['message']}"
    if expected.match not in error["message"]:
        return "failed", (
            f"{error['type']} raised, but its message does not contain {expected.match!r}: {error['message']}"
        )
    return "ok", None


def _context(run: Path, layout: Layout, result: RunResult) -> normalize.Context:
    """What normalizing this run's output replaces: its folders, the checkout, the site-packages."""
    # The snippet's interpreter may be another one than the runner's (--python): use its own paths.
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    return environment.folders_context(
        run,
        repo_root=str(layout.root),
        tree_root=str(run / "tree"),
        site_packages=tuple(sorted(ours | set(result["site_packages"]))),
    )


@dataclass
class _Verdict:
    status: str
    diagnosis: str | None
    artifacts: dict[str, str] = field(default_factory=dict)
    published: dict[str, str] = field(default_factory=dict)


def _verdict(
    snippet: Snippet,
    run: Path,
    ended: Ended,
    error: RunError | None,
    *,
    limit: float,
    ctx: normalize.Context,
    lost: Lost | None = None,
) -> _Verdict:
    """How the run ended, with the files it declared; a missing or oversized file fails an ok run."""
    every = f"{ended.survivors} of its processes could not be killed" if ended.survivors else "every process of the run"
    if ended.timed_out:
        return _Verdict("timeout", f"killed after {limit:g} s ({every})")
    if ended.limit is not None:
        return _Verdict("failed", f"stopped: {ended.limit} ({every} was killed)")
    if ended.survivors:
        return _Verdict("failed", f"{ended.survivors} processes it started could not be killed")
    code = lost["exit_code"] if lost else ended.status if ended.status is not None else -9
    verdict = _Verdict(*status_of(snippet, code, error))
    if lost and verdict.status == "failed":  # a multi-rank run: which rank ended it, how, and whom it stopped
        stopped = ", ".join(map(str, lost["stopped"]))
        also = f"; the launcher stopped rank(s) {stopped} at once" if stopped else ""
        verdict.diagnosis = f"rank {lost['rank']} {verdict.diagnosis}{also}"
    verdict.artifacts, problems = collect_files(run / "work", snippet.header.artifacts, ctx)
    verdict.published, more = collect_files(run / "work", snippet.header.publish, ctx)
    problems += more
    if sum(len(text) for text in verdict.published.values()) > limits.MAX_PUBLISHED_BYTES:
        problems.append(f"published files exceed {limits.MAX_PUBLISHED_BYTES} bytes")
    if problems and verdict.status == "ok":
        verdict.status, verdict.diagnosis = "failed", "; ".join(problems)
    return verdict


def _streams(
    snippet: Snippet, ended: Ended, result: RunResult, ctx: normalize.Context, tag: str
) -> tuple[str, str, list[dict[str, Any]]]:
    """The launcher's own stdout and stderr, and each rank's lines apart (see run/child/ranks.py), the run's tagged
    structure made plain; :class:`cells.Forged` when the run printed a line in its shape."""
    out, err = ended.stdout, ended.stderr
    if snippet.header.cells:
        out, err = cells.seal(out, tag), cells.seal(err, tag)
    stdout, outs = ranks.split(out, snippet.header.ranks, tag) if snippet.header.ranks > 1 else (out, [])
    stderr, errs = ranks.split(err, snippet.header.ranks, tag) if snippet.header.ranks > 1 else (err, [])
    for name, pieces, cut in (("stdout", [stdout, *outs], ended.cuts[0]), ("stderr", [stderr, *errs], ended.cuts[1])):
        if sum(len(records.OMITTED.findall(piece)) for piece in pieces) != cut:  # the cap writes one, if it cut
            raise cells.Forged(f'{name} holds a line in the shape of the "lines omitted" note, the runner\'s alone')
    if snippet.header.ranks <= 1:
        return stdout, stderr, []
    counted = [r["collectives"] for r in result.get("ranks", [])] or [{}] * snippet.header.ranks
    per_rank = [
        {"stdout": normalize.normalize(o, ctx), "stderr": normalize.normalize(e, ctx), "collectives": c}
        for o, e, c in zip(outs, errs, counted, strict=False)
    ]
    return stdout, stderr, per_rank


def _sealed(
    snippet: Snippet, ended: Ended, result: RunResult, ctx: normalize.Context, *, tag: str, verdict: _Verdict
) -> tuple[str, str, list[dict[str, Any]], _Verdict]:
    """The run's streams (see :func:`_streams`), or none of them and a failed verdict when the run printed a
    line in the shape of its structure: nothing of a forged structure is kept, and the record says where."""
    try:
        return (*_streams(snippet, ended, result, ctx, tag), verdict)
    except cells.Forged as forged:
        return "", "", [], _Verdict("failed", f"its output was refused: {forged}")


def _result(run: Path, ended: Ended) -> tuple[RunResult, str | None]:
    """What the snippet's process said of its run, and why its file was refused (None: it was not); a process
    killed before it wrote one said nothing."""
    nothing = handoff.no_result(ended.status if ended.status is not None else -9)
    try:
        return handoff.result(run / "result.json"), None
    except OSError:
        return nothing, None
    except handoff.Refused as refused:
        return nothing, str(refused)


def make(
    snippet: Snippet,
    device: str,
    layout: Layout,
    run: Path,
    ended: Ended,
    *,
    commit: str | None,
    mode: str,
    limit: float,
    tag: str,
) -> Record:
    """The record of a run that ended (or was killed at its deadline)."""
    result, refused = _result(run, ended)
    ctx = _context(run, layout, result)
    error = result["error"]
    if error:  # the message may name run folders and paths like any output
        error = {**error, "message": normalize.normalize(error["message"], ctx)}
    verdict = _verdict(snippet, run, ended, error, limit=limit, ctx=ctx, lost=result.get("lost"))
    if refused is not None and verdict.status == "ok":
        verdict = _Verdict("failed", f"its result file was refused: {refused}")
    stdout, stderr, per_rank, verdict = _sealed(snippet, ended, result, ctx, tag=tag, verdict=verdict)
    keep_error = error and snippet.header.expect_error and verdict.status == "ok"
    made = Record(
        snippet=snippet.id,
        device=device,
        source_sha256=source_sha256(snippet, layout),
        env_key=environment.env_key(snippet, device),
        status=verdict.status,
        exit_code=None if ended.timed_out else ended.status,
        stdout=normalize.normalize(stdout, ctx),
        stderr=normalize.normalize(stderr, ctx),
        ranks=per_rank,
        warnings=[_warning(w, ctx) for w in result["warnings"]][: limits.MAX_WARNINGS],
        artifacts=verdict.artifacts,
        error=verdict.diagnosis,
        expected_error={"type": error["type"], "message": error["message"]} if error and keep_error else None,
        provenance=result["provenance"],
        published=verdict.published,
        run={
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "wall_s": round(ended.wall, 2),
            "git_commit": commit,
            "mode": mode,
        },
    )
    return refused_as_failed(made)


def refused_as_failed(record: Record) -> Record:
    """The record as it will be saved: one that the reader would refuse becomes a failed run that says why.

    The check is the reader's own (:func:`records.problem`), so a run never reports ``ok`` for a record the
    next ``report`` calls corrupt. What made it unreadable (files, streams) is dropped; the reason is kept."""
    why = records.problem(record)
    if why is None:
        return record
    return dataclasses.replace(
        record,
        status="failed",
        artifacts={},
        published={},
        ranks=[],
        stdout="",
        stderr="",
        warnings=[],
        expected_error=None,
        error=f"the record would not load: {why}"[: limits.MAX_TEXT],
    )
