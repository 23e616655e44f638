"""The replay picture: the hand sizes it draws, counted from a game's trace, are the cards each seat held
at the end of every round as the engine records them (``seats.cards_left``), in every family, with the
events that move whole hands (7-0 swaps and passes, the wheel's trades, blank redeals, knock-outs)."""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest

import unosim
from unosim.game import protocol as L
from unosim.play.simulate import resolve
from unosim.play.trace import hand_sizes, replay_events
from unosim.reporting.replay_chart import replay_figure

CASES = [("classic", 4, {"seven_o": True, "match_mode": "points"}), ("no_mercy", 4, None), ("spin", 3, None),
         ("minions", 4, None), ("flip", 3, None),
         ("classic", 3, {"n_blank": 3, "blank_effects": ("shuffle_hands", "discard_colour", "others_draw_1"),
                         "match_mode": "points"})]
GAMES = 4
WHOLE_HANDS = {L.EV_SWAP, L.EV_PASS, L.EV_TRADE, L.EV_REDEAL, L.EV_KNOCKOUT}


def test_the_counted_hand_sizes_end_every_round_with_the_cards_the_engine_records():
    moved = Counter()
    for variant, players, rules in CASES:
        rule_set, _ = resolve(variant, players, "random", rules)
        for game in range(GAMES):
            events = replay_events(variant, players=players, seed=5, game=game, rules=rules)
            moved.update(int(e[0]) for e in events if int(e[0]) in WHOLE_HANDS)
            sizes = hand_sizes(events, players, rule_set.hand_size)
            assert sizes["cards"].min() >= 0
            counted = (sizes.group_by("round", "seat").agg(pl.col("cards").last()).sort("round", "seat")
                       .select(pl.col("round").cast(pl.Int64), pl.col("seat").cast(pl.Int64), "cards"))
            seats = unosim.simulate(variant, players=players, games=1, seed=5, first_game=game, rules=rules).seats
            recorded = seats.sort("round", "seat").select(pl.col("round").cast(pl.Int64), pl.col("seat").cast(pl.Int64),
                                                          pl.col("cards_left").cast(pl.Int64).alias("cards"))
            assert counted.equals(recorded), (variant, game)
    assert set(moved) == WHOLE_HANDS, moved   # every event that moves whole hands was counted somewhere


def test_the_figure_has_one_line_per_seat_from_the_deal(tmp_path):
    fig = replay_figure("classic", players=3, seed=7, game=0, lineup="greedy_points,random*")
    ax = fig.axes[0]
    lines = [line for line in ax.get_lines() if line.get_linestyle() == "-"]
    assert [line.get_label() for line in lines] == ["seat 0: greedy_points", "seat 1: random", "seat 2: random"]
    assert all(line.get_ydata()[0] == 7 for line in lines)   # the deal
    assert min(line.get_ydata()[-1] for line in lines) == 0  # somebody went out
    fig.savefig(tmp_path / "replay.png")


def test_bad_input_is_the_replays_error():
    with pytest.raises(ValueError, match="unknown variant 'clasic'"):
        replay_figure("clasic", players=3, seed=7)
