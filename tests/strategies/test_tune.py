"""unosim.tune / `unosim tune`: the duplicate evaluation, the search space, the budget plan, determinism,
a known answer (a deliberately bad start is beaten on fresh deals), the printed lineup string, bad input
and the CLI (pipe and terminal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from commands import UNOSIM, run_unosim, unosim_on_a_terminal

import unosim
from unosim.game import protocol
from unosim.game.policies import make_lineup, parse_policy
from unosim.game.rules import get_variant
from unosim.strategies.tuning import TuneResult, tune
from unosim.strategies.tuning.duplicate import Estimate, Evaluator, Table
from unosim.strategies.tuning.relevance import relevant
from unosim.strategies.tuning.search import MIN_DEALS, Plan, seeds
from unosim.strategies.tuning.space import SCALE, WeightSpace, searched_weights, start_spec

SINGLE = {"match_mode": "single_round"}
# draws instead of playing whenever it may (under save_wilds a card scores the other cards of its colour
# held, so 8 outscores every card but in a hand of 9 of one colour): never wins
ALWAYS_DRAWS = "save_wilds(w_voluntary_draw=8)"


def _table(players: int, field="random", variant="classic") -> Table:
    return Table(get_variant(variant, SINGLE), players, make_lineup(field, players - 1))


# ---- the duplicate evaluation -------------------------------------------------------------------------
def test_the_field_follows_the_tuned_seat_round_the_table():
    table = _table(4, "greedy_points,keep_wilds,random")
    tuned = parse_policy("by_colour")
    names = [[p.name for p in table.lineup(tuned, seat)] for seat in range(4)]
    assert names == [["by_colour", "greedy_points", "keep_wilds", "random"],
                     ["random", "by_colour", "greedy_points", "keep_wilds"],
                     ["keep_wilds", "random", "by_colour", "greedy_points"],
                     ["greedy_points", "keep_wilds", "random", "by_colour"]]


@pytest.mark.parametrize("variant,players", [("classic", 4), ("no_mercy", 3)])
def test_the_fields_own_policy_scores_exactly_its_share_of_each_deal(variant, players):
    """random against random: every position replays one and the same game (same cards, same seat
    streams), so the evaluated seat wins in exactly one of the N positions of every deal with a winner."""
    table = _table(players, variant=variant)
    with Evaluator(table, 1) as evaluator:
        scores = evaluator.scores([parse_policy("random")], seed=5, first_game=0, deals=300)[0]
    raw = unosim.simulate(variant, players=players, games=300, seed=5, rules=SINGLE).raw
    has_winner = raw.matches[:, protocol.MC_N_WINNERS] > 0
    np.testing.assert_array_equal(scores, np.where(has_winner, 1.0 / players, 0.0))


def test_scores_are_the_simulated_wins_of_every_seat_position():
    table = _table(3, "keep_wilds")
    policy = parse_policy("by_number")
    with Evaluator(table, 1) as evaluator:
        scores = evaluator.scores([policy], seed=11, first_game=40, deals=200)[0]
    wins = np.zeros(200)
    for seat in range(3):
        lineup = ",".join(p.label for p in table.lineup(policy, seat))
        res = unosim.simulate("classic", players=3, games=200, seed=11, first_game=40, lineup=lineup, rules=SINGLE)
        wins += res.seats.filter(seat=seat).sort("game")["won"].to_numpy()
    np.testing.assert_array_equal(scores, wins / 3)


def test_blocks_of_games_change_nothing(monkeypatch):
    from unosim.strategies.tuning import duplicate
    table = _table(3, "keep_wilds")
    policy = parse_policy("by_colour")
    whole = duplicate.seat_wins(table, policy, 1, seed=2, first_game=10, deals=250)
    monkeypatch.setattr(duplicate, "BLOCK", 60)
    np.testing.assert_array_equal(duplicate.seat_wins(table, policy, 1, seed=2, first_game=10, deals=250), whole)
    assert 0 < whole.sum() < 250


def test_the_interval_is_the_t_interval_of_the_per_deal_scores():
    scores = np.array([0.0, 0.25, 0.5, 0.25, 0.0, 0.75])
    est = Estimate.of(scores)
    half = 2.570582 * scores.std(ddof=1) / np.sqrt(6)   # t(0.975, 5)
    assert est.mean == pytest.approx(0.291667, abs=1e-6)
    assert (est.ci_low, est.ci_high) == pytest.approx((est.mean - half, est.mean + half), abs=1e-6)


# ---- the search space ---------------------------------------------------------------------------------
def test_coordinates_are_weights_in_score_units_and_round_to_three_digits():
    space = WeightSpace(start_spec("by_colour"), searched_weights("w_points,w_wild"))
    assert space.names == ("w_points", "w_wild")
    np.testing.assert_array_equal(space.start_point(), [0.0, -20.0 * SCALE["w_wild"]])
    policy = space.policy(np.array([12.3456, -0.0000123456]))
    params = dict(policy.params)
    assert params["w_points"] == 1.23 and params["w_wild"] == -1.23e-05
    assert params["w_keeps_colour"] == 10.0   # kept from the start
    assert policy.vector().tolist() == parse_policy("by_colour(w_points=1.23,w_wild=-1.23e-05)").vector().tolist()
    assert parse_policy(policy.label) == policy   # the printed string is the evaluated policy


def test_a_weight_tuned_to_zero_stays_zero_where_plain_weighted_has_another_default():
    space = WeightSpace(start_spec("by_colour"), searched_weights("w_colour_held,w_wild"))
    assert space.names == ("w_wild", "w_colour_held")   # WEIGHT_PARAMS order
    policy = space.policy(np.array([-3.0, 0.0]))
    vector = dict(zip(protocol.POLICY_PARAMS, policy.vector(), strict=True))
    assert vector["w_colour_held"] == 0.0 and vector["w_wild"] == -3.0 and vector["w_keeps_colour"] == 10.0
    assert "w_colour_held=0" in policy.label and "w_bluff" not in policy.label   # w_bluff: the default
    assert parse_policy(policy.label).vector().tolist() == policy.vector().tolist()


def test_the_start_point_maps_back_to_the_start_policy():
    for preset in ("by_colour", "save_wilds", "punisher", "colour_counter", "by_number(p_challenge=0.5,w_seen=2)"):
        space = WeightSpace(start_spec(preset), searched_weights(None))
        np.testing.assert_array_equal(space.policy(space.start_point()).vector(), parse_policy(preset).vector())


@pytest.mark.parametrize("variant,rules,fixed", [
    ("classic", {}, {"w_accept", "w_colour_shown"}),                        # no stacking, no Show Hand
    ("classic", {"stacking": "any_draw"}, {"w_colour_shown"}),              # stacking: accept or stack
    ("spin", {}, {"w_accept", "w_target_hand", "w_target_order"}),          # no swap card in spin
    ("no_mercy", {}, {"w_keep", "w_bluff", "w_colour_shown", "w_challenge", "w_challenge_hand"}),  # no challenge
])
def test_the_probe_fixes_exactly_the_weights_the_rules_give_nothing_to_decide(variant, rules, fixed):
    table = Table(get_variant(variant, {**SINGLE, **rules}), 4, make_lineup("random", 3))
    space = WeightSpace(start_spec("save_wilds"), searched_weights(None))
    kept = relevant(space, table, seed=seeds(1)["probe"])
    assert set(space.names) - set(kept) == fixed


# ---- the budget plan ----------------------------------------------------------------------------------
@pytest.mark.parametrize("budget", [5_000, 60_000, 1_000_000, 30_000_000])
def test_the_plan_spends_at_most_the_budget(budget):
    plan = Plan.for_budget(budget, players=4, dims=25)
    assert plan.popsize == 13 and plan.deals >= MIN_DEALS and plan.generations >= 1
    assert plan.generations * plan.games_per_generation <= budget
    assert (plan.generations + 1) * plan.games_per_generation > budget   # and wastes less than a generation


def test_a_larger_budget_buys_more_deals_and_more_generations():
    small, large = (Plan.for_budget(b, players=4, dims=25) for b in (1_000_000, 16_000_000))
    assert large.deals > small.deals and large.generations > small.generations


def test_the_seed_streams_are_distinct_and_fixed():
    streams = seeds(1)
    assert len(set(streams.values())) == 4 and streams == seeds(1) and streams != seeds(2)
    assert all(0 <= s <= 2**63 - 1 for s in streams.values())


# ---- tune ---------------------------------------------------------------------------------------------
def _small(**kw) -> TuneResult:
    args = dict(budget=12_000, against="keep_wilds", seed=7, start="by_colour(w_voluntary_draw=-100)",
                eval_deals=300, n_jobs=1)
    return tune("classic", 3, **{**args, **kw})


def _comparable(result: TuneResult) -> dict:
    return {k: v for k, v in result.as_dict().items() if k != "seconds"}


@pytest.fixture(scope="module")
def small() -> TuneResult:
    """``_small()``, tuned once for the tests that only read it (the global random state seeded 0 first)."""
    np.random.seed(0)
    return _small()


def test_same_seed_same_result_whatever_the_global_random_state(small):
    first = _comparable(small)
    np.random.seed(12345)
    np.random.random(100)
    assert _comparable(_small()) == first
    assert _comparable(_small(seed=8)) != first   # the seed does reach the search


def test_each_generation_plays_new_deals_shared_by_its_candidates_and_the_evaluation_fresh_ones(monkeypatch):
    calls = []
    scores = Evaluator.scores

    def recorded(self, policies, seed, first_game, deals):
        calls.append((len(policies), seed, first_game, deals))
        return scores(self, policies, seed, first_game, deals)

    monkeypatch.setattr(Evaluator, "scores", recorded)
    result = _small(compare="keep_wilds")
    plan, streams = result.plan, result.seeds
    *search_calls, fresh_call = calls
    assert search_calls == [(plan.popsize, streams["search"], k * plan.deals, plan.deals)   # one call per
                            for k in range(plan.generations)]                            # generation: CRN
    assert fresh_call == (3, streams["fresh"], 0, 300)   # tuned, start, keep_wilds on the fresh stream


@pytest.mark.slow
def test_the_result_does_not_depend_on_the_number_of_workers(small):
    assert _comparable(_small(n_jobs=2)) == _comparable(small)   # small: n_jobs=1


def test_the_history_records_every_generation_within_the_budget(small):
    result = small
    plan = result.plan
    assert [g.generation for g in result.history] == list(range(1, plan.generations + 1))
    assert result.games_searched == plan.generations * plan.games_per_generation <= 12_000
    assert all(0 <= g.mean <= g.best <= 1 for g in result.history)


@pytest.mark.slow
def test_tuning_beats_a_deliberately_bad_start_on_fresh_deals():
    """Known answer: a seat that draws whenever it may never empties its hand (win rate 0); a modest
    search must find weights that win, with the paired interval on fresh deals excluding equality."""
    result = tune("classic", 4, budget=60_000, seed=3, start=ALWAYS_DRAWS, eval_deals=2_000, n_jobs=1)
    assert result.start_estimate.mean == 0.0
    assert result.difference.ci_low > 0.0
    assert result.tuned.ci_low > 0.2   # near the presets' level, not a lucky crumb
    assert dict(result.policy.params)["w_voluntary_draw"] < 8


@pytest.mark.slow
def test_the_printed_lineup_reproduces_the_evaluated_win_rate():
    """The lineup string, parsed and played by unosim.simulate on the fresh seed in every seat position,
    gives exactly the reported win rate: the string is the evaluated policy, rounding included."""
    result = _small(eval_deals=500)
    assert parse_policy(result.lineup) == result.policy
    field = [p.label for p in make_lineup(result.field, 2)]
    wins = 0.0
    for seat in range(3):
        lineup = [field[(j - seat - 1) % 3] if j != seat else result.lineup for j in range(3)]
        res = unosim.simulate("classic", players=3, games=500, seed=result.seeds["fresh"], lineup=lineup,
                              rules=SINGLE)
        wins += res.seats.filter(seat=seat)["won"].sum()
    assert wins / (3 * 500) == pytest.approx(result.tuned.mean, abs=1e-12)


def test_compared_policies_play_the_same_fresh_deals():
    """compare: the start compared with itself reproduces the start's figures exactly (same deals), and
    another policy's figure is its own duplicate evaluation on the fresh seed."""
    result = _small(eval_deals=400, compare="by_colour(w_voluntary_draw=-100),keep_wilds")
    again, other = result.compared
    assert again.policy == "by_colour(w_voluntary_draw=-100)" and other.policy == "keep_wilds"
    assert again.estimate == result.start_estimate and again.difference == result.difference
    with Evaluator(_table(3, "keep_wilds"), 1) as evaluator:
        scores = evaluator.scores([parse_policy("keep_wilds")], result.seeds["fresh"], 0, 400)[0]
    assert other.estimate == Estimate.of(scores)
    assert "  vs keep_wilds " in result.summary()


# ---- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs,words", [
    ({"variant": "clasic"}, ["'clasic'", "classic", "no_mercy"]),
    ({"players": 11}, ["players=11", "2..10"]),
    ({"against": "rando"}, ["'rando'", "greedy_points"]),
    ({"against": "random,random,random"}, ["3 policies", "players=2"]),
    ({"start": "keep_wilds"}, ["'keep_wilds'", "save_wilds", "by_colour"]),
    ({"start": "by_colour(w_nope=1)"}, ["'w_nope'", "w_points"]),
    ({"rules": {"stackng": "any_draw"}}, ["'stackng'", "stacking"]),
    ({"rules": {"match_mode": "points"}}, ["match_mode='points'", "single_round"]),
    ({"budget": 1_000}, ["budget=1,000", "at least 1,950"]),
    ({"budget": -5}, ["budget=-5", "≥ 1"]),
    ({"weights": ["w_points", "w_bogus"]}, ["w_bogus", "w_colour_left"]),
    ({"eval_deals": 1}, ["eval_deals=1", "≥ 2"]),
    ({"n_jobs": 0}, ["n_jobs=0", "-1"]),
    ({"sigma0": float("nan")}, ["sigma0=nan", "> 0"]),
    ({"seed": -1}, ["seed=-1", "0.."]),
    ({"compare": "keep_wild"}, ["compare='keep_wild'", "'keep_wild'", "keep_wilds"]),
])
def test_bad_input_names_the_value_and_the_valid_choices(kwargs, words):
    args = {"variant": "classic", "players": 3, "budget": 10_000, **kwargs}
    with pytest.raises(ValueError) as err:
        tune(args.pop("variant"), args.pop("players"), **args)
    for word in words:
        assert word in str(err.value), (word, str(err.value))


def test_importing_unosim_loads_no_search_machinery():
    """cma, joblib and scipy.stats load when a tune runs, not with the package (every CLI command pays
    the package import)."""
    code = ("import sys, unosim; unosim.tune; "
            "print(sorted(m for m in ('cma', 'joblib', 'scipy.stats', 'tqdm') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


# ---- the CLI ------------------------------------------------------------------------------------------
def _cli(*args, cwd):
    return run_unosim("tune", *args, cwd=cwd)


CLI_RUN = ("--variant", "classic", "--players", "3", "--against", "keep_wilds", "--budget", "12000",
           "--seed", "7", "--start", "by_colour(w_voluntary_draw=-100)", "--eval-deals", "300", "--n-jobs", "1")


def test_cli_prints_the_result_and_writes_json(tmp_path, small):
    run = _cli(*CLI_RUN, "--out", "tuned.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""   # no progress line when stderr is not a terminal
    lines = run.stdout.splitlines()
    record = json.loads((tmp_path / "tuned.json").read_text())
    assert lines[0].startswith("tune classic(match_mode=single_round), 3 players, against keep_wilds,keep_wilds")
    assert lines[1].startswith(f"searched {len(record['searched'])} weights; w_accept, w_colour_shown changed no")
    assert lines[2] == f"tuned policy: {record['policy']}"
    assert f"tuned {record['fresh']['tuned']['estimate']:.4f}" in lines[3] and "fair share 0.3333" in lines[3]
    difference = record["fresh"]["difference"]
    said = ("wins more often than its start" if difference["ci_low"] > 0 else "WORSE than its start"
            if difference["ci_high"] < 0 else "not clearly better than its start")
    assert lines[4].startswith("verdict: the tuned policy") and said in lines[4]
    assert lines[5] == f"as a lineup (tuned seat first): '{record['policy']},keep_wilds,keep_wilds'"
    assert record == {**_comparable(small), "seconds": record["seconds"]}   # the Python API's result


def test_cli_help_names_every_option(capsys):
    from unosim.cli import main
    with pytest.raises(SystemExit) as info:
        main(["tune", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--variant", "--players", "--against", "--budget", "--seed", "--start", "--rule", "--n-jobs",
                   "--out", "--quiet", "--weights", "--eval-deals"):
        assert option in out, option


@pytest.mark.parametrize("args, expected", [
    (["--variant", "clasic"], "unknown variant 'clasic'"),
    (["--against", "bogus"], "unknown policy 'bogus'"),
    (["--start", "bogus"], "start='bogus' is invalid: valid starts are the weighted presets"),
    (["--rule", "n_blank=9"], "n_blank=9"),
    (["--budget", "100"], "budget=100 games is too small"),
    (["--budget", "10"], "budget=10 games is too small"),
    (["--players", "1"], "players=1 is out of range for variant 'classic': valid is an integer 2..10"),
    (["--weights", "w_bogus"], "weights=['w_bogus'] is invalid"),
    (["--budget", "many"], "invalid int value: 'many'"),
])
def test_cli_errors_are_one_line_with_status_2(args, expected, capsys, tmp_path, monkeypatch):
    """In process (the real `python -m unosim tune` runs below): one line, status 2, nothing written."""
    from unosim.cli import main
    monkeypatch.chdir(tmp_path)
    argv = ["tune", "--variant", "classic", "--players", "3", "--budget", "10000", "--n-jobs", "1", *args]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and expected in err, err
    assert "Traceback" not in err and not list(tmp_path.iterdir())


def _on_a_terminal(args, cwd) -> str:
    """Run ``unosim tune ARGS`` with stdout and stderr on a pseudo-terminal; what the user sees."""
    return unosim_on_a_terminal("tune", *args, cwd=cwd, columns=150)


def test_cli_on_a_terminal_shows_one_updating_progress_line(tmp_path):
    screen = _on_a_terminal(CLI_RUN, tmp_path)
    progress, _, output = screen.partition("tune classic")
    probe, bar, evaluation = (line.strip() for line in progress.strip().split("\n"))
    assert probe == "tune: probing which weights can change a game…"
    assert bar.count("\r") >= 1 and "generation 3/3, win rate best" in bar   # one line, redrawn in place
    assert evaluation.startswith("tune: evaluating the tuned policy") and "300 fresh deals…" in evaluation
    assert "tuned policy: weighted(" in output


def test_cli_quiet_on_a_terminal_prints_only_the_result(tmp_path):
    screen = _on_a_terminal((*CLI_RUN, "--quiet"), tmp_path)
    assert screen.startswith("tune classic") and "win rate best" not in screen and "probing" not in screen
    assert "\r" not in screen.replace("\r\n", "\n")   # no line redrawn


@pytest.mark.slow
def test_ctrl_c_stops_the_search_and_its_workers(tmp_path):
    """SIGINT during a parallel search: exit status 130, one line, no worker left behind."""
    import signal
    import time
    proc = subprocess.Popen([*UNOSIM, "tune", "--variant", "classic", "--players", "4",
                             "--budget", "50000000", "--n-jobs", "2"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children: list[str] = []
    deadline = time.monotonic() + 120
    while len(children) < 2 and time.monotonic() < deadline:   # the workers start with the search
        time.sleep(0.5)
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert len(children) >= 2, "the search never started its workers"
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "unosim: interrupted\n"
    gone = time.monotonic() + 2   # within 2 s of the exit, as before: polled rather than slept out
    while [c for c in children if os.path.exists(f"/proc/{c}")] and time.monotonic() < gone:
        time.sleep(0.05)
    assert not [c for c in children if os.path.exists(f"/proc/{c}")]


@pytest.mark.parametrize("low, high, said", [(0.002, 0.01, "wins more often than its start"),
                                             (-0.014, -0.0055, "WORSE than its start"),
                                             (-0.003, 0.004, "not clearly better than its start")])
def test_the_summary_says_plainly_whether_the_tuned_policy_beats_its_start(low, high, said):
    """`unosim tune` returned a policy significantly worse than its start (−0.0097 [−0.014, −0.0055])
    without a word; the verdict line follows the paired interval on the fresh deals."""
    from types import SimpleNamespace

    from unosim.strategies.tuning import TuneResult
    from unosim.strategies.tuning.duplicate import Estimate
    fake = SimpleNamespace(difference=Estimate((low + high) / 2, low, high, 500), start="by_colour")
    line = TuneResult.verdict(fake)
    assert said in line and line.startswith("verdict:")
