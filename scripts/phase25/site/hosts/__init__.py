"""What hands pages to the site's code: MkDocs' events (``adapter``, with each plugin's quirks apart in
``quirks`` and the search index's input in ``search_input``), a plain Python-Markdown extension for any
other engine, and the built site's own files: every file the site adds claimed by one owner (``files``), then
written where it lands (``site_files``). It may import every other room; no room imports it."""
