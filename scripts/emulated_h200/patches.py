"""What the session replaces in torch and Triton: the answers for an H200, and refusals for whatever would run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import internals
from .errors import Refused
from .properties import COMPUTE_CAPABILITY, PROPERTIES

ASKED: Counter[str] = Counter()  # which patched question was asked, how often (read by the snippets)


class _Properties:
    """``torch.cuda.get_device_properties`` for the H200: observed values only."""

    def __init__(self) -> None:
        self.__dict__.update(PROPERTIES)

    def __getattr__(self, name: str) -> Any:
        raise Refused(f"the emulated H200 has no observed value for the device property {name!r}")

    def __repr__(self) -> str:
        return f"_CudaDeviceProperties(name='{PROPERTIES['name']}', emulated)"


def target() -> Any:
    """The target Triton compiles for: sm_90, the H200's warp size."""
    return internals.get("GPUTarget")("cuda", COMPUTE_CAPABILITY, PROPERTIES["warp_size"])


class Driver:
    """Triton's active driver: it names the target and refuses every launch, load and benchmark."""

    def get_current_target(self) -> Any:
        return target()

    def __getattr__(self, name: str) -> Any:
        raise Refused(f"Triton's driver was asked for {name!r}: the emulated H200 loads, launches and times nothing")


@dataclass
class Patch:
    """One attribute replaced for the session, named by its entry in the table (``internals.TABLE``)."""

    name: str
    replacement: Any
    owner: Any = None
    attribute: str = ""
    original: Any = None
    owned: bool = False  # whether the owner itself held the attribute (or inherited it, or it is an instance's)

    def apply(self) -> None:
        self.owner, self.attribute = internals.holder(self.name)  # Outdated, with the entry's name, if it moved
        self.owned = self.attribute in vars(self.owner)
        self.original = vars(self.owner).get(self.attribute)
        setattr(self.owner, self.attribute, self.replacement)

    def restore(self) -> None:
        if self.owned:
            setattr(self.owner, self.attribute, self.original)
        else:
            delattr(self.owner, self.attribute)


def _answer(name: str, value: Any) -> Callable[..., Any]:
    def answer(*args: Any, **kwargs: Any) -> Any:
        ASKED[name] += 1
        return value

    return staticmethod(answer) if name.startswith("CudaInterface.") else answer


def _refuse(what: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise Refused(f"{what}: the emulated H200 runs nothing")

    return refuse


LOAD_REFUSED = "loading the generated module"


def patches(captured: list[str]) -> list[Patch]:
    """The session's patches, in the order they are applied; the output code Inductor writes goes to ``captured``."""
    props = _Properties()
    interface = {
        "get_device_properties": props,
        "get_compute_capability": COMPUTE_CAPABILITY,
        "current_device": 0,
        "device_count": 1,
        "is_available": True,
    }
    cuda = {
        "get_device_properties": props,
        "get_device_capability": (PROPERTIES["major"], PROPERTIES["minor"]),
        "current_device": 0,
        "device_count": 1,
    }
    return [
        *(Patch(f"CudaInterface.{a}", _answer(f"CudaInterface.{a}", v)) for a, v in interface.items()),
        *(Patch(f"torch.cuda.{a}", _answer(f"torch.cuda.{a}", v)) for a, v in cuda.items()),
        Patch("GraphLowering.save_output_code", staticmethod(captured.append)),
        Patch("PyCodeCache.load_by_key_path", _refuse(LOAD_REFUSED)),
        Patch("benchmarker.benchmark_gpu", _refuse("timing a kernel")),
    ]
