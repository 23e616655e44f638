"""Duplicate tournaments: rotation balance, shared deals, exchangeability, a known strength ordering,
the statistics' known answers, bad input, and the CLI as a terminal shows it."""

from __future__ import annotations

import html
import itertools
import math
import os
import re
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from commands import run_unosim, unosim_on_a_terminal
from polars.testing import assert_frame_equal
from study_specs import analyzed

import unosim
from unosim.analysis import standings
from unosim.analysis.tournament import TOURNAMENT_FILE, load_tournament
from unosim.game import seating
from unosim.store.reader import open_dataset
from unosim.strategies.tournaments import build_study

ROOT = Path(__file__).parents[2]
TRIO = ["random", "greedy_points", "keep_wilds"]
COMBOS = [(k, n) for n in range(2, 11) for k in range(2, n + 1)] + [(3, 2), (5, 2), (5, 3), (5, 4), (6, 4), (6, 5), (8, 6)]


@pytest.fixture(scope="module")
def trio(tmp_path_factory):
    """A small classic 4-player tournament of the three built-in policies, kept on disk."""
    out = tmp_path_factory.mktemp("tournament")
    return unosim.tournament("classic", players=4, policies=TRIO, games=400, seed=3, out=out)


@pytest.fixture(scope="module")
def trio_tables(trio):
    """The standard analyses of the trio's dataset, computed once (36 cells cost seconds each time) by
    `unosim analyze`, as a reader of their CSV files sees them (the bytes as_written parses)."""
    from unosim.analysis.provenance import current_tables
    tables = current_tables(analyzed(trio.path))
    assert tables is not None, "analyze left no current analysis"
    return tables


@pytest.fixture(scope="module")
def trio_report(trio, trio_tables) -> str:
    """The HTML `unosim report` writes for the analysed trio, read-only for the tests."""
    from unosim.reporting.report import write_report
    return write_report(analyzed(trio.path)).read_text()


# ---- rotation balance ---------------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", seating.SCHEMES)
@pytest.mark.parametrize(("k", "players"), COMBOS)
def test_every_entrant_sits_in_every_seat_equally_often(k, players, scheme):
    arrangements = seating.arrangements(k, players, scheme)
    counts = Counter((e, seat) for a in arrangements for seat, e in enumerate(a))
    assert len(set(counts.values())) == 1 and len(counts) == k * players
    for a in arrangements:   # seat counts as even as they can be within each arrangement
        per = Counter(a)
        assert len(per) == min(k, players) and max(per.values()) - min(per.values()) <= 1
    count = seating.arrangement_count(k, players, scheme)
    assert len(arrangements) == count or (len(arrangements) <= count and (players > 4 or scheme == "rotations"))


@pytest.mark.parametrize(("k", "players"), [(k, n) for n in range(2, 5) for k in range(2, 7)])
def test_small_tables_play_every_permutation_so_neighbours_balance_too(k, players):
    arrangements = seating.arrangements(k, players)
    assert len(arrangements) == len(set(arrangements))
    after = Counter((a[s], a[(s + 1) % players]) for a in arrangements for s in range(players))
    pairs = [(x, y) for x in range(k) for y in range(k) if x != y]
    assert len({after[p] for p in pairs}) == 1   # everyone follows everyone equally often


def test_the_rotations_scheme_seats_two_policies_alternately_at_four_seats():
    assert seating.arrangements(2, 4, "rotations") == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert len(seating.arrangements(4, 4, "rotations")) == 8   # 4 rotations of 0123 and 4 of 3210


def test_a_rotations_tournament_replays_each_deal_under_its_arrangements(tmp_path):
    result = unosim.tournament("classic", players=4, policies=["random", "greedy_points"], games=60, seed=5,
                               out=tmp_path, seating="rotations")
    assert result.seating == "rotations" and list(result.arrangements.values()) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert result.title.endswith("2 arrangements by rotations")
    assert load_tournament(result.path).seating == "rotations"
    assert 2 * result.standings["win_rate"].sum() == pytest.approx(1.0)   # win rate per seat; two seats each


@pytest.mark.parametrize("scheme, played", [("rotations", 4), ("permutations", 4)])
def test_arrangements_that_only_swap_copies_of_a_policy_are_one_game(scheme, played):
    """A policy against three copies of another at 4 seats: the 8 rotations (or 24 permutations) of the
    four entrants seat only 4 orders of specs, the policy in each seat once."""
    entrants = seating.entrants(seating.parse_entries(["keep_wilds", "random", "random", "random"]), 4, scheme)
    arrangement_map = seating.arrangement_names(seating.arrangements(4, 4, scheme))
    by = seating.played_by(arrangement_map, entrants)
    assert len(arrangement_map) == {"rotations": 8, "permutations": 24}[scheme]
    assert len(set(by.values())) == played and all(by[cell] == cell for cell in by.values())
    for name, cell in by.items():
        assert [entrants[e].spec for e in arrangement_map[name]] == [entrants[e].spec for e in arrangement_map[cell]]
    assert sorted(arrangement_map[cell].index(0) for cell in set(by.values())) == [0, 1, 2, 3]
    distinct = seating.entrants(seating.parse_entries(TRIO), 4)   # no copies: every arrangement is a cell of its own
    trio_map = seating.arrangement_names(seating.arrangements(3, 4))
    assert seating.played_by(trio_map, distinct) == {name: name for name in trio_map}


def test_a_tournament_plays_each_order_of_specs_once_and_its_standings_are_those_of_every_arrangement(tmp_path):
    """The arrangements that only swap copies are not played again, and the standings and head-to-head
    equal those of a study that plays every arrangement in a cell of its own (the same games)."""
    from unosim.pipeline.runner import run_study
    from unosim.pipeline.study import parse_study
    policies = ["greedy_points", "random", "random", "random"]
    result = unosim.tournament("classic", players=4, policies=policies, games=80, seed=5, rules={"n_blank": 0},
                               out=tmp_path, seating="rotations")
    lineups = {cell["lineup"] for cell in open_dataset(result.path).manifest["study"]["cells"]}
    assert len(result.arrangements) == 8 and lineups == set(result.played_by.values()) and len(lineups) == 4
    every = {"study": {"name": "every", "seed": 5, "games": 80, "mode": "single_round",
                       "common_random_numbers": True},
             "variants": {"classic_rules": {"base": "classic", "rules": {"n_blank": 0}}},
             "lineups": {lu: ",".join(result.entrants[e].spec for e in a) for lu, a in result.arrangements.items()},
             "grid": [{"variants": ["classic_rules"], "players": [4], "lineups": list(result.arrangements)}]}
    ds = open_dataset(run_study(parse_study(every), tmp_path, n_jobs=1, progress=False).path)
    games = standings.games_from_tables(ds.seats, ds.rounds, result.arrangements)
    ahead, comparisons = standings.pairwise(games, len(result.entrants))
    assert_frame_equal(standings.head_to_head(ahead, comparisons, result.entrants), result.head_to_head)
    assert_frame_equal(standings.standings(games, ahead, result.entrants, 5), result.standings)
    share = result.head_to_head.filter(pl.col("a") == "greedy_points", pl.col("b") == "random#1")["estimate"][0]
    assert share == result.head_to_head.filter(pl.col("a") == "greedy_points", pl.col("b") == "random#3")["estimate"][0]


def test_large_tables_use_rotations_and_their_reverse():
    arrangements = seating.arrangements(6, 6)
    assert len(arrangements) == 12
    forward = arrangements[0]
    assert set(arrangements) == ({forward[i:] + forward[:i] for i in range(6)}
                                 | {forward[::-1][i:] + forward[::-1][:i] for i in range(6)})


def test_every_deal_is_played_balanced_in_the_dataset(trio):
    """Read back from the dataset: in every deal each policy held each seat equally often."""
    ds = open_dataset(trio.path)
    seating_frame = pl.DataFrame([(name, seat, trio.entrants[e].name) for name, arrangement in
                                  trio.arrangements.items() for seat, e in enumerate(arrangement)],
                                 schema={"lineup": pl.String, "seat": pl.Int8, "entrant": pl.String}, orient="row")
    seats = ds.seats.select(pl.col("lineup").cast(pl.String), "game", "seat").collect().join(
        seating_frame, on=["lineup", "seat"])
    counts = seats.group_by("game", "entrant", "seat").len()
    assert counts["len"].n_unique() == 1
    assert counts.height == 400 * 3 * 4   # every (deal, policy, seat) present
    assert seats.group_by("game").len()["len"].unique().to_list() == [36 * 4]


def test_every_arrangement_replays_the_same_deal(trio):
    """Common random numbers: same dealer and same opening hands by seat under every arrangement."""
    ds = open_dataset(trio.path)
    rounds = ds.rounds.select("lineup", "game", "dealer_seat").collect()
    assert rounds.group_by("game").agg(pl.col("dealer_seat").n_unique())["dealer_seat"].max() == 1
    hands = ds.seats.select("lineup", "game", "seat", pl.col("^open_.*$")).collect()
    opening = [c for c in hands.columns if c.startswith("open_")]
    distinct = hands.group_by("game", "seat").agg(pl.struct(opening).n_unique().alias("hands"))
    assert distinct["hands"].max() == 1
    assert rounds["lineup"].n_unique() == 36


# ---- statistics ---------------------------------------------------------------------------------------
def test_standings_columns_and_win_rates_sum_to_the_rounds_won(trio):
    table = trio.standings
    for column in ("policy", "win_rate", "ci_low", "ci_high", "mean_points", "mean_points_ci_low",
                   "mean_points_ci_high", "rating", "rating_ci_low", "rating_ci_high"):
        assert column in table.columns
    assert sorted(table["policy"]) == sorted(TRIO)
    assert (table["ci_low"] < table["win_rate"]).all() and (table["win_rate"] < table["ci_high"]).all()
    rounds = open_dataset(trio.path).rounds.select("winner_seat").collect()
    won = (rounds["winner_seat"] >= 0).mean()
    # every policy holds the same number of seats, so the mean of the per-seat rates is won / players
    assert table["win_rate"].mean() == pytest.approx(won / 4, rel=1e-12)
    assert table["rating"].sum() == pytest.approx(0, abs=1e-9)


def test_head_to_head_is_complementary(trio):
    h2h = trio.head_to_head
    assert h2h.height == 6
    back = h2h.join(h2h, left_on=["a", "b"], right_on=["b", "a"], suffix="_r")
    assert np.allclose(back["estimate"] + back["estimate_r"], 1.0)
    matrix = trio.head_to_head_matrix()
    assert matrix.columns == ["a", *[e.name for e in trio.entrants]]


def test_reloading_the_dataset_gives_the_same_standings(trio):
    again = load_tournament(trio.path)
    assert again.standings.equals(trio.standings) and again.head_to_head.equals(trio.head_to_head)
    assert (trio.path / TOURNAMENT_FILE).exists()
    assert {p.name for p in (trio.path / "tournament").iterdir()} == {"standings.csv", "head_to_head.csv",
                                                                        "tournament.png"}


def test_running_it_again_resumes_the_finished_dataset(trio):
    parts = sorted(trio.path.rglob("*.parquet"))
    stamps = [p.stat().st_mtime_ns for p in parts]
    again = unosim.tournament("classic", players=4, policies=TRIO, games=400, seed=3, out=trio.path.parent)
    assert [p.stat().st_mtime_ns for p in parts] == stamps   # nothing recomputed
    assert again.standings.equals(trio.standings)


def test_another_tournament_under_the_same_name_is_refused(trio):
    with pytest.raises(ValueError, match="different spec .*use --force"):
        unosim.tournament("classic", players=4, policies=TRIO[:2], games=400, seed=3, out=trio.path.parent)


def test_clustered_interval_is_the_standard_error_of_per_deal_means():
    """Known answer on hand-made games: 2 arrangements × 3 deals × 2 seats."""
    entrants = seating.entrants(seating.parse_entries(["random", "keep_wilds"]), 2)
    won_a = np.array([[1, 0, 0], [1, 1, 0]], bool)          # entrant 0's result per (arrangement, deal)
    won = np.zeros((2, 3, 2), bool)
    won[0, :, 0], won[0, :, 1] = won_a[0], ~won_a[0]        # arrangement 0: entrant 0 in seat 0
    won[1, :, 1], won[1, :, 0] = won_a[1], ~won_a[1]        # arrangement 1: entrant 0 in seat 1
    zeros = np.zeros((2, 3, 2), np.int64)
    games = standings.Games(deals=np.arange(3), won=won, points=zeros, points_left=zeros,
                            finish=won.astype(np.int64), entrant_of=np.array([[0, 1], [1, 0]]))
    row = standings.per_entrant(games, entrants).row(0, named=True)
    per_deal = np.array([1.0, 0.5, 0.0])
    from scipy import stats
    half = stats.t.ppf(0.975, 2) * per_deal.std(ddof=1) / math.sqrt(3)
    assert row["win_rate"] == pytest.approx(0.5)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.5 - half, 0.5 + half))
    ahead, comparisons = standings.pairwise(games, 2)
    assert comparisons.tolist() == [[0, 2], [2, 0]]
    assert ahead[0, 1].tolist() == [2.0, 1.0, 0.0]


def test_two_entrant_rating_is_the_log_odds_of_the_head_to_head(trio):
    """Bradley–Terry with two items has a closed form: the rating gap is the log-odds of finishing ahead."""
    result = unosim.tournament("classic", players=2, policies=["random", "greedy_points"], games=300, seed=5)
    share = result.head_to_head.filter(pl.col("a") == "greedy_points")["estimate"][0]
    rating = dict(zip(result.standings["policy"], result.standings["rating"], strict=True))
    gap = rating["greedy_points"] - rating["random"]
    assert gap == pytest.approx(standings.ELO_SCALE * math.log(share / (1 - share)), rel=1e-4)


# ---- exchangeability and strength ------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players", "policies"), [
    ("classic", 4, ["random"] * 4),
    ("no_mercy", 3, ["keep_wilds", "keep_wilds"]),   # 2 copies at 3 seats: one copy takes two seats
    ("classic", 5, ["greedy_points"] * 5),           # rotations and their reverse
])
def test_copies_of_one_policy_win_their_fair_share(variant, players, policies):
    result = unosim.tournament(variant, players=players, policies=policies, games=300, seed=11)
    table = result.standings
    assert table.height == len(policies) and table["policy"].n_unique() == len(policies)
    won = open_rounds_won(result)
    for row in table.iter_rows(named=True):
        # a round without a winner is lost by all: the fair share is (rounds won) / players
        assert row["ci_low"] - 1e-12 <= won / players <= row["ci_high"] + 1e-12, row
        assert abs(row["win_rate"] - 1 / players) < 0.02


def open_rounds_won(result) -> float:
    per_seat = result.standings["win_rate"].to_numpy()
    return float(per_seat.mean() * result.players)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "stronger"), [
    ("classic", ["greedy_points", "keep_wilds"]),
    ("no_mercy", ["keep_wilds"]),   # greedy_points' edge there is ~1 point of win rate: needs far more deals
])
def test_strategies_beat_random_with_intervals_excluding_parity(variant, stronger):
    """Measured at 20,000 deals (docs/results/tournaments.json): the gaps are 5-10 standard errors at the 600 deals used here."""
    result = unosim.tournament(variant, players=4, policies=TRIO, games=600, seed=2)
    table = {r["policy"]: r for r in result.standings.iter_rows(named=True)}
    for policy in stronger:
        assert table["random"]["ci_high"] < table[policy]["ci_low"]
        assert table["random"]["rating_ci_high"] < table[policy]["rating_ci_low"]
        h2h = result.head_to_head.filter((pl.col("a") == policy) & (pl.col("b") == "random")).row(0, named=True)
        assert h2h["ci_low"] > 0.5


# ---- bad input -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "named", "valid"), [
    ({"policies": ["random", "bogus"]}, "'bogus'", "valid policies are"),
    ({"policies": ["random"]}, "['random']", "needs at least 2"),
    ({"policies": []}, "[]", "needs at least 2"),
    ({"policies": ["random"] * 8}, "8 policies at 4 seats", "at most 1,000 arrangements"),
    ({"policies": "random(p_draw=2),greedy_points"}, "p_draw='2'", "probability in [0, 1]"),
    ({"policies": [1, 2]}, "[1, 2]", "list of policy specs"),
    ({"games": 0}, "games=0", "1..1000000000000"),
    ({"games": 2.5}, "games=2.5", "an integer"),
    ({"seed": -1}, "seed=-1", "an integer 0.."),
    ({"players": 1}, "players=1", "an integer ≥ 2"),
    ({"variant": "clasic"}, "'clasic'", "valid variants are"),
    ({"rules": {"match_mode": "points"}}, "match_mode='points'", "'single_round'"),
    ({"rules": {"stacking": "sometimes"}}, "sometimes", "valid"),
    ({"rules": ["stacking"]}, "rules=['stacking']", "a dict of rule overrides"),
    ({"seating": "random"}, "seating='random'", "'permutations', 'rotations'"),
])
def test_bad_input_is_one_clear_error(tmp_path, kwargs, named, valid):
    call = {"variant": "classic", "players": 4, "policies": TRIO, "games": 10, "seed": 1, **kwargs}
    with pytest.raises(ValueError) as err:
        unosim.tournament(call.pop("variant"), out=tmp_path / "out", **call)
    message = str(err.value)
    assert named in message and valid in message and "\n" not in message
    assert not (tmp_path / "out").exists()   # nothing written


def test_the_generated_study_has_one_cell_per_arrangement_on_shared_decks():
    study, entrants, arrangements = build_study("classic", 4, seating.parse_entries(TRIO), 10, 7, {"n_blank": 0}, "t")
    assert len(study.cells) == len(arrangements) == 36
    assert study.common_random_numbers and study.mode == "single_round"
    assert len({c.seed for c in study.cells}) == 1
    assert {c.variant for c in study.cells} == {"classic_rules"}
    labels = {c.lineup: c.lineup_label for c in study.cells}
    for name, arrangement in arrangements.items():
        assert labels[name] == ",".join(entrants[e].spec for e in arrangement)


def test_parameterised_specs_are_entrants_and_copies_are_numbered():
    entrants = seating.entrants(seating.parse_entries("random(p_draw=0.3, p_bluff=0.1),random,random"), 3)
    assert [e.name for e in entrants] == ["random(p_bluff=0.1,p_draw=0.3)", "random#1", "random#2"]
    assert entrants[1].spec == entrants[2].spec == "random"


# ---- the CLI ---------------------------------------------------------------------------------------------
def _cli(*args, cwd: Path):
    return run_unosim(*args, cwd=cwd, env={**os.environ, "COLUMNS": "120"})


def test_cli_prints_the_standings_and_writes_the_dataset(tmp_path):
    run = _cli("tournament", "--variant", "classic", "--players", "4", "--policies",
               "random,greedy_points,keep_wilds", "--games", "200", "--seed", "4", "--n-jobs", "1",
               "--out", str(tmp_path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("classic, 4 players: 200 deals × 36 arrangements (seed 4)")
    header = lines[1].split()
    assert header[:4] == ["rank", "policy", "win", "rate"]
    ranked = [line.split()[1] for line in lines[2:5]]
    assert sorted(ranked) == sorted(TRIO) and ranked[-1] == "random"
    assert all(line.count("[") == 4 for line in lines[2:5])   # every figure with its interval
    assert lines[5].startswith("ranked by win rate. The rating is a Bradley–Terry fit")   # what orders what
    assert "order" in lines[6]  # the same order, or why the two differ
    assert any(line.startswith("head-to-head") for line in lines)
    verdicts = [line for line in lines if "of seat comparisons (raw 95%" in line]
    assert len(verdicts) == 3 and all(v.endswith(("here.", "no clear difference.", "negligible.")) for v in verdicts)
    assert "tournament_classic_p4" in lines[-1]
    result = load_tournament(tmp_path / "tournament_classic_p4")
    assert result.standings["policy"].to_list() == ranked
    assert run.stderr == ""   # no progress bar when stderr is not a terminal


def test_cli_on_a_terminal_shows_progress_then_the_table(tmp_path):
    """Under a pseudo-terminal (as a user sees it): a progress bar on stderr, then the standings."""
    screen = unosim_on_a_terminal("tournament", "--variant", "classic", "--players", "2", "--policies",
                                  "random,keep_wilds", "--games", "300", "--n-jobs", "1", "--out", str(tmp_path),
                                  cwd=tmp_path, columns=120)
    assert "tournament_classic_p2" in screen and "600/600" in screen   # the bar: 300 deals × 2 arrangements
    table = screen[screen.index("rank"):]
    assert "keep_wilds" in table and "random" in table and "head-to-head" in table


def test_cli_bad_input_is_one_line(tmp_path):
    run = _cli("tournament", "--variant", "classic", "--players", "4", "--policies", "random",
               "--games", "10", "--out", str(tmp_path), cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "needs at least 2" in run.stderr and "Traceback" not in run.stderr


def test_analyses_apply_to_a_tournament_dataset(trio_tables):
    assert trio_tables


def test_the_report_of_a_tournament_opens_with_its_standings(trio_report):
    """`unosim report` on a tournament dataset: a Tournament section with the chart, the standings and the
    head-to-head matrix (and no chart that needs a lineup with one policy in every seat)."""
    text = trio_report
    section = text[text.index('<section id="tournament">'):]
    section = section[:section.index("</section>")]
    assert 'href="#tournament"' in text and "data:image/svg+xml;base64," in section
    assert "Standings" in section and "Head-to-head" in section
    for policy in TRIO:
        assert policy in section


def test_more_policies_than_seats_meet_at_every_table():
    """Four policies at a two-player table: every pair plays, both ways round, in every deal."""
    result = unosim.tournament("classic", players=2, policies=["random", *TRIO[1:], "random(p_draw=0.2)"],
                               games=200, seed=9)
    assert len(result.arrangements) == 12
    assert sorted(result.arrangements.values()) == sorted(itertools.permutations(range(4), 2))
    assert result.head_to_head.height == 12 and result.head_to_head["estimate"].is_not_null().all()
    assert result.standings["win_rate"].mean() == pytest.approx(0.5, abs=0.01)


def test_long_policy_specs_are_shortened_on_the_chart_and_spelt_out_below(trio):
    """A tuned weight vector as a tick label squeezed the panels to nothing (a constrained-layout
    warning and an unreadable chart); it is shortened, numbered and given in full in a footnote."""
    import warnings

    from unosim.reporting.plots import to_png
    from unosim.reporting.tournament_chart import MAX_LABEL, tournament_chart

    long = "weighted(" + ",".join(f"w_feature_{i}={i}.125" for i in range(12)) + ")"
    rename = {trio.entrants[0].name: long}
    standings = trio.standings.with_columns(pl.col("policy").replace(rename))
    h2h = trio.head_to_head.with_columns(pl.col("a").replace(rename), pl.col("b").replace(rename))
    names = [rename.get(e.name, e.name) for e in trio.entrants]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = tournament_chart(standings, h2h, names, players=4, title="t")
        assert to_png(fig, dpi=72).startswith(b"\x89PNG")
    for ax in (fig.axes[0], fig.axes[2]):   # win rate and head-to-head (the rating panel shares the rows)
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels and all(len(label) <= MAX_LABEL for label in labels)
    assert sum(label.get_text().endswith("[1]") for label in fig.axes[0].get_yticklabels()) == 1
    assert fig.get_supxlabel().replace("\n", "").replace("    ", "") == f"[1] {long}"


def test_tournament_findings_come_from_head_to_head_intervals_and_are_checked(trio_tables, trio_report):
    """The verdicts: "A plays better than B" only when the head-to-head interval is above parity after
    Holm; the rating is explained; the matrix shows intervals; no literal [[comparisons]]."""
    from unosim.analysis.checker import check_claims
    from unosim.analysis.findings import claims
    tables = trio_tables
    found = [c for c in claims(tables) if c.table == "head_to_head"]
    assert len(found) == 3 and check_claims(tables, claims(tables)) == []
    for claim in found:
        row = tables["head_to_head"].filter(pl.col("a") == dict(claim.rows[0])["a"],
                                            pl.col("b") == dict(claim.rows[0])["b"]).row(0, named=True)
        assert row["estimate"] >= 0.5
        assert ("plays better" in claim.text) == (row["p_holm"] < 0.05 and row["estimate"] >= 0.51)
        assert ("no clear difference" in claim.text) == (row["p_holm"] >= 0.05)
    text = trio_report
    assert "Bradley–Terry" in text and "[[comparisons]]" not in text
    assert re.search(r"<td[^>]*>\d+\.\d \[\d+\.\d, \d+\.\d\]</td>", text), "the matrix shows intervals"
    findings = text[text.index('<section id="findings">'):text.index("</section>")]
    assert all(html.escape(claim.text, quote=False) in findings for claim in found)


def test_the_matrix_prints_each_share_as_its_checked_sentence_does(trio):
    """The head-to-head matrix beside the verdicts: the same share in the same digits (a polars round
    printed 50.6 in the table beside a sentence's 50.5 for one share)."""
    import dataclasses

    from unosim.cli.tournament import verdicts
    # shares on a rounding edge: 100 · 0.5055 is 50.549999…, which format() prints 50.5 and polars' round 50.6
    h2h = trio.head_to_head.with_columns(
        pl.when(pl.col("estimate") >= 0.5).then(pl.col("estimate") * 0 + 0.5055)
        .otherwise(pl.col("estimate") * 0 + 0.4945).alias("estimate"))
    edge = dataclasses.replace(trio, head_to_head=h2h)
    matrix = {row["a"]: row for row in edge.head_to_head_matrix(intervals=True).iter_rows(named=True)}
    sentences = verdicts(edge)
    assert len(sentences) == 3
    for text in sentences:
        a, b, numbers = re.match(r"(\S+) finishes ahead of (\S+) in ([\d.]+% \[[\d.]+, [\d.]+\])", text).groups()
        assert matrix[a][b] == numbers.replace("%", ""), (text, matrix[a][b])


def test_the_win_rate_and_rating_orders_are_explained_when_they_differ():
    from unosim.reporting.sections import order_note
    table = pl.DataFrame({"policy": ["a", "b"], "win_rate": [0.3, 0.2], "rating": [-5.0, 5.0]})
    assert "the rating ranks b, a" in order_note(table) and "finishing order" in order_note(table)
    assert "same order" in order_note(table.with_columns(rating=pl.Series([5.0, -5.0])))


@pytest.mark.slow
def test_head_to_head_intervals_are_calibrated_over_seeds():
    """Seed replication: 60 small tournaments of two different policies (identical policies would replay
    identical games and never exercise the intervals); their 95 % head-to-head intervals cover the share
    of a 40× larger tournament (its own error is a sixth of theirs) at the nominal rate, within 3 binomial
    standard errors."""
    policies, reps, deals = ["greedy_points", "random(p_draw=0.2)"], 60, 80
    truth = unosim.tournament("classic", players=2, policies=policies, games=40 * deals, seed=10_000)
    share = truth.head_to_head.filter(pl.col("a") == "greedy_points")["estimate"].item()
    covered = 0
    for seed in range(reps):
        h2h = unosim.tournament("classic", players=2, policies=policies, games=deals, seed=seed).head_to_head
        row = h2h.filter(pl.col("a") == "greedy_points").row(0, named=True)
        covered += row["ci_low"] <= share <= row["ci_high"]
    assert abs(covered / reps - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / reps), covered


# ---- a Python policy: played by the reference engine ----------------------------------------------
def test_a_python_copy_of_a_built_in_policy_gets_the_compiled_tournaments_results():
    """The reference engine deals the compiled tournament's deals and its built-in policies draw from the
    same play stream: a Python copy of greedy_points (against random and a weighted preset) gets exactly
    the compiled standings and head-to-head."""
    from unosim.reference import GreedyPointsPolicy
    mine = unosim.tournament("classic", players=2, policies=[GreedyPointsPolicy(), "random", "colour_counter"],
                             games=60, seed=4)
    theirs = unosim.tournament("classic", players=2, policies=["greedy_points", "random", "colour_counter"],
                               games=60, seed=4)
    assert mine.path is None and [e.name for e in mine.entrants][0] == "GreedyPointsPolicy"
    columns = [c for c in theirs.standings.columns if c not in ("policy", "policy_spec")]
    assert mine.standings.select(columns).equals(theirs.standings.select(columns))
    named = ("a", "b", "holm_test")   # the columns naming the entrants
    assert mine.head_to_head.drop(named).equals(theirs.head_to_head.drop(named))


def test_a_python_policy_refuses_what_the_reference_engine_cannot_do():
    def first_legal(view):
        return view.legal[0]
    with pytest.raises(ValueError, match="'lookahead' cannot play against a Python policy"):
        unosim.tournament("classic", players=2, policies=[first_legal, "lookahead"], games=2, seed=1)
    with pytest.raises(ValueError, match="out='x': .* writes no dataset; valid is out=None"):
        unosim.tournament("classic", players=2, policies=[first_legal, "random"], games=2, seed=1, out="x")
    with pytest.raises(ValueError, match="cannot use 7 as a policy"):
        unosim.tournament("classic", players=2, policies=[first_legal, 7], games=2, seed=1)
