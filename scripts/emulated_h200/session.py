"""The emulation switched on for a block: patches applied, the emulated driver active, everything put back after."""

from __future__ import annotations

import contextlib
import copy
import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import torch

from . import internals
from .errors import Outdated, Refused
from .internals import get
from .kernels import Generated, Kernel, read
from .patches import LOAD_REFUSED, Driver, Patch, patches
from .properties import PROPERTIES
from .triton_build import Build, build

REFUSES = ("load of the generated module", "kernel launch", "timing")
# A decision Inductor makes with the GPU's answers, taken here without them: what was assumed, and why. Padding:
# pad_mm first checks whether the matmul is compute-bound, from the GPU's peak TFLOPS and memory bandwidth, which
# the emulated device cannot give (the check then takes it as compute-bound and pad_mm would time on the GPU); a
# dimension of 2 keeps the arithmetic intensity below 2, under a real H200's balance: not padded, not timed.
ASSUMED = {
    "shape_padding": "matmul shapes are not padded: pad_mm's compute-bound check, which rejects a dimension of 2 on a "
    "real H200 without timing, cannot be evaluated here, so padding is switched off",
}
_TIMED_SETTINGS = ("max_autotune", "max_autotune_gemm", "max_autotune_pointwise", "coordinate_descent_tuning")
_ACTIVE: list[str] = []  # names of the patches of the session that is on (or was, last)


class Session:
    """An emulated H200 for one block of code: ``place`` tensors on it, ``compile`` a function, ``build`` kernels."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.fake = get("FakeTensorMode")()
        self.captured: list[str] = []

    def place(self, tensor: torch.Tensor) -> torch.Tensor:
        """A tensor of the same shape, strides and dtype on ``cuda:0``: fake, no memory behind it."""
        with self.fake:
            return torch.empty_strided(tensor.shape, tensor.stride(), dtype=tensor.dtype, device="cuda:0")

    def place_module(self, module: torch.nn.Module) -> torch.nn.Module:
        """A copy of ``module`` whose parameters and buffers are placed on ``cuda:0`` (fake, see :meth:`place`)."""
        clone = copy.deepcopy(module)
        for name, value in [*clone.named_parameters(), *clone.named_buffers()]:
            owner_name, _, attribute = name.rpartition(".")
            owner = clone.get_submodule(owner_name)
            placed = self.place(value.detach())
            if isinstance(value, torch.nn.Parameter):
                placed = torch.nn.Parameter(placed, requires_grad=False)
            setattr(owner, attribute, placed)
        return clone

    def compile(self, fn: Callable[..., Any], *args: torch.Tensor) -> Generated:
        """``torch.compile(fn)(*args)`` up to the load of the generated module, which is refused."""
        for setting in _TIMED_SETTINGS:
            if get(f"inductor_config.{setting}"):
                raise Refused(f"{setting} picks by timing on the GPU, which the emulated H200 cannot do")
        get("torch._dynamo.reset")()
        before = len(self.captured)
        try:
            torch.compile(fn)(*args)
        except Exception as exc:  # Dynamo wraps what its backend raised
            if (outdated := _outdated(exc)) is not None:
                raise Outdated(outdated.name, outdated.why) from exc  # by its name, not as Dynamo's error
            if not _caused_by_refused_load(exc):
                raise
            if len(self.captured) == before:
                raise internals.outdated(
                    "GraphLowering.save_output_code",
                    "the load was refused, but the output code never reached the hook the emulation captures it from",
                ) from exc
        else:
            raise Refused("the compiled function ran: the emulation failed to stop it")
        return read(_normalized(self.captured[-1]))

    def build(self, kernel: Kernel) -> list[Build]:
        """Each configuration Inductor's heuristics give ``kernel``, compiled by Triton for sm_90 (never loaded)."""
        return build(kernel, self.folder)


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc`` and its causes: what the emulation raised lies under Dynamo's and Inductor's wrapping."""
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


def _outdated(exc: BaseException) -> Outdated | None:
    return next((found for found in _chain(exc) if isinstance(found, Outdated)), None)


def _caused_by_refused_load(exc: BaseException) -> bool:
    return any(isinstance(found, Refused) and LOAD_REFUSED in str(found) for found in _chain(exc))


def _normalized(code: str) -> str:
    """The output code without this machine's cache folder (``<inductor-cache>``, as the H200 evidence writes it)."""
    folder = get("cache_dir")()
    return code.replace(os.path.realpath(folder), "<inductor-cache>").replace(folder, "<inductor-cache>")


# Modules whose cached functions remember device answers (has_triton, DeviceProperties.create, Triton's backend
# hash, ...): forgotten when a session starts, so a process that compiled for the CPU first still sees the H200,
# and when it ends, so nothing the emulation answered outlives it.
_CACHING_MODULES = ("torch.utils._triton", "torch._inductor.utils", "torch._inductor.runtime.hints")


def _forget_device_answers() -> None:
    owners: list[Any] = [get(name) for name in _CACHING_MODULES] + [get("DeviceProperties")]
    for owner in owners:
        for found in list(vars(owner).values()):
            function = getattr(found, "__func__", found)  # a classmethod's function holds the cache
            if callable(getattr(function, "cache_clear", None)):
                function.cache_clear()


def _activate(driver: Any) -> None:
    """The emulated driver made Triton's active one, checked: Triton must now answer with it."""
    get("triton.runtime.driver.active")(Driver())
    if not isinstance(driver.active, Driver):
        raise internals.outdated("triton.runtime.driver.active", "set_active no longer makes a driver the active one")


@contextlib.contextmanager
def session() -> Iterator[Session]:
    """Switch the emulation on for a block; everything patched is put back when it ends, however it ends."""
    driver, active = internals.holder("triton.runtime.driver._active")  # Triton's DriverConfig, its active driver
    with tempfile.TemporaryDirectory(prefix="emulated-h200-") as folder:
        current = Session(folder)
        applied: list[Patch] = []
        previous_driver = get("triton.runtime.driver._active")
        try:
            _forget_device_answers()
            for patch in patches(current.captured):
                patch.apply()
                applied.append(patch)
            _activate(driver)
            _ACTIVE[:] = [patch.name for patch in applied] + ["triton.runtime.driver.active"]
            get("inductor_config.shape_padding")
            with get("inductor_config.patch")(shape_padding=False):
                yield current
        finally:
            for patch in reversed(applied):
                patch.restore()
            setattr(driver, active, previous_driver)  # as it was: None lets Triton pick its own default again
            _forget_device_answers()
            get("torch._dynamo.reset")()


def provenance() -> dict[str, Any]:
    """What a record made under the emulation says of it (the runner reads this from the snippet's process)."""
    if not _ACTIVE:
        return {}
    return {
        "emulation": "code generation for an emulated NVIDIA H200 on this CPU; nothing loaded, launched or timed",
        "emulated_device": f"{PROPERTIES['name']} (sm_{PROPERTIES['major']}{PROPERTIES['minor']})",
        "emulated_properties": [f"{key}={value}" for key, value in PROPERTIES.items()],
        "emulation_patches": list(_ACTIVE),
        "emulation_refuses": list(REFUSES),
        "emulation_assumed": [f"{key}: {why}" for key, why in ASSUMED.items()],
    }
