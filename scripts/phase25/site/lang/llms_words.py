"""The words the Markdown twins and llms.txt add, in each language (site/hosts/llms.py): apart from the strings
modules so that they travel with the feature; a language with no words of its own here gets the default's, and
tests/test_llms.py holds every language of the site to having its own."""

from __future__ import annotations

from .strings import DEFAULT

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "twin_link": "This page as Markdown, with every output it shows",
        "intro": "Every page of this site teaches a PyTorch internal by the output of code that ran. Each link "
        "below is a page as Markdown: its prose, the code it shows and each recorded output as it was printed, with "
        "the line that says on which machine, with which torch and when it ran. A table drawn from every record (the "
        "execution report, the drift reports, the dispatcher atlas) is linked to the HTML page that shows it.",
    },
    "es": {
        "twin_link": "Esta página en Markdown, con cada salida que muestra",
        "intro": "Cada página de este sitio enseña una pieza interna de PyTorch con la salida de código que se "
        "ejecutó. Cada enlace de abajo lleva a una página en Markdown: su texto, el código que muestra y cada salida "
        "registrada tal como se imprimió, con la línea que dice en qué máquina, con qué torch y cuándo se ejecutó. "
        "Las tablas que se construyen con todos los registros (el informe de ejecución, los informes de deriva, el "
        "atlas del dispatcher) enlazan a la página HTML que las muestra.",
    },
}


def said(lang: str, key: str) -> str:
    return WORDS.get(lang, WORDS[DEFAULT])[key]
