"""``upgrade pin V``: the first step of an upgrade, safe to run again after a stop.

The first run keeps the committed records aside (the "before" of the drift report), records the pin it replaces in
``releases.toml`` (its last commit, so that ``make versions`` publishes it beside the new one) and pins torch V and
the triton it requires. A second run, after a stop, finds V pinned and the records kept: it resumes from them and
never takes the records it may already have re-made for "before" (that made a report of 0 changes titled
"2.15.0 -> 2.15.0"). V pinned with nothing kept is refused in one line: there is no "before" left to compare with.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..core import atomic
from . import releases
from .upgrade import checked, kept_records, pinned, repin, required_triton


def kept_marker(root: Path) -> Path:
    """Beside the kept records (a records folder holds records only): the release they were made with."""
    kept = kept_records(root)
    return kept.with_name(kept.name + ".torch")


def kept_torch(root: Path) -> str | None:
    """The release whose records ``upgrade pin`` kept aside, or None when nothing is kept."""
    marker = kept_marker(root)
    if not (marker.is_file() and kept_records(root).is_dir()):
        return None
    return marker.read_text(encoding="utf-8").strip() or None


def record_release(root: Path, version: str) -> str:
    """``releases.toml`` gains the release being replaced, at HEAD, the last commit pinned on it; once."""
    path = root / releases.FILE
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if f'torch = "{version}"' in text:
        return f"releases.toml already records torch {version}"
    try:
        head = releases.git(root, "rev-parse", "HEAD")
    except (subprocess.CalledProcessError, OSError):
        raise ValueError(f"{root} is not a git checkout: the release being replaced has no commit to record") from None
    if releases.pinned_at(root, head) != version:
        raise ValueError(f"HEAD ({head[:12]}) does not pin torch {version}: commit the current pin before upgrading")
    entry = f'\n[[release]]\ntorch = "{version}"\ncommit = "{head}"\n'
    atomic.write_atomic(path, text.rstrip("\n") + "\n" + entry)
    return f"releases.toml records torch {version} at {head[:12]}"


def pin(root: Path, version: str) -> str:
    """Keep the committed records aside, record the release they belong to, then pin torch ``version``."""
    current, kept = pinned(root), kept_records(root)
    if current == checked(version):
        before = kept_torch(root)
        if before is None:
            raise ValueError(
                f"requirements.txt already pins torch {version} and no records are kept aside in {kept}: "
                "nothing to compare the new records with (start again from the commit that pins the old release)"
            )
        return f"torch {version} is pinned already; resuming with the records of torch {before} kept in {kept}"
    triton = required_triton(version)  # asked first: a failure here leaves everything as it was
    said = record_release(root, current)
    if kept.exists():
        shutil.rmtree(kept)
    shutil.copytree(root / "records", kept)
    atomic.write_atomic(kept_marker(root), current + "\n")
    requirements = root / "requirements.txt"
    text = repin(repin(requirements.read_text(encoding="utf-8"), "torch", version), "triton", triton)
    atomic.write_atomic(requirements, text)
    return f"pinned torch {version} and triton {triton}; the records of torch {current} kept in {kept}; {said}"
