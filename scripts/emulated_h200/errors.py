"""The two ways the emulation says no: the emulated GPU cannot do it, or the installed torch moved under it."""

from __future__ import annotations


class Refused(RuntimeError):
    """Something only a real GPU can do (load, launch, time) was asked of the emulated one."""


class Outdated(RuntimeError):
    """An internal the emulation touches moved: ``name`` is its entry in the table (``internals.TABLE``)."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"{name}: {why}")
        self.name, self.why = name, why
