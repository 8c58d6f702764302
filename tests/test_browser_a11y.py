"""No serious or critical axe-core violation on any page of both languages, and the shortcuts that make axe
affordable on every page hide nothing they should not.
"""

from __future__ import annotations

from axe_check import axe_violations, run_axe
from browsing import BROWSER_MARKS
from page_visits import PROBES, VISITORS

pytestmark = BROWSER_MARKS


def test_no_serious_or_critical_accessibility_violation(visits, figures):
    axe = {p: v["axe"] for p, v in visits.items()}
    twins = {p: found["twin_blocks"] for p, found in axe.items() if found["twin_blocks"]}
    figures.append(
        f"axe: {sum(twins.values())} code blocks of {len(twins)} translated pages identical to their "
        f"English twin's, checked there; the contrast of {sum(found['contrast_twins'] for found in axe.values())} "
        "texts stood for by another of their kind on the same page or on its English twin"
    )
    seconds = {row: sum(v["seconds"][row] for v in visits.values()) for row in ("load", *PROBES)}
    slowest = sorted(visits, key=lambda p: -sum(visits[p]["seconds"].values()))[:3]
    figures.append(
        f"browser: {len(visits)} visits, {VISITORS} at once: "
        + ", ".join(f"{row} {spent:.0f} s" for row, spent in seconds.items())
        + " in all; the slowest: "
        + ", ".join(f"/{p} {visits[p]['seconds']['load']:.1f} + {visits[p]['seconds']['axe']:.1f} s" for p in slowest)
    )
    assert {p: found["violations"] for p, found in axe.items() if found["violations"]} == {}


def test_axe_leaves_out_only_code_identical_to_the_english_twins(page):
    """The shortcut of :func:`axe_violations` hides nothing it should not: unreadable code that the
    English page also has is reported there; the same code changed in the translation is reported here."""
    unreadable = '<pre><code style="color:#eee;background:#fff">{}</code></pre>'
    english = [unreadable.format("print(1)")]
    page.set_content(f'<html lang="es"><title>t</title><main>{english[0]}{unreadable.format("print(2)")}</main></html>')
    twin_code = page.evaluate("[...document.querySelectorAll('pre > code')].map(b => b.outerHTML)")[:1]
    violations, twins, _, _ = axe_violations(page, twin_code)
    assert twins == 1
    assert violations == ["color-contrast (serious): [['pre:nth-child(2) > code']]"]  # the changed block only
    page.set_content(f'<html lang="en"><title>t</title><main>{english[0]}</main></html>')
    assert [v.split(" ")[0] for v in axe_violations(page, None)[0]] == ["color-contrast"]


CONTRAST_CASES = """
<div style="background:#fff"><span id="same-1" style="color:#eee">abc</span>
  <span id="same-2" style="color:#eee">abc</span></div>
<div style="background:#fff"><span class="k" style="color:#000">abc</span>
  <span id="recoloured" class="k" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="visibility:hidden;color:#eee">abc</span>
  <span id="after-invisible" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="display:none;color:#eee">abc</span>
  <span id="after-hidden" style="color:#eee">abc</span></div>
<div style="background:#fff">
  <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);color:#eee">abc</span>
  <span id="after-clipped" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="position:absolute;left:-9999px;color:#eee">abc</span>
  <span id="after-off-page" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="color:#eee">( )</span>
  <span id="after-punctuation" style="color:#eee">abc</span></div>
<div style="background:#fff"><span style="color:#595959">abc</span>
  <span style="opacity:.3"><span id="faded" style="color:#595959">abc</span></span></div>
<div style="background:#fff"><span style="color:#595959">abc</span></div>
<div style="background:#fff">
  <span id="other-background" style="color:#595959;background:#ddd">abc</span></div>
<div style="background:#fff"><b style="color:#000">abc</b>
  <i id="holds-a-child" style="color:#000">abc <span style="color:#eee">xyz</span></i></div>
"""


def test_contrast_is_checked_once_per_kind_of_text_and_no_unreadable_text_hides_behind_a_twin(page):
    """The shortcut of :func:`run_axe` leaves out only texts another text of their kind stood for: a second
    identical text is not checked again, and every text that differs in colour, opacity or background, or
    whose stand-in axe could not read (hidden, clipped, off the page, punctuation only), is checked."""
    page.set_content(f'<html lang="en"><title>t</title><main><h1>Cases</h1>{CONTRAST_CASES}</main></html>')
    found, _, contrast_twins, _ = run_axe(page, None)
    unreadable = {tuple(n["target"]) for v in found if v["id"] == "color-contrast" for n in v["nodes"]}
    expected = "same-1 recoloured after-invisible after-hidden after-clipped after-off-page after-punctuation faded"
    assert {"#" + i for i in expected.split()} | {"#holds-a-child > span"} <= {t[0] for t in unreadable}
    assert ("#same-2",) not in unreadable and page.locator("#same-2[data-contrast-twin]").count() == 1
    assert page.locator("#other-background[data-contrast-twin], i[data-contrast-twin]").count() == 0
    assert contrast_twins >= 1
    assert [v["id"] for v in found] == ["color-contrast"], "each case differs in its contrast only"


def test_a_translation_leaves_out_only_kinds_of_text_its_english_twin_checked(page):
    """Across a page and its translation, a kind of text checked on the English page stands for the same kind
    on the Spanish one; a kind the English page did not have (another colour, the same colour on another
    background, over an image) is checked on the Spanish page."""
    english = '<div style="background:#fff"><span style="color:#767676">abc</span></div>'
    page.set_content(f'<html lang="en"><title>t</title><main><h1>t</h1>{english}</main></html>')
    found, _, _, kinds = run_axe(page, None)
    assert found == [] and len([k for k in kinds if k.startswith("rgb(118, 118, 118)")]) == 1
    spanish = (
        '<div style="background:#fff"><span id="same-kind" style="color:#767676">xyz</span></div>'
        '<div style="background:#eee"><span id="other-backdrop" style="color:#767676">xyz</span></div>'
        '<div style="background:#fff"><span id="other-colour" style="color:#eee">xyz</span></div>'
        '<div style="background:#fff url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)">'
        '<span id="over-an-image" style="color:#767676">xyz</span></div>'
    )
    page.set_content(f'<html lang="es"><title>t</title><main><h1>t</h1>{spanish}</main></html>')
    found, _, contrast_twins, _ = run_axe(page, None, kinds)
    assert page.locator("#same-kind[data-contrast-twin], h1[data-contrast-twin]").count() == contrast_twins == 2
    unreadable = {n["target"][0] for v in found if v["id"] == "color-contrast" for n in v["nodes"]}
    assert unreadable == {"#other-backdrop", "#other-colour"}  # #767676 on #eee and #eee on #fff: too faint
    assert page.locator("#over-an-image[data-contrast-twin]").count() == 0
