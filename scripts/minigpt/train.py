"""Deterministic training of the grammar MiniGPT on the CPU.

One thread and deterministic algorithms fix the order of every sum. With the
math pins the runner sets (ATen's AVX2 kernels, MKL's COMPATIBLE branch), the
kernels are the same on Intel and AMD CPUs, and the optimizer is the fused
AdamW, whose square root is the exact IEEE one: the unfused AdamW takes its
square root from MKL's vector math library, whose last bit differs from one
CPU to another. ``retrain.py`` states what "the same model" means when a
machine does not reproduce the weights bit for bit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch
from torch.nn import functional as F

from . import data
from . import vocabulary as V
from .model import Config, MiniGPT

SEED = 0


@dataclass(frozen=True)
class Recipe:
    epochs: int = 6
    batch_size: int = 128
    lr: float = 3e-3
    weight_decay: float = 0.01
    seed: int = SEED


def encode(sequences: list[list[str]], context: int) -> torch.Tensor:
    index = {token: i for i, token in enumerate(V.VOCAB)}
    out = torch.zeros(len(sequences), context, dtype=torch.long)  # 0 is <pad>
    for row, tokens in enumerate(sequences):
        out[row, : len(tokens)] = torch.tensor([index[t] for t in tokens])
    return out


@torch.no_grad()
def slot_accuracy(model: MiniGPT, examples: list[data.Example]) -> float:
    """Share of verb-slot words predicted exactly (greedy), one prompt per (verb, marker, pronoun)."""
    prompts = list({(e.lang, e.verb, e.marker, e.pronoun): e for e in examples}.values())
    if not prompts:
        return float("nan")
    tokens = encode([e.tokens for e in prompts], model.cfg.context)
    predicted = model(tokens).argmax(-1)
    right = total = 0
    for row, example in enumerate(prompts):
        start = len(example.prefix)  # position of the first slot word
        for offset in range(len(example.slot)):
            total += 1
            right += int(predicted[row, start - 1 + offset] == tokens[row, start + offset])
    return right / total


def train(recipe: Recipe = Recipe(), log=print) -> tuple[MiniGPT, dict]:
    """Train from scratch; returns the model and a summary of the run."""
    torch.manual_seed(recipe.seed)
    torch.use_deterministic_algorithms(True)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        train_set, test_set = data.split(data.corpus(), seed=recipe.seed)
        cfg = Config(vocab_size=len(V.VOCAB))
        model = MiniGPT(cfg)
        tokens = encode([e.tokens for e in train_set], cfg.context)
        inputs, targets = tokens[:, :-1], tokens[:, 1:].clone()
        targets[targets == 0] = -100  # no loss on padding
        optimizer = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay, fused=True)
        steps = recipe.epochs * ((len(train_set) + recipe.batch_size - 1) // recipe.batch_size)
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=recipe.lr, total_steps=steps)
        generator = torch.Generator().manual_seed(recipe.seed)
        started = time.perf_counter()
        losses = []
        for epoch in range(recipe.epochs):
            order = torch.randperm(len(train_set), generator=generator)
            total = 0.0
            for start in range(0, len(order), recipe.batch_size):
                batch = order[start : start + recipe.batch_size]
                logits = model(inputs[batch])
                loss = F.cross_entropy(
                    logits.reshape(-1, cfg.vocab_size), targets[batch].reshape(-1), ignore_index=-100
                )
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
                schedule.step()
                total += loss.item() * len(batch)
            losses.append(total / len(train_set))
            log(f"epoch {epoch + 1}/{recipe.epochs}  training loss {losses[-1]:.4f}")
        model.eval()
        summary = {
            "train_sentences": len(train_set),
            "heldout_sentences": len(test_set),
            "final_train_loss": round(losses[-1], 4),
            "train_slot_accuracy": round(slot_accuracy(model, train_set), 4),
            "heldout_slot_accuracy": round(slot_accuracy(model, test_set), 4),
            "seconds": round(time.perf_counter() - started, 1),
        }
        log(
            f"verb-slot accuracy: training {summary['train_slot_accuracy']:.2%}, "
            f"held out {summary['heldout_slot_accuracy']:.2%}"
        )
        return model, summary
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(False)
