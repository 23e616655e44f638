"""How long engine builds take to compile from an empty cache (``python -m bench.compile``).

Each build compiles in a fresh process with an empty ``NUMBA_CACHE_DIR``, as a first use does; the
figure is that process's CPU seconds (import included), which load from other processes on a shared
machine inflates less than wall time. ``unosim.engine.compiler.builds.COMPILE_SECONDS``, the model behind every
compile notice's estimate, is fitted to these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from unosim.engine.compiler.builds import MECHANISMS, Build

_CHILD = """
import json, resource, sys, time
t = time.perf_counter()
from unosim import engine
engine.kernel(engine.Build.from_key(sys.argv[1]))
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu_s": usage.ru_utime + usage.ru_stime, "wall_s": time.perf_counter() - t}))
"""

#: the builds whose compile times the model is fitted to: the core alone, each mechanism and policy tier
#: on top of it, a family with its house rules, and everything
DEFAULT_BUILDS = ("core.basic", *(f"{m}.basic" for m in MECHANISMS), "core.weighted", "core.lookahead",
                  Build.full().key)


def compile_seconds(key: str) -> dict[str, float]:
    """CPU and wall seconds of a process compiling build ``key`` from an empty cache."""
    with tempfile.TemporaryDirectory(prefix="unosim-compile-") as cache:
        out = subprocess.run([sys.executable, "-c", _CHILD, key], capture_output=True, text=True, check=True,
                             env={**os.environ, "NUMBA_CACHE_DIR": cache})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="*", default=DEFAULT_BUILDS, help="build keys (default: the model's)")
    args = parser.parse_args(argv)
    print(f"{'build':<60} {'CPU s':>7} {'wall s':>7}")
    for key in args.builds:
        figures = compile_seconds(Build.from_key(key).key)
        print(f"{key:<60} {figures['cpu_s']:>7.1f} {figures['wall_s']:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
