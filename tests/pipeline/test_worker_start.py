"""What a study worker imports when it starts: only what a job needs, each in a fresh interpreter.

A worker's start is paid once per worker and per run, on the run's critical path (the first job waits
for it): these tests fail when an import creeps back in (polars, the tournaments) or when the BLAS
probe that ``skip_blas_probe`` spares breaks what the process may still do.
"""

from __future__ import annotations

import json
import subprocess
import sys


def _run(code: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_worker_imports_neither_polars_nor_the_strategies():
    seen = _run("import json, sys\n"
                "import unosim.pipeline.worker\n"
                "print(json.dumps(sorted(m for m in ('polars', 'pandas', 'scipy', 'numba', 'unosim.strategies', "
                "'unosim.analysis', 'unosim.reporting') if m in sys.modules)))")
    assert seen == []


def test_the_package_still_offers_its_entry_points_on_first_use():
    names = _run("import json, unosim\n"
                 "print(json.dumps({n: callable(getattr(unosim, n)) for n in unosim.__all__ if n[0] != '_' "
                 "and n not in ('ENGINE_VERSION',)}))")
    assert names == {n: True for n in ("RuleSet", "get_variant", "variant_names", "Results", "design", "ladder", "replay",
                                       "simulate", "tournament", "tune")}


def test_the_blas_probe_is_skipped_and_scipy_and_numba_still_work():
    facts = _run("import json, sys\n"
                 "from unosim.pipeline.worker import skip_blas_probe\n"
                 "skip_blas_probe()\n"
                 "import numba.np.arraymath as am\n"
                 "probe_skipped = 'scipy.linalg' not in sys.modules and not am._HAVE_BLAS\n"
                 "import numpy as np, numba, scipy.linalg\n"
                 "solved = float(scipy.linalg.solve([[2.0]], [1.0])[0])\n"
                 "dot = numba.njit(lambda a: np.dot(a, a))(np.arange(3.0))\n"
                 "print(json.dumps({'skipped': probe_skipped, 'solved': solved, 'dot': float(dot), "
                 "'entry_left': 'scipy.linalg.cython_blas' in sys.modules and "
                 "sys.modules['scipy.linalg.cython_blas'] is None}))")
    assert facts == {"skipped": True, "solved": 0.5, "dot": 5.0, "entry_left": False}



# how the build loads: "ours" (unosim.engine.compiler.numba_cache) or "numba's" own load, which refreshes the target
# context first
_LOAD = """
import sys
if sys.argv[1] == "numba's":   # as with a numba that lacks the steps unosim's load calls
    from unosim.engine.compiler import numba_cache
    numba_cache.LOAD_WITHOUT_REFRESH = False
"""
_PLAY = """
import hashlib, json
import numba, numpy as np
import unosim
seats = unosim.simulate("no_mercy", players=3, games=300, seed=5).seats
refreshed = "numba.np.polynomial.polynomial_functions" in sys.modules
dot = numba.njit(lambda a: np.dot(a, a))(np.arange(3.0))   # a compile after the load
print(json.dumps({"seats": hashlib.sha256(seats.write_ipc(None).getvalue()).hexdigest(), "refreshed": refreshed,
                  "dot": float(dot)}))
"""


def test_a_build_loads_without_numbas_lowering_registries_and_plays_the_same_games():
    """Loading a build skips numba's target-context refresh (unosim.engine.compiler.numba_cache): the games equal
    those of numba's own load, and a compile later in the process still finds every lowering."""
    # the session's build, compiled first if it is not in the cache yet (a compile refreshes the context)
    subprocess.run([sys.executable, "-c", "from unosim.engine import Build, kernel; kernel(Build.full())"], check=True)
    ours, numbas = (_run(_LOAD + _PLAY, how) for how in ("ours", "numba's"))
    assert numbas["refreshed"] and not ours["refreshed"]
    assert ours["seats"] == numbas["seats"]
    assert ours["dot"] == numbas["dot"] == 5.0
