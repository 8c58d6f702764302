"""Maintainers' tools around the site: the benchmark, the torch upgrade, retraining the running example,
and building the site in a subprocess. Nothing else imports this folder."""
