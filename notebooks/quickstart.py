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
# # Quick start: simulate, replay, read the tables
#
# This notebook plays UNO games in memory with `unosim.simulate`, watches one game turn by turn with
# `unosim.replay`, and reads the result tables with **polars** (what unosim uses) and **pandas**.
# It needs no dataset and runs from any working directory. The rules the engine plays are in
# `docs/rules.md` at the root of the repository.

# %%
import os

import polars as pl

import unosim
from unosim.pipeline.paths import data_dir, repo_root

GAMES = int(os.environ.get("UNOSIM_NOTEBOOK_GAMES", "20000"))   # the test suite runs with fewer
print(f"unosim {unosim.__version__}; repository {repo_root()}; datasets in {data_dir()}")
print("variants:", unosim.variant_names())

# %% [markdown]
# ## Simulate
#
# One call plays `games` matches of a variant. Here every match is a single round
# (`match_mode = "single_round"`), seat 0 plays the `greedy_points` strategy and the other three seats
# play `random` (the reference policy of `docs/rules.md §5`). The same seed always gives the same games.

# %%
res = unosim.simulate("classic", players=4, games=GAMES, seed=1, lineup="greedy_points,random*",
                      rules={"match_mode": "single_round"})
res

# %% [markdown]
# `res.rounds` has one row per round, `res.seats` one row per seat per round and `res.matches` one row
# per match; `docs/rules.md §1.13` defines every column.

# %%
res.rounds.head()

# %%
wins = (res.seats.group_by("seat", "policy").agg(wins=pl.col("won").sum(), rounds=pl.len())
        .with_columns(win_rate=pl.col("wins") / pl.col("rounds")).sort("seat"))
wins

# %% [markdown]
# With four seats a fair share is 25 %. Seat 0's strategy moves it away from that share; the next cell
# says by how much, computed from the table above.

# %%
seat0 = wins.filter(pl.col("seat") == 0).row(0, named=True)
others = wins.filter(pl.col("seat") != 0)["win_rate"].mean()
print(f"seat 0 ({seat0['policy']}) wins {seat0['win_rate']:.1%} of {seat0['rounds']:,} rounds; "
      f"the random seats win {others:.1%} each on average")

# %% [markdown]
# ## Replay one game
#
# `replay` prints the turn-by-turn log of one game (here game 3 of seed 1 in a 3-player no_mercy
# round): every card played, drawn, stacked, every knock-out.

# %%
log = unosim.replay("no_mercy", players=3, seed=1, game=3, rules={"match_mode": "single_round"})
print("\n".join(log.splitlines()[:25]))
print(f"... {len(log.splitlines()):,} lines in all")

# %% [markdown]
# ## The same tables in pandas
#
# `to_pandas` gives pandas frames with pyarrow-backed columns (exact integer and boolean types) and
# categorical labels, so the usual pandas idioms work.

# %%
rounds = res.to_pandas("rounds")
rounds.dtypes.head(8)

# %%
summary = rounds["n_turns"].describe(percentiles=[0.1, 0.5, 0.9])
print(f"a round lasts {summary['mean']:.1f} turns on average; half of them end within "
      f"{summary['50%']:.0f} turns, nine in ten within {summary['90%']:.0f}")
rounds.groupby("end", observed=True).size()

# %%
seats = res.to_pandas("seats")
seats.groupby("policy", observed=True)["won"].mean()

# %% [markdown]
# ## Datasets on disk
#
# Studies (`unosim study run SPEC --out data`, or `make demo`) write datasets under the repository's
# `data/` directory, which `unosim.pipeline.paths.data_dir()` finds from anywhere (or set `UNOSIM_DATA`).
# `notebooks/house_rules.py` runs a study end to end.

# %%
found = sorted(p.parent.name for p in data_dir().glob("*/manifest.json"))
print("datasets:", found or "none yet (run `make demo`)")
