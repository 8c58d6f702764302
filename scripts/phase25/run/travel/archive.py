"""One archive of a device's records: how a GPU capture travels back to the build machine."""

from __future__ import annotations

import sys
import tarfile
from pathlib import Path

from ...core.paths import Layout


def pack(layout: Layout, devices: list[str], archive: Path) -> None:
    """Every record of these devices, under ``records/`` in a .tar.gz, for ``make unpack`` to check and write."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "w:gz") as tar:
        for device in devices:
            for path in sorted(layout.records.rglob(f"*.{device}.json")):
                tar.add(path, arcname=Path("records") / path.relative_to(layout.records))
    print(f"packed {archive}", file=sys.stderr)
