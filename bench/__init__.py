"""unosim's benchmarks, outside the package: ``python -m bench`` (``make bench``) runs :mod:`bench.run`;
``python -m bench.compile`` times the engine builds' compiles."""
