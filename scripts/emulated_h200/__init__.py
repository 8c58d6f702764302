"""Inductor's code for an NVIDIA H200, generated on a machine that has none: code generation, never a run.

``torch.compile`` asks the device a few questions before it writes code (its properties, its compute
capability, the target Triton compiles for), then it loads the module it wrote, and that module launches and
times kernels. This package answers the questions for an H200 and refuses everything after: loading the
generated module, launching a kernel and timing one each raise :class:`Refused`. What comes out is the
output code Inductor logs and, for each Triton kernel, what Triton's compiler makes of it for sm_90 (PTX and a
cubin, read back with the ``cuobjdump`` the triton wheel ships). Nothing runs on a GPU and nothing is measured.

The answers are the values a real H200 printed into Inductor's kernels (``DeviceProperties`` in the
``triton_meta`` of its output code, torch 2.11): a question with no observed answer is refused too, so a
future torch that asks something new fails loudly instead of reading an invented number.

Each patch checks that what it replaces still exists before replacing it (:class:`Outdated` otherwise), and
everything is put back when the session ends. Decisions Inductor would make by timing on the GPU are taken
without timing and named in :func:`provenance` (``emulation_assumed``).
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import os
import re
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

# Observed on a real H200 (../shared/evidence/h200-torch2.11 in the project's history): Inductor's DeviceProperties.
PROPERTIES: dict[str, Any] = {
    "name": "NVIDIA H200",
    "major": 9,
    "minor": 0,
    "multi_processor_count": 132,
    "regs_per_multiprocessor": 65536,
    "max_threads_per_multi_processor": 2048,
    "max_threads_per_block": 1024,
    "warp_size": 32,
}
COMPUTE_CAPABILITY = 90
REFUSES = ("load of the generated module", "kernel launch", "timing")
# A decision Inductor makes by timing on the GPU, taken here without timing: what was assumed, and why.
ASSUMED = {
    "shape_padding": "matmul shapes are not padded (pad_mm decides that by timing padded against unpadded "
    "matmuls on the GPU; not measured here)",
}


class Refused(RuntimeError):
    """Something only a real GPU can do (load, launch, time) was asked of the emulated one."""


class Outdated(RuntimeError):
    """A patch no longer applies: the installed torch or triton moved what it replaces."""


class _Properties:
    """``torch.cuda.get_device_properties`` for the H200: observed values only."""

    def __init__(self) -> None:
        self.__dict__.update(PROPERTIES)

    def __getattr__(self, name: str) -> Any:
        raise Refused(f"the emulated H200 has no observed value for the device property {name!r}")

    def __repr__(self) -> str:
        return f"_CudaDeviceProperties(name='{PROPERTIES['name']}', emulated)"


class _Driver:
    """Triton's active driver: it names the target and refuses every launch, load and benchmark."""

    def get_current_target(self) -> Any:
        from triton.backends.compiler import GPUTarget

        return GPUTarget("cuda", COMPUTE_CAPABILITY, PROPERTIES["warp_size"])

    def __getattr__(self, name: str) -> Any:
        raise Refused(f"Triton's driver was asked for {name!r}: the emulated H200 loads, launches and times nothing")


@dataclass
class _Patch:
    """One attribute replaced for the session; where it lives is checked before it is touched."""

    owner: Any
    attribute: str
    replacement: Any
    name: str
    original: Any = None
    owned: bool = False  # whether the owner itself held the attribute (or inherited it, or it is an instance's)

    def apply(self) -> None:
        if not hasattr(self.owner, self.attribute):
            raise Outdated(f"{self.name} no longer exists in torch {torch.__version__}: the emulation must be updated")
        self.owned = self.attribute in vars(self.owner)
        self.original = vars(self.owner).get(self.attribute)
        setattr(self.owner, self.attribute, self.replacement)

    def restore(self) -> None:
        if self.owned:
            setattr(self.owner, self.attribute, self.original)
        else:
            delattr(self.owner, self.attribute)


ASKED: Counter[str] = Counter()  # which patched question was asked, how often (read by the snippets)
_ACTIVE: list[str] = []  # names of the patches of the session that is on (or was, last)


def _answer(name: str, value: Any) -> Callable[..., Any]:
    def answer(*args: Any, **kwargs: Any) -> Any:
        ASKED[name] += 1
        return value

    return staticmethod(answer) if name.startswith("CudaInterface.") else answer


def _refuse(what: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise Refused(f"{what}: the emulated H200 runs nothing")

    return refuse


def _patches(captured: list[str]) -> list[_Patch]:
    from torch._dynamo.device_interface import CudaInterface
    from torch._inductor.codecache import PyCodeCache
    from torch._inductor.graph import GraphLowering
    from torch._inductor.runtime import benchmarking

    props = _Properties()
    interface = [
        ("get_device_properties", props),
        ("get_compute_capability", COMPUTE_CAPABILITY),
        ("current_device", 0),
        ("device_count", 1),
        ("is_available", True),
    ]
    cuda = [
        ("get_device_properties", props),
        ("get_device_capability", (PROPERTIES["major"], PROPERTIES["minor"])),
        ("current_device", 0),
        ("device_count", 1),
    ]
    return [
        *(_Patch(CudaInterface, a, _answer(f"CudaInterface.{a}", v), f"CudaInterface.{a}") for a, v in interface),
        *(_Patch(torch.cuda, a, _answer(f"torch.cuda.{a}", v), f"torch.cuda.{a}") for a, v in cuda),
        _Patch(GraphLowering, "save_output_code", staticmethod(captured.append), "GraphLowering.save_output_code"),
        _Patch(
            PyCodeCache, "load_by_key_path", _refuse("loading the generated module"), "PyCodeCache.load_by_key_path"
        ),
        _Patch(benchmarking.benchmarker, "benchmark_gpu", _refuse("timing a kernel"), "benchmarker.benchmark_gpu"),
    ]


@dataclass
class Kernel:
    """One Triton kernel of the output code: its name and source, as Inductor wrote them."""

    name: str
    source: str

    @property
    def heuristic(self) -> str:
        """How Inductor's runtime picks its launch configuration: pointwise, reduction, persistent_reduction..."""
        return _found(r"@triton_heuristics\.(\w+)\(", self.source)

    @property
    def size_hints(self) -> str:
        return _found(r"size_hints=(\{.*?\})", self.source)

    @property
    def reduction_hint(self) -> str | None:
        found = re.search(r"reduction_hint=([\w.]+)", self.source)
        return found.group(1) if found else None

    @property
    def device(self) -> str:
        """The device Inductor wrote into the kernel's metadata (the emulation's answers)."""
        return _found(r"(DeviceProperties\(.*?\))", self.source)

    @property
    def body(self) -> list[str]:
        """The kernel's own lines, from ``@triton.jit`` on."""
        return self.source[self.source.index("@triton.jit") :].strip("\n").splitlines()


@dataclass
class Generated:
    """Inductor's output code for the emulated H200, and its Triton kernels."""

    code: str
    kernels: list[Kernel] = field(default_factory=list)

    @property
    def call(self) -> str:
        """The module's ``call()``: the program, step by step."""
        return self.code[self.code.index("    def call(self, args):") : self.code.index("runner = Runner")]


@dataclass
class Build:
    """One kernel compiled by Triton for sm_90 with the configuration Inductor's heuristics give it."""

    config: str  # XBLOCK, R0_BLOCK, num_warps, num_stages as Inductor's heuristics chose them
    options: dict[str, Any]
    ptx: str
    cubin: bytes
    registers: int
    shared_bytes: int
    sass: list[str]  # instructions, without their addresses and predicates (@P0)

    @property
    def threads(self) -> int:
        """Threads per program, as the PTX declares them (``.reqntid``)."""
        return int(_found(r"\.reqntid (\d+)", self.ptx))


def _found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    if match is None:
        raise Outdated(f"the generated code no longer has {pattern!r}: the emulation must be updated")
    return match.group(1)


QUOTES = "'" * 3
_KERNEL = re.compile(rf"(\w+) = async_compile\.triton\('\w+', {QUOTES}(.*?){QUOTES}", re.DOTALL)


class Session:
    """An emulated H200 for one block of code: ``place`` tensors on it, ``compile`` a function, ``build`` kernels."""

    def __init__(self, folder: str) -> None:
        from torch._subclasses.fake_tensor import FakeTensorMode

        self.folder = folder
        self.fake = FakeTensorMode()
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
        import torch._inductor.config as inductor_config

        for setting in ("max_autotune", "max_autotune_gemm", "max_autotune_pointwise", "coordinate_descent_tuning"):
            if getattr(inductor_config, setting):
                raise Refused(f"{setting} picks by timing on the GPU, which the emulated H200 cannot do")
        torch._dynamo.reset()
        before = len(self.captured)
        try:
            torch.compile(fn)(*args)
        except Exception as exc:  # Dynamo wraps what its backend raised
            if not _caused_by_refused_load(exc) or len(self.captured) == before:
                raise
        else:
            raise Refused("the compiled function ran: the emulation failed to stop it")
        code = _normalized(self.captured[-1])
        return Generated(code, [Kernel(name, source) for name, source in _KERNEL.findall(code)])

    def build(self, kernel: Kernel) -> list[Build]:
        """Each configuration Inductor's heuristics give ``kernel``, compiled by Triton for sm_90 (never loaded)."""
        import triton
        from torch._inductor.runtime import triton_helpers
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource

        path = os.path.join(self.folder, f"{kernel.name}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(kernel.source)
        spec = importlib.util.spec_from_file_location(kernel.name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        token = triton_helpers._skip_gpu_driver_setup.set(True)  # the kernel's module would pick a real driver
        try:
            spec.loader.exec_module(module)
        finally:
            triton_helpers._skip_gpu_driver_setup.reset(token)
        tuner = getattr(module, kernel.name)
        builds = []
        for config in tuner.configs:
            meta = tuner._create_compile_meta(config)
            options = tuner._create_compile_options(config, meta)
            source = ASTSource(tuner.fn, meta["signature"], meta["constants"], meta["configs"][0])
            target = GPUTarget("cuda", COMPUTE_CAPABILITY, PROPERTIES["warp_size"])
            compiled = triton.compile(source, target=target, options=options)
            usage = _cuobjdump(compiled.asm["cubin"], "-res-usage", self.folder)
            found = re.search(r"REG:(\d+) STACK:\d+ SHARED:(\d+)", usage)
            assert found is not None, usage
            sass = [
                re.sub(r"^@!?U?P\w+\s+", "", line.split(";")[0].split("*/")[-1].strip())  # without a predicate
                for line in _cuobjdump(compiled.asm["cubin"], "-sass", self.folder).splitlines()
                if re.match(r"\s*/\*[0-9a-f]{4}\*/", line)
            ]
            builds.append(
                Build(
                    str(config),
                    options,
                    compiled.asm["ptx"],
                    compiled.asm["cubin"],
                    int(found.group(1)),
                    int(found.group(2)),
                    sass,
                )
            )
        return builds


def _caused_by_refused_load(exc: BaseException | None) -> bool:
    while exc is not None:
        if isinstance(exc, Refused) and "loading the generated module" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _normalized(code: str) -> str:
    """The output code without this machine's cache folder (``<inductor-cache>``, as the H200 evidence writes it)."""
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    return code.replace(os.path.realpath(cache_dir()), "<inductor-cache>").replace(cache_dir(), "<inductor-cache>")


def _cuobjdump(cubin: bytes, flag: str, folder: str) -> str:
    from triton.backends.nvidia import compiler as nvidia

    path = os.path.join(folder, "kernel.cubin")
    with open(path, "wb") as handle:
        handle.write(cubin)
    tool = os.path.join(os.path.dirname(nvidia.__file__), "bin", "cuobjdump")
    return subprocess.run([tool, flag, path], capture_output=True, text=True, check=True, timeout=60).stdout


# Modules whose cached functions remember device answers (has_triton, DeviceProperties.create, Triton's backend
# hash, ...): forgotten when a session starts, so a process that compiled for the CPU first still sees the H200,
# and when it ends, so nothing the emulation answered outlives it.
_CACHING_MODULES = ("torch.utils._triton", "torch._inductor.utils", "torch._inductor.runtime.hints")


def _forget_device_answers() -> None:
    import importlib

    from torch._inductor.runtime.hints import DeviceProperties

    owners: list[Any] = [importlib.import_module(name) for name in _CACHING_MODULES] + [DeviceProperties]
    for owner in owners:
        for found in list(vars(owner).values()):
            function = getattr(found, "__func__", found)  # a classmethod's function holds the cache
            if callable(getattr(function, "cache_clear", None)):
                function.cache_clear()


@contextlib.contextmanager
def session() -> Iterator[Session]:
    """Switch the emulation on for a block; everything patched is put back when it ends, however it ends."""
    import torch._inductor.config as inductor_config
    from triton.runtime.driver import driver

    if not hasattr(driver, "set_active") or not hasattr(driver, "reset_active"):
        raise Outdated("triton.runtime.driver has no set_active/reset_active: the emulation must be updated")
    with tempfile.TemporaryDirectory(prefix="emulated-h200-") as folder:
        current = Session(folder)
        patches = _patches(current.captured)
        applied: list[_Patch] = []
        previous_driver = driver._active if hasattr(driver, "_active") else None
        try:
            _forget_device_answers()
            for patch in patches:
                patch.apply()
                applied.append(patch)
            driver.set_active(_Driver())
            _ACTIVE[:] = [patch.name for patch in patches] + ["triton.runtime.driver.active"]
            with inductor_config.patch(shape_padding=False):
                yield current
        finally:
            for patch in reversed(applied):
                patch.restore()
            if previous_driver is None:
                driver._active = None
            else:
                driver.set_active(previous_driver)
            _forget_device_answers()
            torch._dynamo.reset()


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


__all__ = [
    "ASKED",
    "PROPERTIES",
    "Build",
    "Generated",
    "Kernel",
    "Outdated",
    "Refused",
    "Session",
    "provenance",
    "session",
]
