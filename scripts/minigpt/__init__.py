"""The grammar MiniGPT of the running example, with its trained weights.

    from minigpt import lm_head, load_model, vocab
    W, b = lm_head()        # the LM head nn.Linear(64, 600): W is 600x64, b is 600
    model = load_model()    # the whole model, in eval mode
    words = vocab()         # the 600 output words, in row order of W

Standard library and torch only, like the snippet runner: snippets import it on
the GPU machine too. Snippets that use it declare ``deps = ["scripts/minigpt"]``
so that retraining or editing it makes their records stale.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from . import vocabulary as _vocab
from .model import Config, MiniGPT

CHECKPOINT = Path(__file__).resolve().with_name("minigpt.pt")
FORMAT = 1


def load_checkpoint(path: Path = CHECKPOINT) -> dict[str, Any]:
    """The checkpoint as saved: config, vocabulary, weights, recipe and training summary."""
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    if checkpoint.get("format") != FORMAT:
        raise ValueError(f"{path}: checkpoint format {checkpoint.get('format')!r}, expected {FORMAT}")
    if checkpoint["vocab"] != _vocab.VOCAB:
        raise ValueError(
            f"{path}: its vocabulary differs from minigpt/vocabulary.py; retrain it (make model)"
        )
    return checkpoint


def load_model(device: str | torch.device = "cpu", path: Path = CHECKPOINT) -> MiniGPT:
    checkpoint = load_checkpoint(path)
    model = MiniGPT(Config(**checkpoint["config"]))
    model.load_state_dict(checkpoint["state_dict"])
    return model.eval().to(device)


def lm_head(device: str | torch.device = "cpu") -> tuple[torch.Tensor, torch.Tensor]:
    """The trained (W, b) of nn.Linear(64, 600): shapes (600, 64) and (600,), float32."""
    state = load_checkpoint()["state_dict"]
    return state["lm_head.weight"].to(device), state["lm_head.bias"].to(device)


def vocab() -> list[str]:
    return list(_vocab.VOCAB)


def encode(text: str) -> torch.Tensor:
    """Words to token ids, with <bos> in front: ``encode("walk : yesterday she")``."""
    index = {word: i for i, word in enumerate(_vocab.VOCAB)}
    unknown = [w for w in text.split() if w not in index]
    if unknown:
        raise KeyError(f"not in the 600-word vocabulary: {unknown}")
    return torch.tensor([[index["<bos>"], *(index[w] for w in text.split())]])


__all__ = ["CHECKPOINT", "Config", "MiniGPT", "encode", "lm_head", "load_checkpoint", "load_model", "vocab"]
