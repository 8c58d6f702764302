"""Harness of theory-01/bf16_uncapped: oneDNN's verbose log read from file descriptor 1, and one process per cap.

oneDNN prints its verbose lines with C stdio and reads ONEDNN_MAX_CPU_ISA once, at its first use: so the log
is caught by redirecting the descriptor, and each cap needs a process of its own.
"""

import ctypes
import json
import os
import subprocess
import sys
import tempfile

import torch

libc = ctypes.CDLL(None)


def library_log(fn):
    """Run fn under oneDNN's verbose mode; return what fn returned and what oneDNN printed (on fd 1)."""
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 1)
        try:
            with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                out = fn()
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        return out, log.read().decode().splitlines()


def under_caps(script, caps):
    """Run ``script child`` once per cap, each in a process of its own; each prints one line of JSON back."""
    children = {
        cap: subprocess.Popen([sys.executable, script, "child"], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "ONEDNN_MAX_CPU_ISA": cap})
        for cap in caps
    }
    return {cap: json.loads(child.communicate()[0]) for cap, child in children.items()}


def as_child(run):
    """In a process started by under_caps: print run()'s result as one line of JSON, and end the process."""
    if sys.argv[1:] == ["child"]:
        print(json.dumps(run()))
        sys.exit()
