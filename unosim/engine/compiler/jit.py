"""The one ``njit`` of the engine's kernel modules: numba's, cached per build (:mod:`.cache`).

Every kernel module imports ``njit`` from here (absolutely, so all builds share this module), which
imports :mod:`.numba_cache` before the first function is decorated: numba picks a function's cache
locator when it is decorated, and that module's locator files a build's functions under
``<engine version>/<build key>/``.
"""

from __future__ import annotations

from numba import njit as _njit
from numba.core import caching, types
from numba.core.registry import CPUDispatcher

from .numba_cache import BuildCache, kernel_package

#: the package of the full build, whose functions tests call from Python
_ENGINE_PACKAGE = __package__.rpartition(".")[0]
# the kernel functions called from Python (every other one only from compiled code)
ENTRY_POINTS = ("run_games", "card_floor", "card_floor_over", "card_early")


class Dispatcher(CPUDispatcher):
    """A kernel function called from compiled code compiles once for the argument types, not once per
    constant argument: numba would otherwise specialise a callee for every literal it is called with
    (``emit(g, code, s, 0, 0)`` and ``emit(g, code, s, a, b)`` were two compiles), which made the full
    build's compile nearly twice as long (docs/results/engine_compile.json). LLVM still propagates the
    constants into the callees it inlines."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def njit(*args, **kwargs):
    """``numba.njit`` with ``cache=True`` and ``nogil=True``; in a build's package (not ``unosim.engine``'s
    own modules, which tests call into) a function only compiled code calls gets no Python and C wrappers."""
    kwargs.setdefault("cache", True)
    # a study's jobs run on threads of one process (unosim.pipeline.runner): the games release the GIL
    kwargs.setdefault("nogil", True)

    def decorate(func):
        package = kernel_package(func.__module__)
        if package != _ENGINE_PACKAGE and func.__name__ not in ENTRY_POINTS:
            kwargs.setdefault("no_cpython_wrapper", True)
            kwargs.setdefault("no_cfunc_wrapper", True)
        dispatcher = _njit(**kwargs)(func)
        if isinstance(dispatcher, CPUDispatcher):   # not under NUMBA_DISABLE_JIT=1 (a plain function)
            dispatcher.__class__ = Dispatcher
            if type(dispatcher._cache) is caching.FunctionCache:
                dispatcher._cache.__class__ = BuildCache
        return dispatcher

    if args and callable(args[0]):
        return decorate(args[0])
    return decorate
