"""The environment every run gets, and the key that ties a record to it.

Output must depend on the code, not on the shell that launched the runner or on
the CPU it ran on. Two groups of variables see to that:

- ``PINNED_ENV``, for every run: hashing, time zone, locale, terminal width;
- ``CPU_ENV``, for CPU runs: no GPU, two threads, and math libraries whose
  results do not depend on the CPU's vendor or best instruction set.

Why each CPU pin: ATen's own kernels are compiled once per ISA and picked at run
time, so ``ATEN_CPU_CAPABILITY=avx2`` selects the same machine code on every
x86-64 CPU with AVX2. MKL picks its code path by vendor as well as ISA (on AMD
it refuses an AVX2 reproducibility branch and falls back to its own choice), so
``MKL_CBWR=COMPATIBLE,STRICT`` asks for the one branch MKL guarantees to give
the same bits on every x86-64 CPU, whatever the memory alignment. oneDNN is
capped at AVX2 like ATen, and so is Inductor's generated C++ (it follows
``ATEN_CPU_CAPABILITY``); ``TORCHINDUCTOR_VEC_ISA_OK=1`` lets Inductor trust the
CPU's flags for that choice instead of dry-compiling a test program per
instruction set (ten g++ calls, about 17 CPU-seconds in every process that
compiles, for the same answer on any CPU the README admits). numpy's OpenBLAS gets one thread, so no thread exists
before a run is forked from a warm interpreter. OpenMP's waiting threads sleep
rather than spin, which changes no result but keeps runs that share the cores fast.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from . import header, normalize
from .devices import LOCAL, captured

if TYPE_CHECKING:  # the snippet's process imports this module: keep it light
    from collections.abc import Mapping
    from pathlib import Path

    from .snippets import Snippet

PINNED_ENV = {
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
    "TZ": "UTC",
    "LC_ALL": "C.UTF-8",
    "COLUMNS": "100",
    "OPENBLAS_NUM_THREADS": "1",
}
CPU_ENV = {
    "CUDA_VISIBLE_DEVICES": "",
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_CBWR": "COMPATIBLE,STRICT",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "TORCHINDUCTOR_VEC_ISA_OK": "1",
    "OMP_NUM_THREADS": "2",
    # Waiting OpenMP threads sleep instead of spinning: when runs share the cores (two runs of two
    # threads on two cores), a spinning barrier made a 1-second gradcheck take 100 seconds.
    "OMP_WAIT_POLICY": "PASSIVE",
}
# Variables a run forked from a warm interpreter may set after the fork: torch reads the
# first two again when its logging is re-initialized (bootstrap does that), MKL reads its
# verbose switch at its first call. Runs that differ only in these share a warm one.
# (TORCH_TRACE is not among them: its trace handler is set up once, at import.)
TORCH_LOGGING = ("TORCH_LOGS", "TORCH_LOGS_FORMAT")  # torch's logging switches: listed here only
LATE = (*TORCH_LOGGING, "MKL_VERBOSE")
# The pins that decide which kernels compute: training the running example uses them too.
MATH_PINS = {name: CPU_ENV[name] for name in ("ATEN_CPU_CAPABILITY", "MKL_CBWR", "ONEDNN_MAX_CPU_ISA")}


# What a run takes from the shell that started the runner: where its programs are (Inductor's compiler) and who runs
# it (Inductor names folders after the user). Whatever else that shell holds (torch's, Inductor's and Python's own
# switches, thread counts, a library to preload, a locale, a variable a snippet reads by name) could change what a
# run prints without changing its key, so no run gets it: what a run needs is pinned here or declared in its header,
# and both are in the key.
INHERITED = ("PATH", "USER", "LOGNAME")
# A capture on a GPU machine also takes which GPU to use and where that machine keeps its driver's libraries.
INHERITED_ON_A_GPU = ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH")


def inherited(environ: Mapping[str, str], device: str) -> dict[str, str]:
    """The part of the runner's own environment that a run of ``device`` inherits (see :data:`INHERITED`)."""
    names = INHERITED + (INHERITED_ON_A_GPU if captured(device) else ())
    return {name: environ[name] for name in names if name in environ}


# Inherited variables that name a folder of the shell that started the runner (often the checkout):
# a run is not told them. (folders_env gives every folder a run is told, all inside its scratch.)
NOT_INHERITED = ("OLDPWD", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "TORCH_HOME", "HF_HOME", "PYTHONPYCACHEPREFIX")
SCRATCH_FOLDERS = ("work", "tmp", "home", "inductor-cache", "triton-cache")  # what a run's scratch holds


def folders_env(run: Path) -> dict[str, str]:
    """The folders a run gets, each inside its own scratch folder ``run`` (the home and the per-user caches
    too, so nothing a library keeps "for later" lands outside it); :func:`folders_context` names each."""
    return {
        "TMPDIR": str(run / "tmp"),
        "TORCHINDUCTOR_CACHE_DIR": str(run / "inductor-cache"),
        "TRITON_CACHE_DIR": str(run / "triton-cache"),
        "HOME": str(run / "home"),
        "XDG_CACHE_HOME": str(run / "home" / ".cache"),
        "XDG_CONFIG_HOME": str(run / "home" / ".config"),
        "XDG_DATA_HOME": str(run / "home" / ".local" / "share"),
        "PWD": str(run / "work"),
    }


def confined(env: dict[str, str], run: Path) -> dict[str, str]:
    """``env`` with the folders of :func:`folders_env` and without the inherited ones that lead elsewhere."""
    return {**{k: v for k, v in env.items() if k not in NOT_INHERITED}, **folders_env(run)}


def folders_context(
    run: Path, *, repo_root: str = "", tree_root: str = "", site_packages: tuple[str, ...] = ()
) -> normalize.Context:
    """What normalizing the output of a run in ``run`` replaces: the folders of :func:`folders_env`, its working
    folder ``run/work``, ``run`` itself for whatever else lands there, and the checkout and the site-packages."""
    return normalize.Context(
        run_dir=str(run / "work"),
        cache_dir=str(run / "inductor-cache"),
        run_root=str(run),
        tmp_dir=str(run / "tmp"),
        repo_root=repo_root,
        tree_root=tree_root,
        site_packages=site_packages,
    )


def run_env(snippet: Snippet, device: str) -> dict[str, str]:
    """The variables a run of ``snippet`` on ``device`` gets on top of the inherited ones."""
    env = dict(PINNED_ENV)
    if device in LOCAL:  # the emulated device runs on the CPU too, and must not reach a real GPU
        env.update(CPU_ENV)
    env.update(snippet.header.env)
    return env


def warm_env(snippet: Snippet, device: str, inherited: dict[str, str]) -> dict[str, str]:
    """The environment of the warm interpreter a run can be forked from: all but the late variables."""
    env = {**inherited, **run_env(snippet, device)}
    return {k: v for k, v in env.items() if k not in LATE}


def env_key(snippet: Snippet, device: str) -> str:
    """Everything besides the source that decides what a run prints; part of every record."""
    material = {
        "device": device,
        "env": run_env(snippet, device),
        "normalizer": normalize.VERSION,
        **header.keyed(snippet.header),  # each field's rule is declared with the field (core/header.py)
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:16]


def free_port() -> int:
    """A loopback port nothing listens on now: two runs (or a port some program holds) never clash."""
    import socket  # here, not at the top: the snippet's process imports this module and needs no socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rank_env(ranks: int, port: int) -> list[dict[str, str]]:
    """Each rank's variables, torchrun's contract: its rank, the world's size, and where rank 0 listens."""
    world = {"WORLD_SIZE": str(ranks), "LOCAL_WORLD_SIZE": str(ranks), "MASTER_ADDR": "127.0.0.1"}
    return [{**world, "MASTER_PORT": str(port), "RANK": str(r), "LOCAL_RANK": str(r)} for r in range(ranks)]
