"""Make output reproducible: two runs of the same snippet give the same bytes.

Each rule names what it hides, so a reader of a record knows that ``0x<addr>``
was a memory address and not something the snippet printed literally.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Bump when a rule changes: it is part of every record's environment key, so
# records normalized under older rules are re-executed rather than trusted.
VERSION = 5


@dataclass(frozen=True)
class Context:
    """Run-specific strings that must not leak into a record."""

    run_dir: str = ""
    cache_dir: str = ""
    run_root: str = ""  # the run's scratch folder, holding the others: whatever else lands there is <run>/...
    repo_root: str = ""
    tree_root: str = ""  # the run's private copy of the snippet and its dependencies
    tmp_dir: str = ""  # the run's TMPDIR: shown as /tmp, where it would be without the runner
    site_packages: tuple[str, ...] = ()
    pid: int | None = None


# torch's log prefix "W1201 12:10:45.482000 28167 torch/_logging/_internal.py:1345]", behind "[rank0]:"
# in a process group's ranks: the level and the place kept, the date, time and process id dropped.
_GLOG_PREFIX = re.compile(
    r"^(?P<rank>\[rank\d+\]:)?(?P<level>[IWEVD])\d{4} \d{2}:\d{2}:\d{2}\.\d+ +\d+ (?P<where>\S+:\d+\])", re.MULTILINE
)
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # c10's own log prefix "[W1130 16:09:34.454236791 Module.cpp:206]": keep the level.
    (re.compile(r"\[([IWEVD])\d{4} \d{2}:\d{2}:\d{2}\.\d+ "), r"[\1 "),
    # Date-times, and the "pid:tid" that profiler logs put after them.
    (re.compile(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?: \d+:\d+)?"), "<datetime>"),
    # oneDNN verbose lines end with the execution time in milliseconds.
    (re.compile(r"^(onednn_verbose,v\d+,(?:primitive|graph),exec,.*,)\d+(?:\.\d+)?$", re.MULTILINE), r"\1<time>"),
    # Clock speeds in library banners.
    (re.compile(r"\b\d+(?:\.\d+)?GHz\b"), "<freq>"),
    # Memory addresses: "<AddmmBackward0 object at 0x7f3a...>".
    (re.compile(r"\b0x[0-9a-fA-F]{8,16}\b"), "0x<addr>"),
    # UUIDs, also the underscore form of __compiled_fn_1_<uuid>.
    (
        re.compile(
            r"(?<![0-9a-fA-F])[0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}(?![0-9a-fA-F])"
        ),
        "<uuid>",
    ),
    # Object ids inside Dynamo guards.
    (
        re.compile(
            r"((?:___check_obj_id|check_obj_id|___check_type_id|check_type_id)\([^,()]*(?:\([^()]*\))?[^,()]*,\s*)\d+"
        ),
        r"\1<id>",
    ),
    (re.compile(r"(\bid\([^()]*\)\s*==\s*)\d+"), r"\1<id>"),
    # Durations printed by torch's logs ("took 0.123s", "12.5 ms").
    (re.compile(r"\b\d+(?:\.\d+)?(?:e-?\d+)? ?(?:ms|us|µs|ns|seconds|secs?)\b"), "<time>"),
    (re.compile(r"(\b(?:took|in|latency|elapsed|time)[:=]? )\d+\.\d+ ?s\b", re.IGNORECASE), r"\1<time>"),
    # A snippet path that a log cut to a fixed width ("ork/main/snippets/...", or the
    # middle of a run folder): keep it from "snippets/" on, as a whole path is kept.
    (re.compile(r"(?<![\w<>/.-])[\w.<>-]*(?:/[\w.<>-]+)*/(snippets/[\w.-]+/[\w.-]+\.py)\b"), r"\1"),
    # A loopback port picked for the run (the rendezvous of a multi-rank snippet).
    (re.compile(r"\b(127\.0\.0\.1|localhost):\d{2,5}\b"), r"\1:<port>"),
    # Anything left under a temporary directory.
    (re.compile(r"/tmp/(?:pytest-of-[^/\s]+/)?(?:tmp|pytest-)[\w.-]+"), "<tmp>"),
    (re.compile(r"/tmp/torchinductor_[\w.-]+"), "<inductor-tmp>"),
)


# A frame of the runner itself (phase25's modules, runpy) in a Python traceback, with the
# source and caret lines under it: running the snippet directly would not show it.
_RUNNER_FRAME = re.compile(
    r'^[ \t]*File "(?:<frozen runpy>|scripts/phase25/(?:\w+/)*[\w.]+\.py)", line \d+, in .*\n(?:[ \t]{4,}.*\n)*',
    re.MULTILINE,
)


# Terminal control sequences: CSI (colours, cursor moves), OSC (window titles, links), other two-byte escapes.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\^_`a-z{|}~]?"
)
_OTHER_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _as_the_terminal_shows(line: str) -> str:
    """A line as a terminal ends up showing it: a carriage return writes over the line from its start,
    a backspace steps back one column (progress bars end as their last state)."""
    if "\r" not in line and "\b" not in line:
        return line
    shown: list[str] = []
    column = 0
    for char in line:
        if char == "\r":
            column = 0
        elif char == "\b":
            column = max(column - 1, 0)
        else:
            shown[column : column + 1] = [char]
            column += 1
    return "".join(shown)


def plain_text(text: str) -> str:
    """Output as text: escape sequences dropped, carriage returns and backspaces applied as a terminal
    would, every other control byte shown as its visible symbol (U+2400 and up) instead of published raw."""
    text = _ESCAPES.sub("", text.replace("\r\n", "\n"))
    text = "\n".join(_as_the_terminal_shows(line) for line in text.split("\n"))
    return _OTHER_CONTROL.sub(_visible, text)


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


def normalize(text: str, ctx: Context = Context()) -> str:
    """Replace volatile substrings; idempotent, so normalizing twice changes nothing."""
    text = plain_text(text)
    # The glog prefix "V1130 15:14:57.658000 576 torch/_inductor/graph.py:2552]"
    # carries a date, a time and a PID; keep the level and the source location.
    text = _GLOG_PREFIX.sub(r"\g<rank>\g<level> \g<where>", text)
    replacements = [
        (ctx.cache_dir, "<inductor-cache>"),
        (ctx.run_dir, "<run-dir>"),
        (ctx.run_root, "<run>"),
        *((sp, "<site-packages>") for sp in ctx.site_packages),
        (ctx.repo_root + "/" if ctx.repo_root else "", ""),
        (ctx.repo_root, "<repo>"),
        (ctx.tree_root + "/" if ctx.tree_root else "", ""),
        (ctx.tree_root, "<repo>"),
        (ctx.tmp_dir, "/tmp"),
    ]
    for needle, token in sorted(replacements, key=lambda pair: -len(pair[0])):
        if needle:
            text = text.replace(needle, token)
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    text = _RUNNER_FRAME.sub("", text)
    if ctx.pid is not None:
        # Only where a PID is named as one: a bare number may be a real value.
        text = re.sub(rf"(\b(?:pid|PID|process)[ =:]+){ctx.pid}\b", r"\1<pid>", text)
    return "\n".join(line.rstrip() for line in text.split("\n"))
