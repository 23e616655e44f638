"""Where compiled builds live: one directory per engine version, one per build inside it.

``<cache base>/unosim-engine-<digest>/<build key>/`` holds a build's numba cache files and its
``compiled`` marker. The digest is a hash of everything frozen into the machine code (the engine's
sources, the card tables, the protocol's constants), so a checkout at any path, or an installed wheel,
of the same engine finds the same builds; an edit anywhere in them makes a new directory, never a stale
load. The cache base is ``NUMBA_CACHE_DIR`` when set, else the per-user cache directory
(``platformdirs.user_cache_dir("unosim")``: ``~/.cache/unosim`` on Linux, honouring ``XDG_CACHE_HOME``),
else a per-user temporary directory.

numba's own locators key a cache on the source file's absolute path (so every clone recompiled) and
cannot tell two builds of one source file apart; :mod:`.numba_cache` registers a locator that files each
build's functions here instead. Pure Python: nothing here imports numba.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ...store.atomic import write_text_atomic
from .builds import Build

ENGINE_DIR = Path(__file__).resolve().parent.parent
_PACKAGE = ENGINE_DIR.parent
#: the engine's compiled code: its kernel folders and the switches of a build. The build machinery
#: (this folder) decides where, when and how loudly a build compiles and how it loads, never what it
#: compiles, so editing it does not make every user recompile; its decorator is the exception
KERNEL_SOURCES = ("features.py", "record", "policies", "mechanics", "core", "compiler/jit.py")
#: the modules outside the engine whose constants the kernels freeze into their machine code
FROZEN_MODULES = ("game/cards.py", "game/protocol.py", "game/custom_cards.py", "game/card_effects.py")
#: a build directory unused for this long is deleted when a new build compiles (a build is 5-40 MB)
STALE_AFTER_DAYS = 30
MARKER = "compiled"


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory):
            return True
    except OSError:
        return False


def cache_base() -> Path:
    """``NUMBA_CACHE_DIR`` when set, else the per-user cache directory, else a per-user temporary one.
    One cache serves ``make``, the CLI, Python sessions, notebooks, tests and joblib/dask workers."""
    from platformdirs import user_cache_dir

    explicit = os.environ.get("NUMBA_CACHE_DIR")
    candidates = [Path(explicit)] if explicit else []
    candidates += [Path(user_cache_dir("unosim")),
                   Path(tempfile.gettempdir()) / f"unosim-{os.getuid() if hasattr(os, 'getuid') else 0}"]
    return next((c for c in candidates if _writable(c)), candidates[-1])


def source_digest() -> str:
    """A hash of every file whose content the compiled code depends on."""
    from ...game import protocol

    kernel = [path for name in KERNEL_SOURCES
              for path in ((ENGINE_DIR / name,) if name.endswith(".py") else sorted((ENGINE_DIR / name).glob("*.py")))]
    digest = hashlib.sha256()
    for path in (*kernel, *(_PACKAGE / m for m in FROZEN_MODULES)):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    # the constants as generated: the rule slots come from unosim.game.rule_table, whose prose is not frozen in
    digest.update(repr(sorted(protocol.GENERATED.items())).encode())
    return digest.hexdigest()[:16]


DIGEST = source_digest()
#: this engine version's builds, whatever the checkout's path
CACHE_DIR = cache_base() / f"unosim-engine-{DIGEST}"


def build_dir(build: Build) -> Path:
    return CACHE_DIR / build.key


def is_warm(build: Build) -> bool:
    """Whether the build has been compiled into the cache (its marker is written after its first
    successful call)."""
    return (build_dir(build) / MARKER).is_file()


def warm_builds() -> list[Build]:
    """The builds of this engine version found compiled in the cache."""
    found = []
    for marker in CACHE_DIR.glob(f"*/{MARKER}"):
        try:
            found.append(Build.from_key(marker.parent.name))
        except ValueError:
            continue
    return found


def compile_seconds(build: Build) -> float | None:
    """How long the build took to compile here, as its marker recorded."""
    try:
        return float(json.loads((build_dir(build) / MARKER).read_text())["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def recorded_compiles() -> list[tuple[Build, float]]:
    """Every build of any engine version under the cache base with its recorded compile time (they
    calibrate the estimate of the next compile on this machine)."""
    out = []
    for marker in CACHE_DIR.parent.glob(f"unosim-engine-*/*/{MARKER}"):
        try:
            out.append((Build.from_key(marker.parent.name), float(json.loads(marker.read_text())["seconds"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


def mark_compiled(build: Build, seconds: float) -> None:
    """Record a finished compile (and prune the builds of old engine versions); a read-only cache is
    not an error (the compile then repeats next time)."""
    try:
        write_text_atomic(build_dir(build) / MARKER, json.dumps({"seconds": round(seconds, 1)}) + "\n")
        prune_stale_builds(CACHE_DIR.parent)
    except OSError:
        pass


def mark_used(build: Build) -> None:
    """A warm build was loaded: its marker's time is its last use (what pruning goes by)."""
    try:
        os.utime(build_dir(build) / MARKER)
    except OSError:
        pass


def prune_stale_builds(base: Path, now: float | None = None) -> list[Path]:
    """Delete the other engine versions' directories under ``base`` unused for more than
    :data:`STALE_AFTER_DAYS`.

    Every edit or upgrade of the engine makes a new directory; without pruning they pile up. A
    directory's last use is the newest modification time of its builds' markers, else of the directory
    itself (a build still compiling). One another process is removing or filling is skipped, never an
    error. Returns the directories removed.
    """
    cutoff = (time.time() if now is None else now) - STALE_AFTER_DAYS * 86400
    removed = []
    for version in base.glob("unosim-engine-*"):
        try:
            stamps = [m.stat().st_mtime for m in version.glob(f"*/{MARKER}")] or [version.stat().st_mtime]
            if version != CACHE_DIR and version.is_dir() and max(stamps) < cutoff:
                shutil.rmtree(version)
                removed.append(version)
        except OSError:
            continue
    return removed


@contextmanager
def compile_lock(build: Build, on_wait: Callable[[], None]) -> Iterator[None]:
    """Held while a build compiles: another process needing the same cold build (a second test worker, a
    second notebook) calls ``on_wait`` and waits here, then loads the build from the cache instead of
    compiling it again. Without a writable cache it does not lock."""
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        fd = os.open(CACHE_DIR / f"{build.key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)   # closing the descriptor releases the lock
