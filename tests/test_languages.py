"""Languages are declared once: an entry of the i18n plugin in mkdocs.yml and a strings module each. No other
file names a language, and a toy third language, added that way, builds strictly (tests/third_language.py)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from conftest import EARLY, REPO, early_result, start_niced
from phase25.core.errors import SourceError
from phase25.site.lang import languages, strings

PACKAGE = REPO / "scripts" / "phase25"
DECLARING = {
    PACKAGE / "site" / "lang" / "languages.py",
    *PACKAGE.glob("site/lang/strings_*.py"),
    PACKAGE / "site" / "hosts" / "stop_words.py",  # lunr's code for the stop-word list of its core, not the site's
}


def config(tmp_path: Path, entries: str) -> Path:
    path = tmp_path / "mkdocs.yml"
    path.write_text(f"site_url: !ENV [X, 'https://x/']\nplugins:\n  - search\n  - i18n:\n      languages:\n{entries}")
    return path


def test_the_languages_are_the_i18n_plugins_the_default_first_each_with_its_strings(tmp_path):
    found = languages.declared(
        config(tmp_path, "        - locale: es\n        - locale: en\n          default: true\n")
    )
    assert [(x.code, x.default, x.decimal) for x in found] == [("en", True, "."), ("es", False, ",")]
    assert strings.LANGUAGES == tuple(x.code for x in languages.declared()) and strings.DEFAULT == "en"
    assert strings.number("es", 1.25, 2) == "1,25" and strings.number("en", 1.25, 2) == "1.25"


def test_the_default_languages_pages_lie_at_the_root_and_each_others_under_its_code():
    assert [languages.prefix(code) for code in strings.LANGUAGES] == ["", "es/"]
    assert [entry["link"] for entry in languages.selector()] == ["./", "es/"]


@pytest.mark.parametrize(
    ("entries", "said"),
    [
        (
            "        - locale: en\n          default: true\n        - locale: fr\n",
            "no strings module (site/lang/strings_fr.py)",
        ),
        ("        - locale: en\n        - locale: es\n", "exactly one of them the default"),
        (
            "        - locale: en\n          default: true\n        - locale: en\n          default: true\n",
            "exactly one",
        ),
        ("        - locale: ../x\n          default: true\n", "not a language code"),
        ("", "must list the site's languages"),
    ],
    ids=["no strings", "no default", "two defaults", "a path for a code", "none"],
)
def test_a_language_declared_wrongly_is_refused_naming_the_file(tmp_path, entries, said):
    with pytest.raises(SourceError, match=re.escape(said)) as caught:
        languages.declared(config(tmp_path, entries))
    assert caught.value.path == "mkdocs.yml"


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_no_other_file_of_the_site_names_a_language():
    named = []
    for path in sorted(set(PACKAGE.rglob("*.py")) - DECLARING):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        named += [
            f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in strings.LANGUAGES and id(node) not in skip
        ]
    for path in sorted((REPO / "overrides").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        named += [f"{path.relative_to(REPO)}: {m.group()}" for m in re.finditer(r'\b(?:hreflang|lang)="\w+"', text)]
    assert named == []


def start_third_language(scratch: Path) -> dict:
    return {"build": start_niced([sys.executable, str(REPO / "tests" / "third_language.py"), str(scratch)], cwd=REPO)}


EARLY["third_language"] = start_third_language  # started at collection, beside the first tests


@pytest.fixture(scope="module")
def third_language() -> Path:
    scratch, done = early_result("third_language", "a toy third language")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return scratch / "site"


@pytest.mark.slow
def test_a_third_language_is_a_folder_of_pages_a_strings_module_and_an_entry(third_language):
    site = third_language
    page = (site / "fr" / "theory" / "01-dispatcher-and-aten" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr"' in page and "Exécuté sur" in page  # its own words, from its strings module
    switcher = re.findall(r'href="([^"]*)" hreflang="(\w+)" class="md-select__link"', page)
    assert [lang for _, lang in switcher] == ["en", "es", "fr"]
    assert dict((lang, href) for href, lang in switcher)["es"] == "../../../es/theory/01-dispatcher-and-aten/"
    assert "Page introuvable" in (site / "404.html").read_text(encoding="utf-8")  # the 404 page in every language
    assert '"fr"' in (site / "search" / "search_index.json").read_text(encoding="utf-8")[:300]
    assert (site / "fr" / "labs" / "01-autograd-by-hand" / "index.html").is_file()  # its labs, rebuilt
    english = (site / "theory" / "01-dispatcher-and-aten" / "index.html").read_text(encoding="utf-8")
    assert "Exécuté sur" not in english and '<html lang="en"' in english
