"""Inductor's output code, read: its Triton kernels and its ``call()``, through the markers of the table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import internals
from .errors import Outdated
from .internals import find, find_all


@dataclass
class Kernel:
    """One Triton kernel of the output code: its name and source, as Inductor wrote them."""

    name: str
    source: str

    @property
    def heuristic(self) -> str:
        """How Inductor's runtime picks its launch configuration: pointwise, reduction, persistent_reduction..."""
        return find("kernel: heuristic", self.source).group(1)

    @property
    def size_hints(self) -> str:
        return find("kernel: size_hints", self.source).group(1)

    @property
    def reduction_hint(self) -> str | None:
        """A reduction kernel's hint; None for the others, which Inductor writes without one."""
        if "reduction" not in self.heuristic:
            return None
        return find("kernel: reduction_hint", self.source).group(1)

    @property
    def device(self) -> str:
        """The device Inductor wrote into the kernel's metadata (the emulation's answers)."""
        return find("kernel: DeviceProperties", self.source).group(1)

    @property
    def body(self) -> list[str]:
        """The kernel's own lines, from ``@triton.jit`` on."""
        return self.source[find("kernel: @triton.jit", self.source).start() :].strip("\n").splitlines()

    def check(self) -> None:
        """Read every marker now, so a marker that moved fails here, by name, not in the snippet that reads it."""
        for value in (self.heuristic, self.size_hints, self.reduction_hint, self.device, self.body):
            assert value is None or value  # each read raises Outdated if its marker is gone


@dataclass
class Generated:
    """Inductor's output code for the emulated H200, and its Triton kernels."""

    code: str
    kernels: list[Kernel] = field(default_factory=list)

    @property
    def call(self) -> str:
        """The module's ``call()``: the program, step by step."""
        start = find("output code: call()", self.code).start()
        return self.code[start : find("output code: Runner", self.code[start:]).start() + start]


def read(code: str) -> Generated:
    """The output code's kernels, each one checked; every kernel defined is launched by ``call()`` and back."""
    generated = Generated(code)
    defined = {m.group(1): m.group(2) for m in _matches("output code: kernel definition", code)}
    launched = {m.group(1) for m in _matches("output code: kernel launch", generated.call)}
    if launched - set(defined):
        raise internals.outdated(
            "output code: kernel definition",
            f"call() launches {sorted(launched - set(defined))}, whose definition was not found",
        )
    if set(defined) - launched:
        raise internals.outdated("output code: kernel launch", f"no launch found for {sorted(set(defined) - launched)}")
    generated.kernels = [Kernel(name, source) for name, source in defined.items()]
    for kernel in generated.kernels:
        kernel.check()
    return generated


def _matches(name: str, text: str) -> list[re.Match[str]]:
    """Every match of a marker; none is allowed (output code without Triton kernels), but the marker is still read."""
    try:
        return find_all(name, text)
    except Outdated:
        return []
