"""Benchmarks: each runnable from the Makefile, printing a table and writing JSON to
``bench/results/``; their figures go in ``docs/benchmarks.md``."""
