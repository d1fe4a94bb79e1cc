"""Helpers the tests share with the benchmarks: real servers and real clients."""
