"""The site: page sources and their directives, the renderers, highlighting, the UI strings, labs and
translations, and the MkDocs adapter that hands MkDocs' events to them."""
