# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Which house rules make a better game? A study end to end
#
# Three popular house rules (`docs/rules.md §4`) against the official classic game, at a 4-player
# table where everybody plays the reference `random` policy:
#
# * **stacking** (`stacking = "any_draw"`): a Draw Two or Wild Draw Four can be answered with another
#   draw card, and the last player in the chain draws everything;
# * **7-0** (`seven_o = true`): a 7 swaps hands with a chosen player, a 0 passes every hand on;
# * **draw until playable** (`draw_until_playable = true`): a player without a legal card keeps drawing.
#
# The notebook writes a study spec, runs it into a dataset under the repository's `data/` directory
# (or `$UNOSIM_DATA`), reads the tables and turns the numbers into sentences. A *better* game here
# means two measurable things: **shorter rounds** and **fairer seats** (win rates closer to 1/4 each).

# %%
import os

import polars as pl

from unosim import analysis
from unosim.store.reader import open_dataset
from unosim.pipeline.paths import data_dir
from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study

GAMES = int(os.environ.get("UNOSIM_NOTEBOOK_GAMES", "20000"))   # per cell; the test suite runs fewer
HOUSE_RULES = {"stacking": {"stacking": "any_draw"}, "seven_o": {"seven_o": True},
               "draw_until_playable": {"draw_until_playable": True}}

# %% [markdown]
# ## The study spec
#
# The same thing as a TOML file under `analyses/studies/` (see `analyses/studies/house_rules.toml` for
# the full-size study), written as a Python dict. `common_random_numbers` makes every cell deal the
# same shuffled decks game by game, so each house rule is compared with the official game on identical
# deals — a paired comparison, far more precise than two independent samples.

# %%
spec = {
    "study": {"name": "notebook_house_rules", "seed": 2024, "games": GAMES, "mode": "single_round",
              "common_random_numbers": True},
    "variants": {"official": {"base": "classic", "rules": {"n_blank": 0}},
                 **{name: {"base": "classic", "rules": {"n_blank": 0, **rule}}
                    for name, rule in HOUSE_RULES.items()}},
    "grid": [{"variants": ["official", *HOUSE_RULES], "players": [4], "lineups": ["random"]}],
    "comparisons": [{"axis": "variant", "a": "official", "b": name} for name in HOUSE_RULES],
}
study = parse_study(spec)
summary = run_study(study, data_dir(), n_jobs=1, force=True, progress=False)
print(f"{summary.games_run:,} games in {summary.seconds:.1f} s -> {summary.path}")

# %% [markdown]
# ## Reading the dataset
#
# `open_dataset` checks the files against the manifest and returns lazy polars frames.

# %%
ds = open_dataset(summary.path)
lengths = analysis.length_summary(ds.rounds).filter(pl.col("metric") == "n_turns")
lengths.select("variant", "estimate", "ci_low", "ci_high", "q50", "q90", "n")

# %%
wins = analysis.win_rates(ds.seats)
fairness = (wins.group_by("variant")
            .agg(spread=pl.col("estimate").max() - pl.col("estimate").min(),
                 best_seat=pl.col("seat").get(pl.col("estimate").arg_max()))
            .sort("variant"))
fairness

# %% [markdown]
# ## Paired comparisons with the official game
#
# `analysis.comparisons` runs the spec's `[[comparisons]]`: for each house rule, the mean difference in
# turns per round (house rule − official) with a 95 % confidence interval, paired game by game.

# %%
compare_wins, compare_lengths = analysis.comparisons(ds)
turns = compare_lengths.filter(pl.col("metric") == "n_turns")
turns.select("b", "mean_a", "mean_b", "estimate", "ci_low", "ci_high", "p_value", "paired")

# %% [markdown]
# ## What the numbers say
#
# The sentences below are computed from the tables above, so they stay true whatever the game count
# (with few games the intervals are wide and more differences come out "not clear").

# %%
def verdict(row: dict) -> str:
    change = row["estimate"] / row["mean_a"]
    if row["ci_low"] > 0:
        return f"makes rounds longer: {row['mean_b']:.1f} turns instead of {row['mean_a']:.1f} ({change:+.0%})"
    if row["ci_high"] < 0:
        return f"makes rounds shorter: {row['mean_b']:.1f} turns instead of {row['mean_a']:.1f} ({change:+.0%})"
    return (f"changes the length by no clear amount ({row['estimate']:+.1f} turns, 95 % CI "
            f"{row['ci_low']:+.1f} to {row['ci_high']:+.1f})")


spread = dict(fairness.select("variant", "spread").iter_rows())
for row in turns.iter_rows(named=True):
    print(f"* {row['b']} {verdict(row)}; seat win rates spread over {spread[row['b']]:.1%} "
          f"(official: {spread['official']:.1%}).")

shortest = turns.sort("mean_b").row(0, named=True)
if shortest["ci_high"] < 0:
    print(f"\nShortest game: {shortest['b']}, about {-shortest['estimate']:.1f} turns per round fewer than "
          f"the official rules.")
else:
    print("\nNo house rule gives clearly shorter rounds than the official rules at this sample size.")

# %% [markdown]
# Seat spreads are noisy: with `n` rounds a single seat's win rate has a standard error of about
# `sqrt(0.25 · 0.75 / n)`, so differences of a few tenths of a percent need hundreds of thousands of
# games. Run the full `analyses/studies/house_rules.toml` (`make study STUDY=house_rules`, then
# `make report STUDY=house_rules`) for the complete picture at every table size.
