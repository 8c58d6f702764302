"""The drift page's strings in English: its reader summary, its table, and the execution report's pointer
to it (merged into strings_en.py)."""

STRINGS: dict[str, str] = {
    "drift_region": "Every snippet compared, and how its output changed",
    "drift_readers_title": "What a reader will notice",
    "drift_readers_missing": "Nobody has written yet why these changes matter to a reader: each is listed with its "
    "first changed line.",
    "drift_release_title": "Changed with the release, torch {a} → {b}",
    "drift_build_title": "Changed with the build, not the release: {a} → {b}",
    "drift_build_rule": "The rule: the older side is the CPU-only wheel and the newer one PyPI's CUDA build, run on a "
    "machine without a GPU. A change is the build's when it is gone once the lines naming CUDA, NVIDIA or a GPU are "
    "dropped and the cells of a table column headed CUDA are masked; in the atlas, a kernel gained under a key that "
    "names CUDA is the build's. What a CUDA build registers is read from the dispatcher's tables; running it needs "
    "a GPU.",
    "drift_quiet": "Not listed: {quiet} outputs that differ only in line numbers inside torch's own files or in "
    "lines the snippet declares machine-dependent, and {only} snippets with no output under torch {a} to compare "
    "({failed} of them fail under it; the table says why).",
    "drift_diff_link": "diff",
    "drift_diff_lines": "Diff of the recorded output ({n} lines)",
    "drift_download": "This diff is {n} lines ({size} KB), too long for a page; download it:",
    "drift_failed": "fails under torch {torch}: {error}",
    "atlas_drift_more": "and {n} more (all in the diff)",
    "atlas_drift_kernels_gained_build": "{n} overloads gained a kernel under a CUDA key (the build's, not the "
    "release's):",
    "drift_current": "What the last upgrade changed in these outputs:",
    "drift_earlier": "Earlier reports, kept as history:",
    "changed_with_build": "changed with the CUDA build",
}
