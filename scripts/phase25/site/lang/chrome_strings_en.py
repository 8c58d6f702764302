"""The words the site writes about a record's own words, in English (merged into strings_en.py): the names of the
atlas's registration stages (the record keeps its ids; the page says them in its language), the reproduction
kit's README, the titles of a renderer's error boxes, and the theme's words where the site says them otherwise
(workarounds.localized)."""

STRINGS: dict[str, str] = {
    "atlas_js_stage_import torch": "import torch",
    "atlas_js_stage_+ torch._dynamo": "+ torch._dynamo",
    "atlas_js_stage_+ torch._inductor": "+ torch._inductor",
    "atlas_js_stage_+ OpInfo's samples run": "+ OpInfo's samples run",
    # The words of the pictures a snippet draws (an SVG's <text>), as the page of this language shows them
    "picture: DDP, step 2: the backward of each layer and the all-reduce of each bucket, as measured (the times "
    "differ on every run)": "DDP, step 2: the backward of each layer and the all-reduce of each bucket, as measured "
    "(the times differ on every run)",
    "picture: main thread": "main thread",
    "picture: gloo threads": "gloo threads",
    "picture: rest of the backward": "rest of the backward",
    "picture: all-reduce issued": "all-reduce issued",
    "picture: all-reduce running": "all-reduce running",
    "picture: ms since the backward began on that rank": "ms since the backward began on that rank",
    "picture: bucket {n}": "bucket {n}",
    "picture: rank {n}": "rank {n}",
    "theme_skip": "Skip to content",
    "theme_footer": "Footer",
    "unknown_snippet_title": "Unknown snippet",
    "drift_report_title": "Drift report",
    "reproduce_readme": "# Reproduce the outputs of {folder}\n\nEach output on the page was printed by a snippet on "
    "the site's build machine. To print it on yours:\n\n```bash\npython3 -m venv .venv && .venv/bin/pip install "
    "torch=={torch}\n.venv/bin/python reproduce.py {example}\n```\n\nIt runs the snippet with the site's pins (two "
    "threads, AVX2 kernels, MKL's reproducible branch), then says\nwhich parts of the output matched the record, "
    "shows a diff of what did not, and prints both machines side by\nside. Snippets here: {ids}.\n",
}
