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
# # Design search: which rules and deck give the game you want?
#
# `unosim.design` searches the house rules and the card counts of a variant for the designs that best
# meet your objectives (here: shorter rounds and more comebacks, without rounds that end with no
# winner), each design played against the base game on the same deals. The search is tiny here, so it
# runs in a minute; `docs/tutorials/design.md` has a real one. The top designs are then re-played on
# fresh games (a seed the search never used), because a design picked as the best of many looks better
# on the search's games than it is (`docs/rules.md §8.8`).

# %%
import os

import matplotlib.pyplot as plt
import polars as pl

import unosim
from unosim.pipeline.paths import data_dir

GAMES = int(os.environ.get("UNOSIM_NOTEBOOK_GAMES", "20000"))   # the test suite runs with fewer
OUT = data_dir() / "designs"
trials = unosim.design(
    name="notebook_shorter_classic", variant="classic", players=4, seed=1,
    objectives={"length": "less", "comebacks": "more"},
    constraints={"no_winner": {"max": 0.01}},
    space={"rules": ["hand_size", "stacking", "jump_in", "seven_o"], "ranges": {"hand_size": [4, 9]},
           "deck": {"draw_two": [4, 12], "wild": [2, 8]}},
    budget={"games": 50 * GAMES}, first_games=max(200, GAMES // 10), batch=12,
    top=3, confirm_games=max(2000, GAMES), out=OUT, say=print)
print(f"{len(trials)} designs tried, {trials['pareto'].sum()} on the Pareto front")

# %% [markdown]
# `trials` has one row per design tried: its numbers on the search's games, the base game's on the same
# games (`base_…`), the searched values, and whether it is on the Pareto front and was confirmed.

# %%
trials.filter(pl.col("confirmed")).select("trial", "games", "length", "base_length", "comebacks",
                                          "base_comebacks", "hand_size", "stacking", "deck.draw_two")

# %% [markdown]
# ## The front
#
# Each grey point is a design the search tried; blue points are the feasible Pareto front (no design is
# both shorter and richer in comebacks); the star is the base game.

# %%
done = trials.filter(pl.col("state") == "complete")
front = done.filter(pl.col("pareto")).sort("length")
fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(done["length"], done["comebacks"], s=8, c="#bbbbbb", label="designs tried")
ax.plot(front["length"], front["comebacks"], "o-", c="#1f6fb4", label="Pareto front")
ax.scatter([done["base_length"].mean()], [done["base_comebacks"].mean()], marker="*", s=200, c="black",
           label="classic")
ax.set_xlabel("mean turns per round")
ax.set_ylabel("comebacks (share of won rounds)")
ax.legend()
plt.show()

# %% [markdown]
# The confirmed designs' findings — checked claims on fresh games, with Holm's adjustment over them — are
# in the confirmation study's report, which opens with the design verdict and the Pareto chart:

# %%
print(OUT / "notebook_shorter_classic" / "confirm" / "notebook_shorter_classic_confirm" / "report.html")
