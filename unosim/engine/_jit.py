"""The one ``njit`` of the engine's kernel modules: numba's, cached per build (:mod:`.cache`).

Every kernel module imports ``njit`` from here (absolutely, so all builds share this module), which
registers, before the first function is decorated, the cache locator that files a build's functions
under ``<engine version>/<build key>/`` with the engine's source digest as their stamp. numba picks a
function's locator when it is decorated, so the registration must come first.
"""

from __future__ import annotations

from numba import njit as _njit
from numba.core import caching, types
from numba.core.registry import CPUDispatcher

from .builds import Build
from .cache import DIGEST, build_dir

#: kernel package name -> its build: ``unosim.engine`` itself is the full build from the start, so a
#: kernel function a test (or a user) calls straight from ``unosim.engine.<module>`` is cached with that
#: build, not compiled a second time under numba's default per-path cache
PACKAGES: dict = {__package__: Build.full()}


class BuildLocator(caching._CacheLocator):
    """Files the functions of a registered kernel package under their build's cache directory."""

    def __init__(self, directory, lineno):
        self._directory = directory
        self._lineno = lineno

    def get_cache_path(self):
        return str(self._directory)

    def get_source_stamp(self):
        return DIGEST   # the directory is already per digest; an index of another engine never loads

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        build = PACKAGES.get(kernel_package(py_func.__module__))
        if build is None:
            return None
        locator = cls(build_dir(build), py_func.__code__.co_firstlineno)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None   # not writable: numba's own locators (or no cache) take over
        return locator


_impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl   # renamed in numba 0.68
if BuildLocator not in _impl._locator_classes:
    _impl._locator_classes.insert(0, BuildLocator)


def kernel_package(module: str) -> str:
    """The kernel package a kernel module belongs to: its package, or its package's for a mechanism's
    wing (``<package>.mechanics.<name>``, engine/mechanics/)."""
    package = module.rpartition(".")[0]
    return package.removesuffix(".mechanics")


# the kernel functions called from Python (every other one only from compiled code)
ENTRY_POINTS = ("run_games", "card_floor", "card_early")


class Dispatcher(CPUDispatcher):
    """A kernel function called from compiled code compiles once for the argument types, not once per
    constant argument: numba would otherwise specialise a callee for every literal it is called with
    (``emit(g, code, s, 0, 0)`` and ``emit(g, code, s, a, b)`` were two compiles). The full build held 90
    such copies of 46 functions: 225 CPU-s of compile against 126 without them. LLVM still propagates
    the constants into the callees it inlines."""

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
        if package != __package__ and func.__name__ not in ENTRY_POINTS:
            kwargs.setdefault("no_cpython_wrapper", True)
            kwargs.setdefault("no_cfunc_wrapper", True)
        dispatcher = _njit(**kwargs)(func)
        if isinstance(dispatcher, CPUDispatcher):   # not under NUMBA_DISABLE_JIT=1 (a plain function)
            dispatcher.__class__ = Dispatcher
        return dispatcher

    if args and callable(args[0]):
        return decorate(args[0])
    return decorate
