"""The site, in five rooms of one concern each: ``page`` (one page: its source, its directives, what a renderer is
given), ``lang`` (the two languages), ``downloads`` (what is published beside the pages), ``kinds`` (one renderer
per directive kind) and ``hosts`` (MkDocs' events and the Python-Markdown extension that hand pages to the rest).
A room imports only the rooms before it in that list (tests/test_layers.py); ``commands`` stays here."""
