"""The framing of the messages between the runner and a run's supervisor: JSON objects, one per line.

Both ends use this module (the runner's :class:`streams.Link` and the
supervisor's :class:`supervise.Channel`), so the framing is written once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as the bytes that go on the socket."""
    return json.dumps(message).encode() + b"\n"


class Decoder:
    """Turns the bytes read from a socket, in whatever pieces they arrive, into whole messages."""

    def __init__(self) -> None:
        self.buffer = b""

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """The messages completed by ``data``; a partial last line waits for the next piece. Untyped here:
        each end reads them as the messages its side receives (see :mod:`messages`)."""
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line.strip()]
