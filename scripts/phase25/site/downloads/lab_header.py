"""What a lab page offers right under its title, as the tutorials readers know do (PyTorch's, d2l's): the lab's
zip, the notebook alone, and, where the site names its repository on GitHub (``repo_url``), the notebook's source
and a Colab link. Every sentence comes from the language's strings, its links put in after its words are escaped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from ..lang import strings
from ..page.markup import escape, linked

GITHUB = re.compile(r"https://github\.com/([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100}?)(?:\.git)?/?")
SOURCE_REF = "main"  # the branch the published site is built from


@dataclass(frozen=True)
class LabFiles:
    """A lab's downloads, named relative to its page, with their sizes in bytes."""

    lang: str
    name: str  # "01-autograd-by-hand"
    zip_name: str
    zip_size: int
    notebook_name: str
    notebook_size: int


def github(repo_url: str | None) -> tuple[str, str] | None:
    """(owner, repository) when ``repo_url`` is a GitHub repository's address, else None."""
    found = GITHUB.fullmatch(repo_url or "")
    return (found[1], found[2]) if found else None


def _link(href: str, label: str, *, download: bool = False) -> str:
    return f'<a href="{escape(href)}"{" download" if download else ""}>{escape(label)}</a>'


def header(files: LabFiles, repo_url: str | None) -> str:
    """The admonition a lab page shows under its title."""
    lang = files.lang
    zip_kb, notebook_kb = files.zip_size // 1024, files.notebook_size // 1024
    items = [
        linked(
            strings.text(lang, "lab_download", size=zip_kb, file="{file}"),
            file=_link(files.zip_name, files.zip_name, download=True),
        ),
        linked(
            strings.text(lang, "lab_notebook", size=notebook_kb, file="{file}"),
            file=_link(files.notebook_name, files.notebook_name, download=True),
        ),
    ]
    if repo := github(repo_url):
        path = f"{repo[0]}/{repo[1]}/blob/{SOURCE_REF}/docs/{lang}/labs/{quote(files.notebook_name)}"
        items.append(
            linked(
                strings.text(lang, "lab_source", source="{source}", colab="{colab}"),
                source=_link(f"https://github.com/{path}", strings.text(lang, "lab_source_label")),
                colab=_link(f"https://colab.research.google.com/github/{path}", "Colab"),
            )
        )
    body = "".join(f"<li>{item}</li>" for item in items)
    title = escape(strings.text(lang, "lab_download_title"))
    return f'<div class="admonition tip lab-downloads"><p class="admonition-title">{title}</p><ul>{body}</ul></div>'
