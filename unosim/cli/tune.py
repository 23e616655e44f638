"""The ``unosim tune`` command: search the ``weighted`` policy's weights for one seat against a field."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .values import rule_arguments, rule_overrides


def add_parser(sub) -> None:
    from ..strategies.tuning import DEFAULT_EVAL_DEALS, DEFAULT_START
    p = sub.add_parser("tune", help="search the weighted policy's weights (CMA-ES) for one seat against a field; "
                                    "prints the tuned policy and its win rate on fresh deals")
    p.add_argument("--variant", required=True, help="a registered variant (see `unosim variants`)")
    p.add_argument("--players", "-n", type=int, required=True, help="number of seats")
    p.add_argument("--against", default="random",
                   help="the other seats, in play order after the tuned one: one policy for all, one per seat, "
                        "or a '*' fill, e.g. 'keep_wilds,random*' (default: random)")
    p.add_argument("--budget", type=int, required=True, help="games the search may play (the fresh evaluation "
                                                             "plays 2 × players × --eval-deals more)")
    p.add_argument("--seed", type=int, default=1, help="the seed (default 1): same seed, same result")
    p.add_argument("--start", default=DEFAULT_START,
                   help=f"the weighted preset (or weighted(...) spec) to start from (default {DEFAULT_START})")
    p.add_argument("--weights", help="comma-separated w_* weights to search (default: all; the others keep "
                                     "the start's values)")
    rule_arguments(p, "--rule", "--set")
    p.add_argument("--eval-deals", type=int, default=DEFAULT_EVAL_DEALS,
                   help=f"fresh deals for the final evaluation (default {DEFAULT_EVAL_DEALS:,})")
    p.add_argument("--compare", default="",
                   help="other policies to evaluate in the tuned seat's place on the same fresh deals, "
                        "comma-separated (e.g. keep_wilds,by_colour)")
    p.add_argument("--n-jobs", type=int, default=-1, help="parallel workers (default -1: all cores); the result "
                                                          "does not depend on it")
    p.add_argument("--out", help="write the result (policy, evaluation, search history) as JSON to this file")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=cmd_tune)


def cmd_tune(args: argparse.Namespace) -> None:
    from ..store.atomic import write_text_atomic
    from ..strategies.tuning import tune
    result = tune(args.variant, args.players, budget=args.budget, against=args.against, seed=args.seed,
                  start=args.start, rules=rule_overrides(args) or None, weights=args.weights,
                  eval_deals=args.eval_deals, compare=args.compare, n_jobs=args.n_jobs,
                  progress=False if args.quiet else sys.stderr.isatty())
    print(result.summary())
    print(f"as a lineup (tuned seat first): '{result.lineup},{result.field}'")
    if args.out:
        out = Path(args.out)
        write_text_atomic(out, json.dumps(result.as_dict(), indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {out}")
