"""One page: its source as Markdown renders it (front matter, headings, what fenced code and HTML comments hide),
the directives it holds and the table of their kinds, what a renderer is given and gives back (``context``:
Page, Problem, Rendered), escaping and highlighting, and the review of its prose against a changed output.
This room imports no other room of the site: every other one reads pages through it."""
