"""One renderer per directive kind (a snippet's code and output, the bodies of notes and pending blocks, the
execution and drift reports, the atlas, the diagrams, the mark of a changed output), the table that finds the
renderer of each kind, and ``assemble``, which takes a page's directives out before Markdown runs and puts their
HTML back after it. It imports page/, lang/ and downloads/ (an output links to what is published beside it)."""
