"""Where and with what a run happened; collected inside the snippet's process."""

from __future__ import annotations

import importlib
import platform
import sys
from typing import Protocol, cast

from ...core.devices import EMULATIONS, captured
from ...core.machine import cpu


class _Versioned(Protocol):
    __version__: str


class _Version(Protocol):
    cuda: str | None


class _DeviceProperties(Protocol):
    name: str
    major: int
    minor: int


class _Cuda(Protocol):
    def is_available(self) -> bool: ...
    def get_device_properties(self, device: int) -> _DeviceProperties: ...


class _CpuBackend(Protocol):
    def get_cpu_capability(self) -> str: ...


class _Backends(Protocol):
    cpu: _CpuBackend


class _Torch(_Versioned, Protocol):
    """What provenance reads of torch, declared here: the type checker does not read torch (see pyproject.toml),
    so each name used below is one a torch upgrade must keep."""

    version: _Version
    cuda: _Cuda
    backends: _Backends

    def get_num_threads(self) -> int: ...


def collect(device: str) -> dict[str, object]:
    """Versions and device facts; torch's only if the snippet imported it (never imported here)."""
    info: dict[str, object] = {
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
    }
    torch = cast("_Torch | None", sys.modules.get("torch"))
    if torch is not None:
        info["torch"] = torch.__version__.split("+")[0]
        info["torch_build"] = torch.__version__
        info["cuda"] = torch.version.cuda
        try:
            info["triton"] = cast(_Versioned, importlib.import_module("triton")).__version__
        except ImportError:
            info["triton"] = None
    if captured(device) and torch is not None and torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        info["device_name"] = props.name
        info["compute_capability"] = f"sm_{props.major}{props.minor}"
    else:
        info.update(cpu())
        if torch is not None:
            info["cpu_capability"] = torch.backends.cpu.get_cpu_capability()
            info["threads"] = torch.get_num_threads()
    for module_name in sorted(set(EMULATIONS.values())):  # on any device: a run that switched one on says so
        info.update(_emulation(module_name))
    return info


def _emulation(module_name: str) -> dict[str, object]:
    """What the emulation the snippet switched on says of itself; nothing if it never was (the record is then
    refused: an emulated output must name its emulation). Read from the snippet's modules, never imported here."""
    module = sys.modules.get(module_name)
    describe: object = getattr(module, "provenance", None)
    try:
        described = describe() if callable(describe) else {}
    except Exception:  # noqa: BLE001 - an emulation that cannot describe itself names nothing
        return {}
    return dict(described) if isinstance(described, dict) else {}
