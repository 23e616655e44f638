"""The engine's build machinery, never compiled itself: which build a call needs (:mod:`.builds`), where
builds are cached (:mod:`.cache`, :mod:`.numba_cache`), how they load and compile (:mod:`.loader`,
:mod:`.jit`, announced by :mod:`.notice`) and how a run compiles the builds it needs ahead
(:mod:`.prepare`). Editing these files never makes anyone recompile: the engine's digest hashes the kernel
folders only."""
