"""The public API: simulate() tables, reproducibility, match modes, and clear errors for bad input."""

import numpy as np
import polars as pl
import pytest

import unosim
from unosim.game import cards, custom_cards

SINGLE = {"match_mode": "single_round"}


def test_tables_carry_every_field_of_rules_1_13():
    res = unosim.simulate("minions", players=3, games=50, seed=1)
    for col in ("game", "round", "players", "variant", "dealer_seat", "first_seat", "winner_seat", "end",
                "n_turns", "n_plays", "n_draws", "n_reshuffles", "points", "dumbfu_penalties"):
        assert col in res.rounds.columns
    for col in ("game", "round", "seat", "rel_dealer", "policy", "won", "cards_left", "points_left",
                "n_drawn", "n_played", "knocked_out", "knockout_turn"):
        assert col in res.seats.columns
    assert [c for c in res.seats.columns if c.startswith("open_")] == [
        *(f"open_{k}" for k in cards.HAND_CLASSES), *custom_cards.OPEN_DECLARED]
    assert res.seats.height == 3 * res.rounds.height
    assert res.matches.height == 50
    assert res.rounds["variant"].unique().to_list() == ["minions"]
    assert set(res.rounds["end"].unique().to_list()) <= {"won", "knockout", "stalemate", "truncated"}


def test_same_seed_same_results_and_chunks_concatenate_exactly():
    one = unosim.simulate("classic", players=4, games=300, seed=9, rules=SINGLE)
    again = unosim.simulate("classic", players=4, games=300, seed=9, rules=SINGLE)
    parts = [unosim.simulate("classic", players=4, games=k, seed=9, rules=SINGLE, first_game=a)
             for a, k in ((0, 100), (100, 150), (250, 50))]
    assert one.rounds.equals(again.rounds) and one.seats.equals(again.seats)
    assert one.rounds.equals(pl.concat([p.rounds for p in parts]))
    assert one.seats.equals(pl.concat([p.seats for p in parts]))
    other = unosim.simulate("classic", players=4, games=300, seed=10, rules=SINGLE)
    assert not one.rounds.equals(other.rounds)



@pytest.mark.parametrize("rules", [SINGLE, {"match_mode": "points", "target": 120}], ids=["single_round", "points"])
def test_kernel_calls_split_anywhere_give_the_same_tables(rules, monkeypatch):
    """A call plays its games in kernel calls of at most GAMES_PER_CALL games, each ending early after
    TURN_BUDGET turns: single rounds fill one set of tables from the row each call starts at, matches
    join each call's tables. Split into calls of a few games, the tables are the same, and column-major
    either way."""
    from unosim.play import simulate as S

    whole = unosim.simulate("no_mercy", players=3, games=60, seed=4, rules=rules)
    monkeypatch.setattr(S, "GAMES_PER_CALL", 7)
    monkeypatch.setattr(S, "TURN_BUDGET", 500)
    split = unosim.simulate("no_mercy", players=3, games=60, seed=4, rules=rules)
    for table in ("rounds", "seats", "matches"):
        assert getattr(split, table).equals(getattr(whole, table)), table
    assert (whole.rounds.height > 60) == (rules is not SINGLE)
    for raw in (whole.raw, split.raw):   # each column one contiguous array, as frames and parts take it
        for columns in (raw.rounds, raw.seats, raw.opening, raw.matches):
            assert all(columns[:, i].flags.c_contiguous for i in range(columns.shape[1]))

def test_lineup_labels_per_seat():
    res = unosim.simulate("classic", players=3, games=10, seed=1, lineup="greedy_points,random*", rules=SINGLE)
    labels = res.seats.filter(pl.col("game") == 0).sort("seat")["policy"].to_list()
    assert labels == ["greedy_points", "random", "random"]


def test_points_matches_end_when_the_winner_reaches_the_target():
    res = unosim.simulate("classic", players=3, games=60, seed=2, rules={"target": 300})
    r, m = res.rounds, res.matches
    assert (m["end"] == "won").all()
    totals = r.filter(pl.col("winner_seat") >= 0).group_by("game", "winner_seat").agg(pl.col("points").sum())
    best = totals.group_by("game").agg(pl.col("points").max(), pl.col("winner_seat").sort_by("points").last())
    joined = m.join(best, on="game")
    assert (joined["points"] >= 300).all()
    assert (joined["winner_seat"] == joined["winner_seat_right"]).all()
    # the dealer moves one seat to the left every round
    for _, g in r.group_by("game"):
        d = g.sort("round")["dealer_seat"].to_numpy()
        assert ((np.diff(d) % 3) == 1).all()
    assert (m["n_rounds"].to_numpy() == r.group_by("game").len().sort("game")["len"].to_numpy()).all()


def test_lowest_mode_winners_have_the_lowest_totals():
    res = unosim.simulate("classic", players=4, games=40, seed=3, rules={"match_mode": "lowest", "target": 200})
    s, m = res.seats, res.matches
    penalties = s.filter(~pl.col("won")).join(
        res.rounds.select("game", "round", "winner_seat"), on=["game", "round"]).filter(
        pl.col("winner_seat") >= 0).group_by("game", "seat").agg(pl.col("points_left").sum())
    for row in m.iter_rows(named=True):
        totals = np.zeros(4, int)
        for rec in penalties.filter(pl.col("game") == row["game"]).iter_rows(named=True):
            totals[rec["seat"]] = rec["points_left"]
        assert totals.max() >= 200
        mask = sum(1 << s for s in range(4) if totals[s] == totals.min())
        assert row["winners_mask"] == mask and row["n_winners"] == bin(mask).count("1")


def test_replay_shows_the_same_game_as_simulate():
    res = unosim.simulate("classic", players=4, games=5, seed=4, rules=SINGLE)
    text = unosim.replay("classic", players=4, seed=4, game=3, rules=SINGLE)
    row = res.rounds.filter(pl.col("game") == 3).row(0, named=True)
    assert text.startswith(f"== game 3, round 0: dealer is seat {row['dealer_seat']}")
    assert f"seat {row['winner_seat']} won, scoring {row['points']} points" in text
    assert text.count("-- turn ") == row["n_turns"]


@pytest.mark.parametrize("kwargs,message", [
    (dict(variant="uno_flip"), "unknown variant 'uno_flip'"),
    (dict(rules={"n_blanks": 1}), "unknown rule key 'n_blanks'"),
    (dict(rules={"n_blank": 4}), "n_blank=4"),
    (dict(rules={"match_mode": "best_of_3"}), "match_mode='best_of_3'"),
    (dict(rules={"p_catch": 1.5}), "p_catch=1.5"),
    (dict(rules={"p_forget_uno": [0.1, 0.2]}), "p_forget_uno has 2 entries but players=4"),
    (dict(players=1), "players=1 is out of range"),
    (dict(players=11), "players=11 is out of range"),
    (dict(lineup=["random", "random"]), "lineup 'random,random' has 2 policies but players=4: give one per seat"),
    (dict(lineup="smart"), "unknown policy 'smart'"),
    (dict(lineup="random(p_bluf=0.1)"), "unknown parameter 'p_bluf'"),
    (dict(lineup="random(p_bluff=2)"), "valid is a probability"),
    (dict(games=0), "games=0"),
    (dict(seed=-1), "seed=-1"),
    (dict(rules={"hand_size": 15}, players=8), "exceeds what the"),
    (dict(rules={"stacking": "sideways"}), "stacking='sideways'"),
])
def test_bad_input_raises_a_clear_value_error(kwargs, message):
    args = dict(variant="classic", players=4, games=10, seed=1) | kwargs
    variant = args.pop("variant")
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        unosim.simulate(variant, **args)


def test_unknown_rule_key_lists_the_valid_keys():
    with pytest.raises(ValueError, match="valid keys are .*'hand_size'"):
        unosim.simulate("classic", players=4, games=1, seed=1, rules={"colour_blind": True})


@pytest.mark.parametrize("variant", unosim.variant_names())
def test_every_registered_variant_is_implemented(variant):
    res = unosim.simulate(variant, players=4, games=20, seed=1)
    assert res.matches.height == 20


def test_rule_keys_round_trip():
    rs = unosim.get_variant("classic", {"n_blank": 1, "blank_effects": ["discard_colour"],
                                        "p_forget_uno": [0.1, 0.0, 0.2], "match_mode": "lowest"})
    assert unosim.game.rules.from_key(rs.key) == rs
    assert unosim.get_variant("classic").key == "classic"


def test_a_set_stop_event_ends_a_call_between_kernel_calls_and_an_unset_one_changes_nothing():
    """A study's job threads cannot be interrupted as the main thread is by Ctrl-C: they stop on an event."""
    import threading

    from unosim.play.simulate import CallStopped
    stop = threading.Event()
    plain = unosim.simulate("classic", players=3, games=300, seed=4)
    watched = unosim.simulate("classic", players=3, games=300, seed=4, stop=stop)
    assert plain.seats.equals(watched.seats) and plain.rounds.equals(watched.rounds)
    stop.set()
    with pytest.raises(CallStopped):
        unosim.simulate("classic", players=3, games=300, seed=4, stop=stop)
