"""A stream of output kept within a hard cap: its head and its tail, and a count of what was left out.

A snippet that prints a megabyte would put that megabyte into its record, into
each language's page and into each search index. Each of stdout and stderr is
therefore capped: the first and the last ``HALF`` bytes are kept, cut at line
boundaries, with one marker line between them that the pages show as a visible
"N lines omitted" note. Memory stays bounded however much the snippet prints.
"""

from __future__ import annotations

from ..core.limits import STREAM_HALF as HALF  # bytes kept at each end of a stream
from ..core.records import omitted_marker as marker

CAP = 2 * HALF


class Capped:
    """Collects bytes; never holds more than about ``CAP`` of them."""

    def __init__(self, half: int = HALF) -> None:
        self.half = half
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.dropped_newlines = 0
        self.dropped_bytes = 0

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        room = self.half - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if not data:
            return
        self.tail += data
        excess = len(self.tail) - self.half
        if excess > 0:
            self.dropped_newlines += self.tail.count(b"\n", 0, excess)
            self.dropped_bytes += excess
            del self.tail[:excess]

    def text(self) -> str:
        """Everything, or head + marker + tail cut at line boundaries."""
        if not self.dropped_bytes:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", errors="replace")
        head, tail = bytes(self.head), bytes(self.tail)
        cut_head = head.rfind(b"\n") + 1  # keep whole lines of the head
        cut_tail = tail.find(b"\n") + 1  # and of the tail
        lost = head[cut_head:] + tail[:cut_tail]
        lines = self.dropped_newlines + lost.count(b"\n")
        size = self.dropped_bytes + len(lost)
        return (
            head[:cut_head].decode("utf-8", errors="replace")
            + marker(lines, size)
            + "\n"
            + tail[cut_tail:].decode("utf-8", errors="replace")
        )
