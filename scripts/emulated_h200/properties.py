"""The H200's answers: observed values only, read from ``h200_properties.toml`` (which says where each was read)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
_DATA = tomllib.loads((HERE / "h200_properties.toml").read_text(encoding="utf-8"))

PROPERTIES: dict[str, Any] = dict(_DATA["properties"])  # in the order provenance() lists them
READ_FROM: dict[str, str] = dict(_DATA["read_from"])  # where each value was read in the evidence
EVIDENCE = HERE / _DATA["evidence"]["file"]  # the verbatim excerpt of the real H200's output
COMPUTE_CAPABILITY = 10 * PROPERTIES["major"] + PROPERTIES["minor"]  # Inductor's cc (the evidence's cc=90)
