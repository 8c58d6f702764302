"""Build the real site (or a copy of it) as a subprocess, with MkDocs or ProperDocs: what the tests and the
benchmark run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ..core import bounded

ENGINES = {"mkdocs": "mkdocs", "properdocs": "properdocs"}  # engine -> its command in the virtual environment


def command(
    root: Path,
    site_dir: Path,
    *,
    strict: bool = True,
    execute: bool = False,
    site_url: str | None = None,
    engine: str = "mkdocs",
    quiet: bool = False,
) -> tuple[list[str], dict[str, str]]:
    """The build's command line and environment (see :func:`build`), for a caller that starts it itself."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PHASE25_EXECUTE": "1" if execute else "0"}
    if site_url:
        env["PHASE25_SITE_URL"] = site_url
    program = str(Path(sys.executable).parent / ENGINES[engine])
    argv = [program, "build", "-f", str(root / "mkdocs.yml"), "-d", str(site_dir)]
    if strict:
        argv.append("--strict")
    if quiet:
        argv.append("--quiet")
    return argv, env


def build(
    root: Path,
    site_dir: Path,
    *,
    strict: bool = True,
    execute: bool = False,
    site_url: str | None = None,
    timeout: float = 900,
    engine: str = "mkdocs",
    quiet: bool = False,
) -> subprocess.CompletedProcess:
    """``site_url`` publishes the site at another address, as a preview does (PHASE25_SITE_URL);
    ``engine`` is ``mkdocs`` (the default) or ``properdocs``, which reads the same mkdocs.yml;
    ``quiet`` passes ``--quiet``, under which a strict build must still refuse every warning."""
    argv, env = command(root, site_dir, strict=strict, execute=execute, site_url=site_url, engine=engine, quiet=quiet)
    return bounded.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
