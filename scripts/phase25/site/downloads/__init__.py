"""What is published beside the pages for a reader to take away: the lab notebooks and their zips, each page's
reproduction kit, and where a record's published files and its largest artifacts live in the built site.
It imports page/ and lang/, never a renderer."""
