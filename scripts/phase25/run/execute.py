"""Run one (snippet, device) and turn what happened into a record.

The run gets a folder of its own: a working folder, a private copy of the
snippet and of the files it declares in ``deps`` (writing through ``__file__``
changes the copy, never the checkout; an undeclared file is simply absent), a
temporary folder and Inductor and Triton caches. The timeout bounds the whole
run, reading included: at the deadline the supervisor kills every process of
the run, and the runner stops reading shortly after whatever still holds a pipe.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import threading
from pathlib import Path

from ..core import environment
from ..core.paths import Layout
from ..core.records import Record
from ..core.snippets import Snippet, dependency_files
from . import guard, handoff, make_record, streams
from .child import pidns
from .child.messages import Limits, Spec
from .handoff import RunDescription
from .session import SCRIPTS, Session

COMPILES = ("torch.compile", "torch._dynamo", "torch._inductor", "torch.export")


def git_commit(root: Path) -> str | None:
    """Short commit of the tree the snippet came from, or None outside git."""
    lines = guard.git_lines(root, "rev-parse", "--short=12", "HEAD", timeout=10)
    return (lines[0].strip() or None) if lines else None


def copy_tree(snippet: Snippet, layout: Layout, tree: Path) -> None:
    """The snippet and its declared dependencies, at their paths relative to the repository."""
    for source in (snippet.path, *dependency_files(snippet, layout)):
        target = tree / source.relative_to(layout.root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def _spec(snippet: Snippet, device: str, run: Path, tag: str) -> tuple[Spec, dict[str, str]]:
    """What the supervisor needs to start the snippet, and the environment of its warm interpreter."""
    base = environment.inherited(os.environ, device)  # only what SECURITY.md lets a run take from the shell
    shared = {**base, **environment.run_env(snippet, device)}
    warm_env = environment.warm_env(snippet, device, base)
    scripts = str(run / "tree" / "scripts")
    description: RunDescription = {
        "snippet": str(run / "tree" / "snippets" / f"{snippet.id}.py"),
        "result": str(run / "result.json"),
        "device": device,
        "cells": snippet.header.cells,
        "scripts": scripts,
        "tag": tag,  # marks cells and ranks on the run's streams (cells.seal, ranks.split)
    }
    if snippet.header.ranks > 1:  # each rank gets torchrun's variables from the launcher (environment.rank_env)
        description["ranks"], description["port"] = snippet.header.ranks, environment.free_port()
    env = environment.confined(
        {**shared, handoff.DESCRIPTION: json.dumps(description), "PYTHONPATH": os.pathsep.join((scripts, SCRIPTS))}, run
    )
    limits: Limits = {"processes": snippet.header.max_processes, "memory_mb": snippet.header.max_memory_mb}
    spec: Spec = {
        "env": env,
        "cwd": str(run / "work"),
        "run_dir": str(run),
        "label": f"{snippet.id} ({device})",
        "limits": limits,
        "contain": pidns.contained(),
    }
    return spec, warm_env


def run_one(
    snippet: Snippet,
    device: str,
    layout: Layout,
    session: Session,
    *,
    commit: str | None = None,
    warm: bool = False,
    cancel: threading.Event | None = None,
) -> Record | None:
    """Execute one run; None when ``cancel`` stopped it (no record is made of a run cut short)."""
    run = session.run_dir(f"{snippet.id}-{device}")
    try:
        copy_tree(snippet, layout, run / "tree")
        tag = secrets.token_hex(8)  # the run's own: the snippet never sees it
        spec, shared = _spec(snippet, device, run, tag)
        flavour = "compiler" if any(word in snippet.source for word in COMPILES) else "torch"
        link = session.start(spec, shared if warm else None, flavour)
        try:
            ended = streams.wait(link, snippet.header.timeout * session.timeout_factor, cancel)
        finally:
            link.close()
        if ended.cancelled:
            return None
        limit = snippet.header.timeout * session.timeout_factor
        mode = "warm" if link.warm else "fresh"
        return make_record.make(snippet, device, layout, run, ended, commit=commit, mode=mode, limit=limit, tag=tag)
    finally:
        shutil.rmtree(run, ignore_errors=True)
