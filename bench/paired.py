"""``python -m bench.paired OLD NEW``: kernel throughput of two checkouts, in paired, interleaved runs.

A restructure of the engine must not slow its kernels. On a shared, loaded machine absolute figures
drift from minute to minute, so each pair runs the two checkouts one after the other (alternating which
goes first), each in a fresh process with this interpreter and the checkout first on ``PYTHONPATH``, and
reports NEW ÷ OLD in rounds per CPU second (the best of three calls after a warm-up): the median ratio
per variant and its range over the pairs. 4 players, ``random``, single rounds, like
:func:`bench.run.kernel_rate` (``--players`` and ``--lineup`` for others: ``--lineup 'lookahead,random*'
--games 200`` is the expert's figure of :mod:`bench.lookahead`); ``--build own`` measures each call's own
engine build (compiled first if cold) instead of the full build.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import json, sys, time
from unosim import engine
from unosim.play.simulate import resolve, run_compiled
variant, games, which, players, lineup = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
rules = {"match_mode": "single_round", **({"n_blank": 0} if variant == "classic" else {})}
rs, specs = resolve(variant, players, lineup, rules)
build = engine.Build.full() if which == "full" else engine.build_for(rs, specs)
run_compiled(rs, players, specs, 0, 0, max(2, games // 30), build=build)
rates = []
for k in range(3):
    c0 = time.process_time()
    run_compiled(rs, players, specs, k + 1, 0, games, build=build)
    rates.append(games / (time.process_time() - c0))
print(json.dumps(max(rates)))
"""
#: games per call, about a CPU second each on the development machine
GAMES = {"classic": 60_000, "minions": 40_000, "spin": 30_000, "no_mercy": 20_000, "flip": 40_000}


def rate(checkout: str, variant: str, build: str, players: int = 4, lineup: str = "random",
         games: int | None = None) -> float:
    """Rounds per CPU second of one fresh process on ``checkout``."""
    out = subprocess.run(["nice", "-n", "10", sys.executable, "-c", _CHILD, variant, str(games or GAMES[variant]),
                          build, str(players), lineup],
                         cwd=checkout, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": checkout})
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the checkout measured as the baseline")
    parser.add_argument("new", help="the checkout compared with it")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--build", choices=("full", "own"), default="full")
    parser.add_argument("--variants", default=",".join(GAMES), help=f"comma-separated, of {list(GAMES)}")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="random")
    parser.add_argument("--games", type=int, default=None,
                        help="games per timed call (default: about a CPU second of random play per variant)")
    args = parser.parse_args(argv)
    for variant in args.variants.split(","):
        ratios = []
        for i in range(args.pairs):
            order = (args.old, args.new) if i % 2 == 0 else (args.new, args.old)
            rates = {checkout: rate(checkout, variant, args.build, args.players, args.lineup, args.games)
                     for checkout in order}
            ratios.append(rates[args.new] / rates[args.old])
        ratios.sort()
        print(f"{variant:9s} {args.players}p {args.lineup}: new/old median {statistics.median(ratios):.3f}, "
              f"range {ratios[0]:.3f}..{ratios[-1]:.3f} over {args.pairs} pairs ({args.build} build, "
              f"load {os.getloadavg()[0]:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
