"""Retrain the grammar MiniGPT and compare the result with the committed checkpoint.

    python -m minigpt.retrain           # train and write minigpt.pt
    python -m minigpt.retrain --check   # train and compare, write nothing

Run it with the runner's math pins in the environment (``python -m phase25
model`` sets them): they decide which kernels compute, and must be set before
torch is imported.

"The same model" is checked by a stated criterion. Bit for bit is what the
pins aim at and what the committed checkpoint's machine gets; where a machine
does not reproduce it, the retrained model must still make the same greedy
prediction for every held-out prompt, reach the same accuracies, and have no
weight further than ``TOLERANCE`` from the committed one.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from . import CHECKPOINT, FORMAT, data, load_checkpoint
from . import vocabulary as V
from .model import Config, MiniGPT
from .train import Recipe, encode, train

TOLERANCE = 1e-2


def checkpoint_of(model: MiniGPT, recipe: Recipe, summary: dict) -> dict:
    return {
        "format": FORMAT,
        "config": model.cfg.to_dict(),
        "vocab": list(V.VOCAB),
        "state_dict": {k: v.detach().clone() for k, v in model.state_dict().items()},
        "recipe": asdict(recipe),
        "summary": {k: v for k, v in summary.items() if k != "seconds"},
        "torch": torch.__version__.split("+")[0],
    }


@torch.no_grad()
def heldout_predictions(model: MiniGPT) -> list[tuple[int, ...]]:
    """The greedy verb-slot prediction for every held-out prompt."""
    _, heldout = data.split(data.corpus())
    prompts = list({(e.lang, e.verb, e.marker, e.pronoun): e for e in heldout}.values())
    logits = model(encode([e.tokens for e in prompts], model.cfg.context))
    return [tuple(logits[row, len(e.prefix) - 1 : len(e.prefix) - 1 + len(e.slot)].argmax(-1).tolist())
            for row, e in enumerate(prompts)]


@dataclass
class Comparison:
    identical: bool  # every tensor bit for bit
    largest_difference: float  # max |fresh - committed| over all weights
    prompts: int
    same_predictions: int  # held-out prompts whose greedy prediction is the same
    same_summary: bool  # same verb-slot accuracies, training and held out

    @property
    def reproduces(self) -> bool:
        return self.identical or (self.same_predictions == self.prompts and self.same_summary
                                  and self.largest_difference <= TOLERANCE)


def compare(fresh: dict, committed: dict) -> Comparison:
    names = fresh["state_dict"].keys()
    if names != committed["state_dict"].keys():
        raise ValueError("the retrained model has other tensors than the committed checkpoint")
    diffs = [(fresh["state_dict"][n] - committed["state_dict"][n]).abs().max().item() for n in names]
    models = []
    for checkpoint in (fresh, committed):
        model = MiniGPT(Config(**checkpoint["config"]))
        model.load_state_dict(checkpoint["state_dict"])
        models.append(heldout_predictions(model.eval()))
    return Comparison(
        identical=all(torch.equal(fresh["state_dict"][n], committed["state_dict"][n]) for n in names),
        largest_difference=max(diffs),
        prompts=len(models[0]),
        same_predictions=sum(a == b for a, b in zip(*models, strict=True)),
        same_summary=all(fresh["summary"][k] == committed["summary"][k]
                         for k in ("train_slot_accuracy", "heldout_slot_accuracy")),
    )


def retrain(log=print) -> tuple[dict, Comparison]:
    """Train with the committed recipe and compare with the committed checkpoint."""
    recipe = Recipe()
    model, summary = train(recipe, log=log)
    fresh = checkpoint_of(model, recipe, summary)
    return fresh, compare(fresh, load_checkpoint())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed checkpoint, write nothing")
    args = parser.parse_args(argv)
    if not args.check:
        recipe = Recipe()
        model, summary = train(recipe)
        torch.save(checkpoint_of(model, recipe, summary), CHECKPOINT)
        print(f"wrote {CHECKPOINT} ({Path(CHECKPOINT).stat().st_size / 1024:.0f} KiB)")
        return 0
    _, result = retrain()
    if result.identical:
        print("identical to the committed checkpoint, bit for bit")
    else:
        print(f"not bit for bit: largest weight difference {result.largest_difference:.3g}; "
              f"same held-out predictions for {result.same_predictions} of {result.prompts} prompts; "
              f"same accuracies: {result.same_summary}")
        print(f"criterion (same predictions, same accuracies, weights within {TOLERANCE:g}): "
              f"{'holds' if result.reproduces else 'FAILS'}")
    return 0 if result.reproduces else 1


if __name__ == "__main__":
    sys.exit(main())
