"""One Inductor kernel compiled by Triton for sm_90 (never loaded), and its cubin read back with ``cuobjdump``."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
from dataclasses import dataclass
from typing import Any

from . import internals
from .internals import find, find_all, get, member
from .kernels import Kernel
from .patches import target


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
        return threads(self.ptx)


def threads(ptx: str) -> int:
    return int(find("PTX: .reqntid", ptx).group(1))


def usage(text: str) -> tuple[int, int]:
    """Registers per thread and bytes of shared memory, from ``cuobjdump -res-usage``."""
    found = find("cuobjdump -res-usage", text)
    return int(found.group(1)), int(found.group(2))


def instructions(text: str) -> list[str]:
    """The SASS instructions of ``cuobjdump -sass``, without their addresses and predicates (``@P0``)."""
    return [
        re.sub(r"^@!?U?P\w+\s+", "", line.group(0).split(";")[0].split("*/")[-1].strip())
        for line in find_all("cuobjdump -sass: instruction", text)
    ]


def _autotuner(kernel: Kernel, folder: str) -> Any:
    """The kernel's module imported from its source, without a GPU driver: its autotuner (CachingAutotuner)."""
    path = os.path.join(folder, f"{kernel.name}.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(kernel.source)
    spec = importlib.util.spec_from_file_location(kernel.name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    autotuner = get("CachingAutotuner")
    skip = get("triton_helpers._skip_gpu_driver_setup")
    token = skip.set(True)  # the kernel's module would pick a real driver
    try:
        spec.loader.exec_module(module)
    finally:
        skip.reset(token)
    tuner = getattr(module, kernel.name)
    if not isinstance(tuner, autotuner):
        raise internals.outdated("CachingAutotuner", f"the kernel's module defines a {type(tuner).__name__}")
    return tuner


def build(kernel: Kernel, folder: str) -> list[Build]:
    """Each configuration Inductor's heuristics give ``kernel``, compiled by Triton for sm_90 (never loaded)."""
    tuner = _autotuner(kernel, folder)
    create_meta = get("CachingAutotuner._create_compile_meta")
    create_options = get("CachingAutotuner._create_compile_options")
    builds = []
    for config in member("CachingAutotuner.configs", tuner):
        meta = create_meta(tuner, config)
        options = create_options(tuner, config, meta)
        source = get("ASTSource")(
            member("CachingAutotuner.fn", tuner),
            member("compile_meta.signature", meta),
            member("compile_meta.constants", meta),
            member("compile_meta.configs", meta)[0],
        )
        compiled = get("triton.compile")(source, target=target(), options=options)
        cubin = member("CompiledKernel.asm.cubin", compiled)
        registers, shared = usage(cuobjdump(cubin, "-res-usage", folder))
        build = Build(
            str(config),
            options,
            member("CompiledKernel.asm.ptx", compiled),
            cubin,
            registers,
            shared,
            instructions(cuobjdump(cubin, "-sass", folder)),
        )
        build.threads  # noqa: B018 - read now: a PTX without the marker fails here, by name
        builds.append(build)
    return builds


def cuobjdump(cubin: bytes, flag: str, folder: str) -> str:
    """``cuobjdump <flag>`` of the cubin, with the tool the triton wheel ships."""
    path = os.path.join(folder, "kernel.cubin")
    with open(path, "wb") as handle:
        handle.write(cubin)
    tool = get("cuobjdump").path
    if not os.path.isfile(tool):
        raise internals.outdated("cuobjdump", f"{tool} does not exist")
    return subprocess.run([tool, flag, path], capture_output=True, text=True, check=True, timeout=60).stdout
