"""Benchmarks: `make bench`. Not timed tests; each figure is a ratio against a baseline measured
in the same run, so machines of different speed give comparable numbers."""
