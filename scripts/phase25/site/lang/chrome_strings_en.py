"""The words the site writes about a record's own words, in English (merged into strings_en.py): the names of the
atlas's registration stages (the record keeps its ids; the page says them in its language), the reproduction
kit's README, the titles of a renderer's error boxes, and the theme's words where the site says them otherwise
(quirks.material.localized)."""

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
    # How a page's prose says "the X section above/below", "exercise N below", "X (above)": read by the reader's
    # path check (tools/page_checks.py), one regular expression each, with the groups it names; and the words
    # that mean "above" and those left out of a section's name
    "reader_path_section_ref": r"\bthe\s+(?P<name>(?:(?!the\b|of\b|a\b)[\w`.'’-]+\s+){1,3}?)section\s+"
    r"(?P<dir>above|below)\b",
    "reader_path_exercise_ref": r"(?i)\bexercise\s+(?P<n>\d+)[,)]?\s+(?P<dir>above|below)\b",
    "reader_path_aside_ref": r"(?P<name>[\w`'’.-]+\s+[\w`'’.-]+)\s+\((?P<dir>above|below)\)",
    "reader_path_up": "above",
    "reader_path_stop": "the a an of and on in from as",
    "reader_path_exercise": "Exercise",
    # The words the Markdown twins and llms.txt add (site/hosts/llms.py)
    "llms_twin_link": "This page as Markdown, with every output it shows",
    "llms_intro": "Every page of this site teaches a PyTorch internal by the output of code that ran. Each link "
    "below is a page as Markdown: its prose, the code it shows and each recorded output as it was printed, with "
    "the line that says on which machine, with which torch and when it ran. A table drawn from every record (the "
    "execution report, the drift reports, the dispatcher atlas) is linked to the HTML page that shows it.",
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
