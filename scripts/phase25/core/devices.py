"""The devices a snippet can declare, declared once: where each is produced and what its provenance must name.

- ``cpu``: run on the CPU of any x86-64 machine that meets the README (the reference every test re-executes).
- ``sm90-codegen``: also run on that CPU, with an emulated NVIDIA H200 answering the device questions
  torch.compile asks. Inductor writes its Triton code and Triton compiles it for sm_90, but nothing is
  loaded, launched or timed (the emulation refuses it): code generation, never a run. Its provenance
  must name the emulation, or the record is refused when written and when read.
- ``cuda``: a real GPU; captured on a CUDA machine (``make gpu-capture``) and brought back.

Every place that asks what a device is asks this table (tests/test_devices.py refuses a device name compared as a
literal anywhere else); its provenance wording is the strings key ``device_<name>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Device:
    """What the rest of the package may ask about one device."""

    name: str
    made_here: bool  # produced by `make records` on any machine that meets the README
    warm: bool  # its jobs may share a forked warm interpreter
    in_kit: bool  # offered by the reader's reproduce kit
    captured: bool  # run on a GPU machine and brought back; its provenance names the GPU
    pending_when_missing: bool  # a missing record is a tab that waits, not a problem (no GPU in CI)
    default: bool  # what a header without `devices` declares
    reference: bool  # the one every test re-executes, and the one a lab's cells run on
    emulation: str | None = None  # the module a run must have imported and switched on

    @property
    def emulated(self) -> bool:
        return self.emulation is not None


_ROWS = (  # also the order of a snippet's output tabs
    Device("cpu", made_here=True, warm=True, in_kit=True, captured=False, pending_when_missing=False,
           default=True, reference=True),
    Device("sm90-codegen", made_here=True, warm=False, in_kit=False, captured=False, pending_when_missing=False,
           default=False, reference=False, emulation="emulated_h200"),
    Device("cuda", made_here=False, warm=False, in_kit=False, captured=True, pending_when_missing=True,
           default=False, reference=False),
)  # fmt: skip
DEVICE_TABLE: dict[str, Device] = {device.name: device for device in _ROWS}

DEVICES = tuple(DEVICE_TABLE)
LOCAL = tuple(name for name, device in DEVICE_TABLE.items() if device.made_here)
CAPTURED = tuple(name for name, device in DEVICE_TABLE.items() if device.captured)
DEFAULT = tuple(name for name, device in DEVICE_TABLE.items() if device.default)
REFERENCE = next(name for name, device in DEVICE_TABLE.items() if device.reference)
# The module a run of an emulated device must have imported and switched on; its provenance() is recorded.
EMULATIONS = {name: device.emulation for name, device in DEVICE_TABLE.items() if device.emulation}
# The provenance entries an emulated device's record must carry (see emulated_h200.provenance()).
EMULATION_FIELDS = ("emulation", "emulated_device", "emulated_properties", "emulation_patches", "emulation_refuses")
# A device as it appears in a record's file name (<page>/<name>.<device>.json) and in a review item.
NAME = "|".join(re.escape(device) for device in DEVICES)


def _ask(device: str, question: str) -> bool:
    """A property of ``device``; False for a name the table does not hold (it is refused where it is read)."""
    row = DEVICE_TABLE.get(device)
    return bool(row is not None and getattr(row, question))


def emulated(device: str) -> bool:
    return _ask(device, "emulated")


def captured(device: str) -> bool:
    return _ask(device, "captured")


def pending_when_missing(device: str) -> bool:
    return _ask(device, "pending_when_missing")


def in_kit(device: str) -> bool:
    return _ask(device, "in_kit")


def warm(device: str) -> bool:
    return _ask(device, "warm")
