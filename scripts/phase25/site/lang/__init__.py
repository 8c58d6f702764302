"""The site's two languages: every string the site shows, in English and in Spanish, the provenance line put into
words, and the Spanish pages held to the English ones (parity of directives and headings, freshness stamps).
Besides the core it imports only page/, whose reading of a page source the translation checks share."""
