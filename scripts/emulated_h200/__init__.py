"""Inductor's code for an NVIDIA H200, generated on a machine that has none: code generation, never a run.

``torch.compile`` asks the device a few questions before it writes code (its properties, its compute
capability, the target Triton compiles for), then it loads the module it wrote, and that module launches and
times kernels. This package answers the questions for an H200 and refuses everything after: loading the
generated module, launching a kernel and timing one each raise :class:`Refused`. What comes out is the
output code Inductor logs and, for each Triton kernel, what Triton's compiler makes of it for sm_90 (PTX and a
cubin, read back with the ``cuobjdump`` the triton wheel ships). Nothing runs on a GPU and nothing is measured.

The answers are the values a real H200 printed into Inductor's kernels (``h200_properties.toml``, each value
with where it was read in ``evidence/``): a question with no observed answer is refused too, so a future torch
that asks something new fails loudly instead of reading an invented number.

Every torch and Triton internal the package touches (what it patches, the private helpers it calls, the text
it reads from output code, PTX and ``cuobjdump``) is a row of one table (``table.py``), reached only through
``internals``: when one moves, the error is :class:`Outdated` with the row's name. Everything patched is put
back when the session ends. Decisions Inductor would make on the GPU are taken without it and named in
:func:`provenance` (``emulation_assumed``).

Modules, by concern: ``errors``, ``table`` and ``internals`` (the touch points), ``properties`` (the observed
answers), ``patches`` (what the session replaces), ``kernels`` (output code read), ``triton_build`` (compile
for sm_90, ``cuobjdump`` read), ``session``.
"""

from __future__ import annotations

from .errors import Outdated, Refused
from .kernels import Generated, Kernel
from .patches import ASKED
from .properties import COMPUTE_CAPABILITY, PROPERTIES
from .session import ASSUMED, REFUSES, Session, provenance, session
from .triton_build import Build

__all__ = [
    "ASKED",
    "ASSUMED",
    "COMPUTE_CAPABILITY",
    "PROPERTIES",
    "REFUSES",
    "Build",
    "Generated",
    "Kernel",
    "Outdated",
    "Refused",
    "Session",
    "provenance",
    "session",
]
