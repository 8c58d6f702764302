"""Tab markers and snippet captions in the browser, as a reader sees them at 1400 and 390 px.

Every tab set the site writes (device tabs, linked by Material's ``content.tabs.link`` or not, and the rank tabs
nested in a device tab) shows one marker, under the tab the reader chose with the mouse or the keyboard. Material
moves its own marker (the ``::before`` of ``.tabbed-labels``) only in the sets its script mounts; a nested set
inherits the position of its parent's. So the marker is measured wherever it is drawn, the indicator or a label's
underline, and compared with the chosen label's box. A snippet's caption (its file, the lines shown, "changed in
2.15") has a line of its own: the block after it starts below it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browsing import DESKTOP, PHONE, show_in_page
from phase25.core import environment, records
from phase25.core.catalog import Catalog
from phase25.core.devices import DEVICES, EMULATION_FIELDS, emulated
from phase25.core.limits import MAX_RANKS
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

pytestmark = [pytest.mark.slow, pytest.mark.browser]
WIDTHS = {"1400": DESKTOP, "390": PHONE}
SETS = ".snippet-outputs, .snippet-ranks"  # every tab set the site writes
# Each tab set a kind (devices linked or not, or ranks in a device set of some kind: its number of tabs in each)
# and a number; every details opened, so that a mouse can reach each set once the tab that holds it is open.
NUMBER_SETS = f"""() => {{
    document.querySelectorAll('details').forEach(d => d.open = true);
    const kind = set => {{
        const tabs = set.querySelectorAll(':scope > input').length, plural = tabs > 1 ? 's' : '';
        const own = set.matches('.snippet-ranks') ? 'ranks' : set.dataset.tabs ? 'devices, linked' : 'devices';
        const outer = set.parentElement.closest('.snippet-outputs');
        return `${{own}}, ${{tabs}} tab${{plural}}` + (outer ? ` in ${{kind(outer)}}` : '');
    }};
    return [...document.querySelectorAll('{SETS}')].map((set, n) => {{
        set.dataset.markerTest = n;
        return {{n, kind: kind(set), tabs: set.querySelectorAll(':scope > input').length}};
    }});
}}"""
# A nested set made visible: the tab that holds it chosen, and the tab that holds that one.
REVEAL = """set => {
    for (let block = set.closest('.tabbed-block'); block; block = block.parentElement.closest('.tabbed-block')) {
        const outer = block.closest('.tabbed-set'), at = [...block.parentElement.children].indexOf(block);
        outer.querySelectorAll(':scope > .tabbed-labels > label')[at].click();
    }
}"""
# Two frames drawn (or a tenth of a second, where a page draws no frame), then the animations given ended (or a
# second gone): a script that moves a marker has moved it, a transition has reached its end.
SETTLED = """async animations => {
    const waited = ms => new Promise(done => setTimeout(done, ms));
    await Promise.race([new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))), waited(100)]);
    await Promise.race([Promise.all(animations.map(a => a.finished.catch(() => null))), waited(1000)]);
}"""
# Where a set's marker is drawn once it has settled: Material's indicator (the ::before of its labels) and every
# label underlined, with the chosen label's box and the box the labels are seen in.
MARKERS = """async set => {
    await (SETTLED)(set.getAnimations({subtree: true}));
    const seen = colour => { const n = colour.match(/[\\d.]+/g) || []; return n.length === 3 || +n[3] > 0; };
    const labels = set.querySelector(':scope > .tabbed-labels'), box = labels.getBoundingClientRect();
    const all = [...labels.querySelectorAll(':scope > label')];
    const chosen = all[[...set.querySelectorAll(':scope > input')].findIndex(i => i.checked)];
    const drawn = [], before = getComputedStyle(labels, '::before');
    if (before.display !== 'none' && before.content !== 'none' && parseFloat(before.width) > 0
        && parseFloat(before.height) > 0 && seen(before.backgroundColor)) {
        const shift = before.transform === 'none' ? 0 : new DOMMatrix(before.transform).m41;
        const left = box.left + labels.clientLeft - labels.scrollLeft + parseFloat(before.left) + shift;
        drawn.push({by: 'indicator', left, width: parseFloat(before.width)});
    }
    for (const label of all) {
        const style = getComputedStyle(label), r = label.getBoundingClientRect();
        if (parseFloat(style.borderBottomWidth) > 0 && seen(style.borderBottomColor))
            drawn.push({by: 'underline', left: r.left, width: r.width});
    }
    const r = chosen.getBoundingClientRect();
    return {chosen: chosen.innerText.trim(), left: r.left, width: r.width, drawn,
            inView: r.left >= box.left - 1 && r.right <= box.right + 1 && r.width > 0};
}""".replace("SETTLED", SETTLED)


def marker_problems(tab, set_, how: str) -> list[str]:
    """What is wrong with a set's marker now: none, several, not under the chosen label, or out of sight."""
    found = set_.evaluate(MARKERS)
    where = f"{how}, {found['chosen']!r} chosen"
    box = (round(found["left"]), round(found["width"]))
    drawn = [(d["by"], round(d["left"]), round(d["width"])) for d in found["drawn"]]
    problems = []
    if not found["inView"]:
        problems.append(f"{where}: the chosen label is out of sight in its row")
    if len(drawn) != 1 or abs(drawn[0][1] - box[0]) > 1 or abs(drawn[0][2] - box[1]) > 1:
        problems.append(f"{where}: label at (left, width) {box}, marker(s) drawn {drawn}")
    return problems


def mouse_and_keyboard(tab, number: int, tabs: int) -> list[str]:
    """Each tab of one set clicked with the mouse, then the arrow keys from its first tab round to it again."""
    set_ = tab.locator(f'[data-marker-test="{number}"]')
    labels = set_.locator(":scope > .tabbed-labels > label")
    set_.evaluate(REVEAL)
    problems = []
    for index in range(tabs):
        labels.nth(index).click()
        problems += marker_problems(tab, set_, f"mouse on tab {index + 1}")
    labels.nth(0).click()
    set_.locator(":scope > input").nth(0).focus()
    for index in range(1, tabs + 1):
        tab.keyboard.press("ArrowRight")
        problems += marker_problems(tab, set_, f"ArrowRight to tab {index % tabs + 1}")
    labels.nth(0).click()
    return problems


def each_kind_followed(tab, wanted: set[str] | None = None) -> tuple[set[str], list[str]]:
    """The first set of each kind on the loaded page (of the kinds wanted) driven by mouse and keyboard: the
    kinds met, and what is wrong with their markers."""
    kinds, problems = set(), []
    for found in tab.evaluate(NUMBER_SETS):
        if found["kind"] in kinds or (wanted is not None and found["kind"] not in wanted):
            continue
        kinds.add(found["kind"])
        followed = mouse_and_keyboard(tab, found["n"], found["tabs"])
        problems += [f"set {found['n']} ({found['kind']}) {p}" for p in followed]
    return kinds, problems


SET_TAG = re.compile(r'<div class="tabbed-set tabbed-alternate (snippet-[^"]*)"([^>]*)>((?:<input [^>]*>)+)')


def kinds_in(html: str) -> set[str]:
    """The kinds of tab set a built page holds, read from its HTML as NUMBER_SETS names them in the browser (a
    set of rank tabs sits in the device set opened last: device sets are never nested)."""
    found, devices = set(), ""
    for classes, attributes, inputs in SET_TAG.findall(html):
        tabs = inputs.count("<input ")
        kind = "ranks" if "snippet-ranks" in classes else "devices, linked" if "data-tabs" in attributes else "devices"
        kind = f"{kind}, {tabs} tab{'s' if tabs > 1 else ''}"
        found.add(f"{kind} in {devices}" if kind.startswith("ranks") else kind)
        devices = devices if kind.startswith("ranks") else kind
    return found


def pages_of(built_site: Path, lang: str) -> list[tuple[str, str]]:
    """(path below the site's root, its HTML) of every page of a language that shows a snippet."""
    pages = sorted(
        p for p in built_site.rglob("index.html") if (p.parts[len(built_site.parts)] == "es") == (lang == "es")
    )
    found = [(p.parent.relative_to(built_site).as_posix() + "/", p.read_text(encoding="utf-8")) for p in pages]
    return [(path.removeprefix("./"), html) for path, html in found if 'class="snippet-source"' in html]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_kind_of_tab_set_marks_the_tab_chosen_by_mouse_and_by_keyboard(browser, served, built_site, lang):
    """Every kind of tab set the built pages of a language hold (by class, linked or not, number of tabs, and the
    kind of set a rank set sits in), on the first page that holds it: its first set of that kind, every tab
    clicked and reached with the arrow keys, at 1400 and 390 px. The marker is one, and under the chosen label."""
    base, _ = served
    chosen: dict[str, set[str]] = {}
    for path, html in pages_of(built_site, lang):
        new = kinds_in(html) - {k for kinds in chosen.values() for k in kinds}
        if new:
            chosen[path] = new
    every = {kind.split(" in ")[0] for kinds in chosen.values() for kind in kinds}
    assert {"ranks, 2 tabs", "ranks, 4 tabs", "devices, 2 tabs", "devices, linked, 1 tab"} <= every, chosen
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    problems = []
    for path, kinds in chosen.items():
        for width, viewport in WIDTHS.items():
            tab.set_viewport_size(viewport)
            tab.goto(f"{base}/{path}", wait_until="load")
            met, found = each_kind_followed(tab, kinds)
            assert met == kinds, f"/{path} at {width} px"
            problems += [f"/{path} at {width} px: {p}" for p in found]
    context.close()
    assert problems == [], "\n".join(problems)


def toy_record(snippet, device: str, layout, ranks: int) -> Record:
    """A record made for the test, each rank printing its number: nothing a page of the site shows."""
    provenance = {"python": "3.12.3", "torch": "2.13.0", "device_name": "NVIDIA H200" if device == "cuda" else "x"}
    if emulated(device):
        provenance |= {
            name: ["name=H200", "sm_90"] if name == "emulated_properties" else "x" for name in EMULATION_FIELDS
        }
    return Record(
        snippet=snippet.id,
        device=device,
        source_sha256=source_sha256(snippet, layout),
        env_key=environment.env_key(snippet, device),
        status="ok",
        exit_code=0,
        stdout="",
        stderr="",
        ranks=[
            {"stdout": f"rank {r} of {ranks}\n", "stderr": "", "collectives": {"all_reduce": 1}} for r in range(ranks)
        ],
        provenance=provenance,
        run={"date": "2026-12-01", "wall_s": 1.0, "git_commit": "abcdef1234567", "mode": "fresh"},
    )


def widest_page(toy, lang: str) -> str:
    """A page of its own: a snippet on every device the site knows, each run with the most ranks a header allows,
    once with every record (a linked set) and once with its GPU run still to capture (a set left unlinked)."""
    devices = "[" + ", ".join(f'"{d}"' for d in DEVICES) + "]"
    for name in ("every", "pending"):
        toy.add(f"page/{name}", "print('x')\n", devices=devices, extra=f"ranks = {MAX_RANKS}")
    for snippet in discover(toy.layout):
        for device in DEVICES if snippet.id == "page/every" else DEVICES[:-1]:
            records.save(toy.layout, toy_record(snippet, device, toy.layout, MAX_RANKS))
    view = Page(lang, f"docs/{lang}/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
    html, problems = render_markdown("::: snippet page/every\n\n::: snippet page/pending\n", view)
    assert problems == []
    return html


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_marker_follows_in_the_widest_sets_the_site_can_write(browser, served, toy, lang):
    """Three device tabs, linked or not, each holding MAX_RANKS rank tabs (the header's limit), in the site's
    theme: every tab of every set by mouse and keyboard, at 1400 and 390 px, where the labels of a phone's row
    are wider than the column."""
    base, _ = served
    html = widest_page(toy, lang)
    url = f"{base}/{'es/' if lang == 'es' else ''}theory/01-dispatcher-and-aten/"
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    show_in_page(tab, url, html)
    problems = []
    for width, viewport in WIDTHS.items():
        tab.set_viewport_size(viewport)
        tab.goto(url, wait_until="load")
        kinds, found = each_kind_followed(tab)
        wide = [f"devices{linked}, {len(DEVICES)} tabs" for linked in ("", ", linked")]
        assert kinds == {*wide, *(f"ranks, {MAX_RANKS} tabs in {devices}" for devices in wide)}, kinds
        problems += [f"{width} px: {p}" for p in found]
    context.close()
    assert problems == [], "\n".join(problems)


# Each caption seen (every fold opened): its box, the top of what follows it, and its number of lines.
CAPTIONS = """async () => {
    document.querySelectorAll('details').forEach(d => d.open = true);
    await (SETTLED)([]);
    return [...document.querySelectorAll('.snippet-source')].filter(c => c.checkVisibility()).map(caption => {
        const r = caption.getBoundingClientRect(), next = caption.nextElementSibling.getBoundingClientRect();
        const mark = caption.querySelector('.changed-mark');
        return {snippet: caption.closest('.snippet').dataset.snippet, bottom: r.bottom, next: next.top,
                lines: Math.round(r.height / parseFloat(getComputedStyle(caption).lineHeight)),
                mark: mark ? mark.getBoundingClientRect().bottom : null};
    });
}""".replace("SETTLED", SETTLED)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_snippet_caption_is_overlapped_by_the_block_after_it(browser, served, built_site, lang):
    """On every page of a language that shows a snippet, at 1400 and 390 px: each caption ends before the code
    block under it begins, a "changed in" mark included; on a phone some captions wrap, and their every line
    is clear of the block too."""
    base, _ = served
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    overlapped, wrapped, marks = [], 0, 0
    for path, _ in pages_of(built_site, lang):
        tab.set_viewport_size(DESKTOP)
        tab.goto(f"{base}/{path}", wait_until="load")
        for width, viewport in WIDTHS.items():
            tab.set_viewport_size(viewport)
            captions = tab.evaluate(CAPTIONS)
            assert captions, f"/{path}"
            for c in captions:
                if c["next"] < max(c["bottom"], c["mark"] or 0) - 0.5:
                    overlapped.append(f"/{path} at {width} px: {c['snippet']} ({c['bottom'] - c['next']:.1f} px)")
            wrapped += sum(c["lines"] > 1 for c in captions) if width == "390" else 0
            marks += sum(c["mark"] is not None for c in captions)
    context.close()
    assert wrapped and marks, "the phone wraps some captions, and some carry a mark"
    assert overlapped == []
