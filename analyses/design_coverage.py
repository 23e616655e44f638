"""Coverage of the confirmed effect over repeated design searches: the winner's curse, and its removal.

    python analyses/design_coverage.py [--searches 200] [--out docs/results/design.json]

Each repetition runs a small design search of its own seed (:func:`unosim.design.search.run_search`, the
searched space below, racing as in a real search), picks its top design as ``unosim design`` does
(:func:`unosim.design.confirm.select`), and compares two estimates of the top design's effect on mean turns
against the base game with its **true** effect (the difference of the two means over
:data:`TRUE_GAMES` games each on a seed no search or confirmation plays, computed once per design):

* the **search's** estimate (the design's number minus the base game's on the search games it was
  selected on): biased towards the objective's direction, since the top of many noisy numbers is the
  luckiest (the winner's curse, docs/rules.md §8.8);
* the **confirmation's** estimate and 95 % interval: the top design and the base game re-played on
  ``confirm_games`` games of the confirmation seed, compared as the confirmation study compares them
  (:func:`unosim.analysis.effects.compare_cells`, paired by game: the cells share the seed).

The confirmation's interval should cover the true effect in 95 % of the repetitions. The space is chosen
so that the winner's curse is large: the searched designs' true lengths are close together (jump-in and
the count of zeros) compared with the noise of a few hundred search games.

tests/design/test_design_coverage.py runs :func:`repeat` on fewer searches and tests both properties; this
script writes the figures into ``--out`` (a table of docs/results/design.json, stamped with its own date,
commit and machine).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

VARIANT, PLAYERS, LINEUP = "classic", 4, "random"
SPACE = {"rules": ["jump_in"], "deck": {"n0": [0, 3]}}   # 8 designs, the base game (4 zeros) not one
SEARCH = {"first_games": 50, "batch": 8, "budget": {"games": 1_450}}   # one batch of 8 designs, racing
CONFIRM_GAMES = 2_000
TRUE_GAMES = 100_000
TRUE_BASE_GAMES = 400_000   # the base game's error is in every true effect: it is kept smaller
TRUE_SEED = 2**62 + 12_345   # no search or confirmation stream (spawned from small spec seeds) is this
RESULTS = Path(__file__).parents[1] / "docs" / "results" / "design.json"
CAPTION = "The confirmed effect of the top design over repeated searches"


@dataclass(frozen=True)
class Repetition:
    """One search: its top design, the search's and the confirmation's estimates of its effect on mean
    turns, and the true effect."""

    seed: int
    design: str
    search_estimate: float
    confirmed: float
    ci_low: float
    ci_high: float
    true: float

    @property
    def covered(self) -> bool:
        return self.ci_low <= self.true <= self.ci_high


def spec(seed: int):
    from unosim.design.spec import parse
    return parse({"name": f"coverage_{seed}", "variant": VARIANT, "players": PLAYERS, "lineup": LINEUP,
                  "objectives": {"length": "less"}, "seed": seed, "confirm_games": CONFIRM_GAMES, "top": 1,
                  "space": SPACE, **SEARCH})


def _rounds(overrides: dict, seed: int, games: int):
    from unosim.design.evaluate import ruleset
    from unosim.play.simulate import simulate
    return simulate(ruleset(VARIANT, overrides), players=PLAYERS, games=games, seed=seed, lineup=LINEUP).rounds


def length_effect(overrides: dict, seed: int, games: int) -> dict:
    """The design's effect on turns per round against the base game on ``games`` games of ``seed``, paired
    by game, as the confirmation study's effects table gives it (estimate, ci_low, ci_high)."""
    from unosim.analysis.effects import compare_cells
    rows = compare_cells(_rounds({}, seed, games), _rounds(overrides, seed, games), PLAYERS, paired=True)
    return next(r for r in rows if r["measure"] == "length")


@functools.cache
def _true_base_turns() -> float:
    return float(_rounds({}, TRUE_SEED, TRUE_BASE_GAMES)["n_turns"].mean())


def true_effect(overrides: dict) -> float:
    """The design's mean turns minus the base game's, each over many games of :data:`TRUE_SEED` (its
    standard error about a seventh of the confirmation interval's)."""
    base = _true_base_turns()
    return float(_rounds(overrides, TRUE_SEED, TRUE_GAMES)["n_turns"].mean() - base)


def repeat(searches: int, work: Path, first_seed: int = 1) -> list[Repetition]:
    """``searches`` repetitions (seeds ``first_seed ..``), each a search in ``work`` and its confirmation;
    the true effect of each top design is simulated once."""
    from unosim.design import confirm
    from unosim.design.search import run_search, seeds
    truth: dict[str, float] = {}
    done = []
    for seed in range(first_seed, first_seed + searches):
        s = spec(seed)
        study = run_search(s, work / s.name, n_jobs=1)
        top = confirm.select(confirm.designs(study), s, top=1)[0]
        key = json.dumps(top.overrides, sort_keys=True)
        if key not in truth:
            truth[key] = true_effect(top.overrides)
        effect = length_effect(top.overrides, seeds(seed)["confirm"], CONFIRM_GAMES)
        done.append(Repetition(seed, key, top.values["length"] - top.base["length"], effect["estimate"],
                               effect["ci_low"], effect["ci_high"], truth[key]))
    return done


def lowest_count(n: int, level: float = 0.95, tail: float = 0.001) -> int:
    """The lower ``tail`` quantile of Binomial(n, level): fewer covering intervals than this reject the
    nominal coverage at that tail probability."""
    from scipy.stats import binom
    return int(binom.ppf(tail, n, level))


def summary(done: list[Repetition]) -> list[list[str]]:
    bias_search = np.array([r.search_estimate - r.true for r in done])
    bias_confirmed = np.array([r.confirmed - r.true for r in done])
    n, covered = len(done), sum(r.covered for r in done)

    def mean_se(x):
        return f"{x.mean():+.2f} (standard error {x.std(ddof=1) / np.sqrt(len(x)):.2f})"
    return [["searches", f"{n}"],
            ["distinct top designs", f"{len({r.design for r in done})}"],
            ["confirmation intervals covering the true effect", f"{covered} of {n} ({covered / n:.1%}; nominal 95%)"],
            ["fewest covering intervals the nominal rate allows (binomial 0.1% quantile)", f"{lowest_count(n)}"],
            ["mean error of the search's estimate (turns)", mean_se(bias_search)],
            ["mean error of the confirmation's estimate (turns)", mean_se(bias_confirmed)]]


def main() -> None:
    from unosim.game.version import commit, machine
    from unosim.store.atomic import write_text_atomic
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    measured = {"date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S%z"), "commit": commit()[:10],
                "machine": f"{machine()}, load average {os.getloadavg()[0]:.1f} at the start"}
    with tempfile.TemporaryDirectory() as work:
        rows = summary(repeat(args.searches, Path(work)))
    for figure, value in rows:
        print(f"{figure}: {value}")
    table = {"caption": CAPTION, "measured": measured,
             "setting": f"{VARIANT}, {PLAYERS} players, `{LINEUP}` in every seat, single rounds; objective shorter "
                        f"rounds; the space jump_in × 0–3 zeros (8 designs; the base game has 4); each search one batch "
                        f"of 8 designs racing over 50 / 150 / 450 games; the top design confirmed on "
                        f"{CONFIRM_GAMES:,} fresh games; true effects from {TRUE_GAMES:,} games per design and "
                        f"{TRUE_BASE_GAMES:,} of the base game "
                        f"(`python analyses/design_coverage.py --searches {args.searches}`)",
             "columns": ["figure", "value"], "rows": rows}
    data = json.loads(args.out.read_text(encoding="utf-8"))
    data["tables"] = [t for t in data["tables"] if t["caption"] != CAPTION] + [table]
    write_text_atomic(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
