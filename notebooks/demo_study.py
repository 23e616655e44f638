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
# # The demo study
#
# Loads the dataset of `analyses/studies/demo.toml` (run `make demo` first, or point `UNOSIM_DATASET` at
# another study dataset), computes win rates by seat with Wilson intervals and draws the report's chart.
# The dataset is found from the repository (`data/demo`, or `$UNOSIM_DATA/demo`), whatever the working
# directory.

# %%
# %matplotlib inline
import os

import polars as pl

from unosim import analysis
from unosim.reporting import plots
from unosim.store.reader import open_dataset
from unosim.pipeline.paths import data_dir

dataset = open_dataset(os.environ.get("UNOSIM_DATASET") or data_dir() / "demo")
print(dataset.name, "-", len(dataset.manifest["study"]["cells"]), "cells")

# %% [markdown]
# The tables are lazy polars frames; the seats table has one row per seat per round.

# %%
dataset.seats.group_by("variant", "players", "lineup").len().sort("variant", "players").collect()

# %%
wins = analysis.win_rates(dataset.seats)
wins.filter(pl.col("lineup") == "random")

# %%
fig = plots.win_rate_by_position(wins.filter(pl.col("lineup") == "random"), "seat", "lineup random")
display(fig)  # noqa: F821  (IPython's display, defined in every notebook)
