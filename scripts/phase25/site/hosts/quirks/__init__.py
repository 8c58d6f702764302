"""The plugins' quirks, one module per plugin, each to be dropped the day its plugin changes."""
