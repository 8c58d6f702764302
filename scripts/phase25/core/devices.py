"""The devices a snippet can declare, declared once: where each is produced and what its provenance must name.

- ``cpu``: run on the CPU of any x86-64 machine that meets the README (the reference every test re-executes).
- ``sm90-codegen``: also run on that CPU, with an emulated NVIDIA H200 answering the device questions
  torch.compile asks. Inductor writes its Triton code and Triton compiles it for sm_90, but nothing is
  loaded, launched or timed (the emulation refuses it): code generation, never a run. Its provenance
  must name the emulation, or the record is refused when written and when read.
- ``cuda``: a real GPU; captured on a CUDA machine (``make gpu-capture``) and brought back.
"""

from __future__ import annotations

import re

DEVICES = ("cpu", "sm90-codegen", "cuda")  # also the order of a snippet's output tabs
LOCAL = ("cpu", "sm90-codegen")  # produced by `make records` on any machine that meets the README
# The module a run of an emulated device must have imported and switched on; its provenance() is recorded.
EMULATIONS = {"sm90-codegen": "emulated_h200"}
# The provenance entries an emulated device's record must carry (see emulated_h200.provenance()).
EMULATION_FIELDS = ("emulation", "emulated_device", "emulated_properties", "emulation_patches", "emulation_refuses")
# A device as it appears in a record's file name (<page>/<name>.<device>.json) and in a review item.
NAME = "|".join(re.escape(device) for device in DEVICES)


def emulated(device: str) -> bool:
    return device in EMULATIONS
