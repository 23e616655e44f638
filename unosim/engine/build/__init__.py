"""The engine's build machinery: which kernels a study needs (builds), where their compiled code lives
(cache, numba_cache), how they load (loader) and compile (prepare, notice). Never compiled itself."""
