"""axe-core on a page of the built site, with the shortcuts that make every page affordable: code identical
to the English twin's and texts whose contrast another of their kind stood for are left out."""

from __future__ import annotations

import json

MARK_TWIN_BLOCKS = """english => {
    const seen = new Set(english);
    let marked = 0;
    for (const block of document.querySelectorAll("pre > code")) {
        if (seen.has(block.outerHTML)) { block.setAttribute("data-twin-block", ""); marked++; }
    }
    return marked;
}"""


# Texts with the same colour, font, shadow and cumulative opacity over the same painted background have
# the same contrast ratio, which is all axe's color-contrast rule computes: the first one of each kind
# that axe reads stands for the rest. Only leaves are marked; what stands for others is shown (not hidden,
# clipped to a pixel or outside the page) and holds a letter or a digit (axe passes over icon glyphs).
# Across pages, a translation's text also stands aside when its English twin page had a checked text of its
# kind, the background told by the colours painted under it (a background image is never the same twice).
# Returns how many were marked and the kinds this page had checked.
MARK_CONTRAST_TWINS = """english => {
    const opacity = new Map(), painter = new Map(), backdrop = new Map(), seen = new Set();
    const checkedElsewhere = new Set(english || []);
    const opacityOf = el => {
        if (!el) return 1;
        if (!opacity.has(el)) opacity.set(el, parseFloat(getComputedStyle(el).opacity) * opacityOf(el.parentElement));
        return opacity.get(el);
    };
    const paints = s => s.backgroundImage !== "none" || s.backgroundColor !== "rgba(0, 0, 0, 0)";
    const painterOf = el => {
        if (!el) return -1;
        if (!painter.has(el)) {
            painter.set(el, paints(getComputedStyle(el)) ? painter.size : painterOf(el.parentElement));
        }
        return painter.get(el);
    };
    const backdropOf = el => {  // the colours painted under an element, nearest first
        if (!el) return "";
        if (!backdrop.has(el)) {
            const s = getComputedStyle(el), below = backdropOf(el.parentElement);
            const image = s.backgroundImage !== "none";
            const own = image ? `image#${painterOf(el)}@${location.pathname}` : s.backgroundColor;
            backdrop.set(el, paints(s) ? `${own}>${below}` : below);
        }
        return backdrop.get(el);
    };
    let marked = 0;
    const kinds = new Set();
    for (const el of document.body.querySelectorAll("*")) {
        if (el.childElementCount || !el.textContent.trim()) continue;
        if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
        const box = el.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1 || box.right + scrollX <= 0 || box.bottom + scrollY <= 0) continue;
        if (!/[\\p{L}\\p{N}]/u.test(el.textContent)) continue;
        const s = getComputedStyle(el);
        const text = [s.color, s.fontSize, s.fontWeight, s.fontStyle, s.textShadow, s.webkitTextStrokeColor,
                      s.mixBlendMode, opacityOf(el)].join("|");
        const key = `${text}|${painterOf(el)}`, kind = `${text}|${backdropOf(el)}`;
        if (seen.has(key) || checkedElsewhere.has(kind)) { el.setAttribute("data-contrast-twin", ""); marked++; }
        else { seen.add(key); kinds.add(kind); }
    }
    return [marked, [...kinds]];
}"""


def axe_violations(
    tab, twin_blocks: list[str] | None, twin_kinds: list[str] | None = None
) -> tuple[list[str], int, int, list[str]]:
    """Serious and critical axe-core violations of the page in ``tab`` (see :func:`run_axe`), as lines."""
    found, twins, contrast_twins, kinds = run_axe(tab, twin_blocks, twin_kinds)
    violations = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    return violations, twins, contrast_twins, kinds


def run_axe(
    tab, twin_blocks: list[str] | None, twin_kinds: list[str] | None = None
) -> tuple[list[dict], int, int, list[str]]:
    """axe-core's violations of the page in ``tab``, and how much was left out.

    Code and output blocks are rendered from one snippet and one record for both languages, and
    checking their highlighted tokens is most of axe's time. In a translated page, the code of a block
    that is byte-identical to one of its English twin's, already checked there, is left out; the block
    around it (its localized copy button, its tab) and every other block are checked in both languages.
    Colour contrast, about 85 % of what is left (47 of 55 s on theory 03), is checked once per kind of
    text (see ``MARK_CONTRAST_TWINS``), on a translated page across it and its English twin (``twin_kinds``,
    the kinds checked there); every other rule sees every element. Returns the violations, the blocks left
    out, the texts whose contrast another of their kind stood for, and the kinds this page checked."""
    from axe_playwright_python.sync_playwright import Axe

    twins = tab.evaluate(MARK_TWIN_BLOCKS, twin_blocks) if twin_blocks else 0
    contrast_twins, kinds = tab.evaluate(MARK_CONTRAST_TWINS, twin_kinds)
    # The rule's own selector leaves the twins out: an exclude list of thousands of nodes costs axe more than
    # checking them would. Excluding an element excludes what it holds, which is right for a twin block.
    tab.evaluate(Axe().axe_script)
    tab.evaluate("axe.configure({rules: [{id: 'color-contrast', selector: '*:not([data-contrast-twin])'}]})")
    context = json.dumps({"exclude": [["[data-twin-block]"]]}) if twins else "document"
    # Only violations are read: node lists of passes (7.8 MB of JSON on theory 03) would double axe's time.
    found = tab.evaluate(f"axe.run({context}, {{resultTypes: ['violations']}})")["violations"]
    return found, twins, contrast_twins, kinds
