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
# # Which strategy wins? The built-in policies
#
# A **policy** takes every decision the rules leave to a player: which card to play, which colour to
# name, whom to swap hands with, whether to stack. unosim ships three, described exactly in
# `docs/rules.md §5`:
#
# * `random` — the reference: a uniformly random legal card, never draws by choice, never bluffs;
# * `greedy_points` — sheds its most valuable card first and stacks whenever it can;
# * `keep_wilds` — plays coloured cards from its longest colour and keeps wild cards for last.
#
# This notebook seats one strategy at seat 0 against three `random` players and asks how much it gains,
# with confidence intervals, and then compares strategies *fairly*: on exactly the same shuffled decks.

# %%
import os

import polars as pl

import unosim
from unosim import analysis
from unosim.game.policies import POLICIES

GAMES = int(os.environ.get("UNOSIM_NOTEBOOK_GAMES", "20000"))   # the test suite runs with fewer
SEED = 7
pl.DataFrame([{"policy": p.name, "parameters": ", ".join(p.params), "what it does": p.doc}
              for p in POLICIES.values()])

# %% [markdown]
# ## Seat 0 against three random players
#
# Each lineup plays the same `GAMES` single-round games of 4-player classic UNO (without blank cards).
# `analysis.win_rates` adds a 95 % Wilson interval to every win rate. Under the all-`random` lineup
# every seat should win about 1/4 of the rounds; differences there are the table's own seat effect.

# %%
LINEUPS = {"random": "random", "greedy_points": "greedy_points,random*", "keep_wilds": "keep_wilds,random*"}
RULES = {"n_blank": 0, "match_mode": "single_round"}


def seats_of(name: str, lineup: str) -> pl.DataFrame:
    res = unosim.simulate("classic", players=4, games=GAMES, seed=SEED, lineup=lineup, rules=RULES)
    return res.seats.with_columns(variant=pl.lit("classic"), lineup=pl.lit(name))


seats = pl.concat([seats_of(name, lineup) for name, lineup in LINEUPS.items()])
seat0 = analysis.win_rates(seats).filter(pl.col("seat") == 0)
seat0.select("lineup", "policy", "wins", "n", "estimate", "ci_low", "ci_high")

# %%
for row in seat0.iter_rows(named=True):
    edge = row["estimate"] - 0.25
    clear = row["ci_low"] > 0.25 or row["ci_high"] < 0.25
    print(f"{row['policy']:>14} at seat 0 wins {row['estimate']:.1%} "
          f"(95 % CI {row['ci_low']:.1%}–{row['ci_high']:.1%}): {edge:+.1%} against a fair 25 %"
          f"{'' if clear else ', not clearly different from it'}")

# %% [markdown]
# ## A fair comparison: the same decks for every strategy
#
# Game `g` of a seed deals the same shuffled deck whatever the lineup (the deck's random numbers are
# drawn apart from the players' decisions). So `greedy_points` and `random` at seat 0 can be compared
# **game by game** on identical deals: a paired t test on the per-deal differences (only the deals that
# one of them won and the other lost count), whose interval is much narrower than for two independent
# samples. `unosim tournament` goes further: every strategy plays every seat of every deal.

# %%
def paired(strategy: str) -> dict:
    table = analysis.compare_wins(seats, {"lineup": "random"}, {"lineup": strategy}, paired=True)
    return table.filter(pl.col("seat") == 0).row(0, named=True)


fair = pl.DataFrame([{"strategy": name, **paired(name)} for name in ("greedy_points", "keep_wilds")])
fair.select("strategy", "rate_a", "rate_b", "estimate", "ci_low", "ci_high", "only_a_won", "only_b_won",
            "p_value")

# %%
for row in fair.iter_rows(named=True):
    verdict = ("wins more often than" if row["ci_low"] > 0 else
               "wins less often than" if row["ci_high"] < 0 else "is not clearly different from")
    print(f"On the same {row['n']:,} deals, {row['strategy']} at seat 0 {verdict} random: "
          f"{row['estimate']:+.1%} (95 % CI {row['ci_low']:+.1%} to {row['ci_high']:+.1%}); it won "
          f"{row['only_b_won']:,} deals that random lost and lost {row['only_a_won']:,} that random won.")

# %% [markdown]
# ## Your own strategy
#
# A strategy written in plain Python runs in the reference engine (slower, no compilation needed):
# subclass `unosim.reference.PythonPolicy` and override the decisions you care about; docs/tutorials/strategies.md
# has a complete example. Parameters of the built-in policies, e.g.
# `random(p_bluff=0.2)` or `greedy_points(p_challenge=0.5)`, model more human play without any code.
