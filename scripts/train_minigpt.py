#!/usr/bin/env python3
"""Train the grammar MiniGPT from scratch and save scripts/minigpt/minigpt.pt.

    python scripts/train_minigpt.py           # train, print loss and accuracy, write the checkpoint
    python scripts/train_minigpt.py --check   # train, and compare with the committed checkpoint

Deterministic: the same seed and torch on an x86-64 CPU give the same weights
bit for bit (about 30 seconds on one core). The CPU kernels are pinned to AVX2,
as for every CPU snippet: AVX-512 kernels sum in another order and drift by up
to about 1e-3 over the run. Elsewhere (ARM, another torch) expect that drift.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from phase25.records import CPU_ENV, ISA_PINS

# Must precede the torch import: ATen, MKL and oneDNN pick their kernels at load time.
for _name in ISA_PINS:
    os.environ.setdefault(_name, CPU_ENV[_name])

import torch
from minigpt import CHECKPOINT, FORMAT, load_checkpoint
from minigpt import vocabulary as V
from minigpt.train import Recipe, train


def checkpoint_of(model, recipe: Recipe, summary: dict) -> dict:
    return {
        "format": FORMAT,
        "config": model.cfg.to_dict(),
        "vocab": list(V.VOCAB),
        "state_dict": {k: v.detach().clone() for k, v in model.state_dict().items()},
        "recipe": asdict(recipe),
        "summary": {k: v for k, v in summary.items() if k != "seconds"},
        "torch": torch.__version__.split("+")[0],
    }


def compare(fresh: dict, committed: dict) -> list[str]:
    """Tensors that differ between two checkpoints, with the largest absolute difference."""
    problems = []
    for name, tensor in fresh["state_dict"].items():
        other = committed["state_dict"].get(name)
        if other is None or other.shape != tensor.shape:
            problems.append(f"{name}: missing or reshaped")
        elif not torch.equal(tensor, other):
            problems.append(f"{name}: max |diff| {(tensor - other).abs().max().item():.3g}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed checkpoint, write nothing")
    args = parser.parse_args(argv)
    recipe = Recipe()
    model, summary = train(recipe)
    fresh = checkpoint_of(model, recipe, summary)
    if args.check:
        problems = compare(fresh, load_checkpoint())
        for problem in problems:
            print(problem)
        print("identical to the committed checkpoint" if not problems else f"{len(problems)} tensors differ")
        return 1 if problems else 0
    torch.save(fresh, CHECKPOINT)
    print(
        f"wrote {CHECKPOINT.relative_to(Path.cwd()) if CHECKPOINT.is_relative_to(Path.cwd()) else CHECKPOINT} "
        f"({CHECKPOINT.stat().st_size / 1024:.0f} KiB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
