"""Design search (unosim.design): the space from the rule table, bad specs in one line, a known answer,
resuming after an interruption, the confirmation's independence from the search."""

from __future__ import annotations

import pytest
from explorer_client import call

from unosim.design import DesignSpecError, evaluate, search, space
from unosim.design import confirm as confirming
from unosim.design.spec import parse
from unosim.game import designer_deck, families, rule_table

TINY = {"first_games": 200, "batch": 6}


def _spec(**changes):
    table = {"name": "t", "variant": "classic", "players": 4, "objectives": {"length": "less"},
             "budget": {"games": 60_000}, **TINY, "space": {"rules": ["hand_size", "two_player_reverse_skip",
                                                                     "final_card_effects"],
                                                           "ranges": {"hand_size": [5, 9]}, "deck": False}}
    table.update(changes)
    return parse(table)


def test_space_is_the_rule_table_and_the_designer_deck():
    for variant in ("classic", "no_mercy", "spin"):
        derived = space.derive(variant)
        spec = families.get(variant)
        rules = {d.name for d in derived.dimensions if not d.is_deck}
        expected = {r.name for r in rule_table.PARAMETERS if r.group in space.SEARCHED_GROUPS and r.name not in space.NOT_SEARCHED
                    and r.name not in spec.fixed and r.name not in spec.not_applicable
                    and (not r.mechanisms or spec.mechanics in r.mechanisms)}
        assert rules == expected
        classes = {d.name.removeprefix("deck.") for d in derived.dimensions if d.is_deck}
        assert classes == set(designer_deck.valid_classes(spec.kinds))
    assert "stacking" not in {d.name for d in space.derive("no_mercy").dimensions}   # fixed in no_mercy


def test_space_narrowed_and_fixed():
    s = space.derive("classic", rules=["hand_size", "jump_in"], fixed={"jump_in": True},
                     ranges={"hand_size": [5, 6]}, deck={"wild": [2, 3]})
    assert [d.name for d in s.dimensions] == ["hand_size", "deck.wild"]
    assert s.size() == 4
    assert s.overrides({"hand_size": 6, "deck.wild": 2}) == {"jump_in": True, "hand_size": 6, "deck": {"wild": 2}}


@pytest.mark.parametrize("changes, words", [
    ({"objectives": {"fun": "more"}}, "unknown objective 'fun'"),
    ({"objectives": {"length": "sideways"}}, "objectives.length = 'sideways' is invalid"),
    ({"constraints": {"no_winner": {"min": 0.5, "max": 0.1}}}, "impossible"),
    ({"constraints": {"deck_size": [500, 600]}}, "impossible"),
    ({"space": {"rules": [], "deck": False}}, "empty"),
    ({"space": {"rules": ["teleport"]}}, "'teleport' is not a rule classic can search"),
    ({"budget": {"games": 10}}, "too small"),
    ({"confirm_games": 100}, "too small to confirm"),
])
def test_bad_specs_say_so_in_one_line(tmp_path, changes, words):
    with pytest.raises(DesignSpecError) as caught:
        spec = _spec(**changes)
        search.run_search(spec, tmp_path / "d")
    message = str(caught.value)
    assert words in message and "\n" not in message


@pytest.mark.slow
def test_known_answer_found_in_nine_of_ten_seeds(tmp_path):
    """Only hand_size moves the length of a single round here (the other rules act only with two active
    players or on points): the shortest design deals 5 cards."""
    found = 0
    for seed in range(10):
        spec = _spec(seed=seed, name=f"k{seed}", budget={"games": 25_000})
        study = search.run_search(spec, tmp_path / f"k{seed}")
        best = confirming.select(confirming.designs(study), spec, top=1)[0]
        found += best.overrides["hand_size"] == 5
    assert found >= 9


def test_resume_after_interruption_keeps_the_trials(tmp_path, monkeypatch):
    spec = _spec(budget={"games": 40_000})
    calls = {"n": 0}
    real = evaluate.play

    def interrupted(job):
        calls["n"] += 1
        if calls["n"] > 20:   # in the third batch
            raise KeyboardInterrupt
        return real(job)
    monkeypatch.setattr(search, "play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        search.run_search(spec, tmp_path / "d")
    monkeypatch.setattr(search, "play", real)
    kept = search.open_study(spec, tmp_path / "d", 0)
    before = {t.number: t.values for t in kept.get_trials() if t.state.name == "COMPLETE"}
    assert len(before) >= 6
    study = search.run_search(spec, tmp_path / "d")
    after = {t.number: t.values for t in study.get_trials() if t.state.name == "COMPLETE"}
    assert {k: after[k] for k in before} == before and len(after) > len(before)
    assert int(study.user_attrs["games"]) <= 40_000


def test_no_feasible_design_says_so_with_the_closest(tmp_path):
    import unosim
    lines = []
    frame = unosim.design(name="nf", variant="classic", players=4, objectives={"length": "less"},
                          constraints={"length": {"max": 3}}, budget={"games": 30_000}, confirm_games=0,
                          out=tmp_path, say=lines.append, **TINY,
                          space={"rules": ["hand_size"], "ranges": {"hand_size": [5, 9]}, "deck": False})
    assert not frame["feasible"].any() and not frame["confirmed"].any()
    assert any(line.startswith("no design satisfies the constraints; the closest: design_") for line in lines)
    assert not (tmp_path / "nf" / "confirm").exists()   # nothing confirmed, no report of designs


def test_confirmation_seed_is_not_a_search_seed():
    streams = search.seeds(7)
    assert len(set(streams.values())) == len(streams)
    spec = _spec(seed=7)
    d = confirming.Design(3, {"hand_size": 5}, {"length": 1.0}, {"length": 2.0}, 200, 0.0, (1.0,))
    text = confirming.study_spec(spec, [d], games=2000, seed=streams["confirm"], name="c", note="n")
    assert f"seed = {streams['confirm']}" in text and str(streams["search"]) not in text


def test_an_exported_design_plays_fresh_games_the_same_each_time(tmp_path):
    """The exported study of a confirmed design plays other games than its confirmation did (a fresh
    study, not a replay), and the same games whenever it runs; two designs' exports play apart too."""
    import tomllib

    from study_specs import table

    from unosim.pipeline.runner import run_study
    from unosim.pipeline.study import parse_study
    spec = _spec(seed=13, confirm_games=2000)
    chosen = confirming.Design(4, {"hand_size": 6}, {}, {}, 0, 0.0, (0.0,))

    def rounds(text: str, folder: str):
        summary = run_study(parse_study(tomllib.loads(text)), tmp_path / folder, n_jobs=1, progress=False)
        return table(summary.path, "rounds").select("variant", "game", "round", "n_turns", "winner_seat")

    confirmed = rounds(confirming.confirmation_spec(spec, [chosen], tried=1), "confirmation")
    exported = rounds(confirming.exported_spec(spec, chosen, 2000), "export")
    assert exported.height == confirmed.height == 4000 and not exported.equals(confirmed)
    assert exported.equals(rounds(confirming.exported_spec(spec, chosen, 2000), "export_again"))
    other = confirming.Design(5, {"hand_size": 6}, {}, {}, 0, 0.0, (0.0,))
    assert search.export_seed(13, 5) != search.export_seed(13, 4)
    assert f"seed = {search.export_seed(13, 5)}" in confirming.exported_spec(spec, other, 2000)


def test_confirmation_intervals_do_not_depend_on_the_search_seed(tmp_path, monkeypatch):
    """The confirmation plays the confirmation stream's games only: with another search stream (the games
    the designs were selected on) its effects and intervals are the same, to the last digit."""
    import polars as pl

    from unosim.analysis.standard import TABLE_DIR, read_tables
    spec = _spec(seed=11, confirm_games=2000)
    chosen = [confirming.Design(1, {"hand_size": 5}, {}, {}, 0, 0.0, (0.0,))]
    real = search.seeds(11)
    tables = []
    for run, search_seed in (("a", real["search"]), ("b", real["search"] + 1)):
        monkeypatch.setattr(confirming, "seeds", lambda seed, s=search_seed: {**real, "search": s})
        ds = confirming.confirm(spec, chosen, tmp_path / run, record=_record(spec, chosen))
        tables.append(read_tables(ds.path / TABLE_DIR)["effects"].select("measure", "estimate", "ci_low", "ci_high"))
    assert tables[0].equals(tables[1])
    assert tables[0].filter(pl.col("measure") == "length")["estimate"][0] < 0   # 5 cards: shorter rounds
    _the_report_leads_with_the_checked_design_verdict(ds)
    _the_design_section_in_a_real_browser(ds, tmp_path)


def _record(spec, chosen):
    """The search record of two designs tried by hand (trial 1 confirmed)."""
    import polars as pl
    trials = pl.DataFrame({"trial": [1, 2], "batch": [0, 0], "state": ["complete", "complete"], "rung": [1, 0],
                           "games": [600, 200], "length": [40.0, 47.0], "base_length": [49.0, 48.5],
                           "violation": [0.0, 0.0], "feasible": [True, True], "hand_size": ["5", "6"],
                           "refused": [None, None], "pareto": [True, False]})
    return confirming.search_record(spec, trials, chosen, games=1_600, seconds=1.0)


def _the_report_leads_with_the_checked_design_verdict(ds):
    from unosim.analysis.checker import check_claims
    from unosim.analysis.standard import TABLE_DIR, as_written, read_findings, read_profile, read_tables
    directory = ds.path / TABLE_DIR
    claims = [c for c in read_findings(directory) if c.section == "design"]
    assert claims[0].text.startswith("These designs were selected by a search: it tried 2 designs of classic at 4 "
                                     "players on 1,600 games") and "never played" in claims[0].text
    assert claims[1].text.startswith("Best on less length: design_1, −") and claims[1].table == "effects"
    tables, profile = read_tables(directory), read_profile(directory)
    assert check_claims(as_written(tables), read_findings(directory), profile) == []
    lied = dict(tables, design_search=tables["design_search"].with_columns(tried=3))   # a sentence the table denies
    assert any("tried" in p for p in check_claims(as_written(lied), read_findings(directory), profile))
    page = (ds.path / "report.html").read_text(encoding="utf-8")
    assert page.index('<section id="design">') < page.index('<section id="findings">')
    assert "The design verdict" in page and "Pareto chart of the 2 designs tried" in page
    assert (directory / "charts" / "pareto.svg").is_file()


def test_export_is_a_runnable_study_spec(tmp_path):
    from unosim.pipeline.study import load_study
    spec = _spec()
    d = confirming.Design(4, {"hand_size": 6, "deck": {"wild": 6}}, {}, {}, 0, 0.0, (0.0,))
    path = confirming.export(spec, d, tmp_path / "d.toml", 5000)
    study = load_study(path)
    assert {c.variant for c in study.cells} == {"base", "design_4"}
    assert study.variants["design_4"].deck_in_effect()["wild"] == 6


@pytest.mark.parametrize("body, words", [
    ({"variant": "classic", "players": 4, "objectives": {"fun": "more"}}, "unknown objective 'fun'"),
    ({"variant": "classic", "players": 4, "objectives": {"length": "less"}, "minutes": 30}, "minutes = 30"),
])
def test_explorer_design_mode_refuses_a_bad_search_in_one_line(explorer, body, words):
    status, answer = call(explorer, "/api/design", body)
    assert status == 400
    message = answer["error"]
    assert words in message and "\n" not in message


@pytest.mark.slow
def test_explorer_design_mode_runs_a_search_and_serves_its_report(explorer):
    import time
    body = {"variant": "classic", "players": 4, "objectives": {"length": "less"}, "minutes": 0.05,
            "space": {"rules": ["hand_size"], "ranges": {"hand_size": [5, 7]}, "deck": False}}
    status, answer = call(explorer, "/api/design", body)
    assert status == 202
    run = answer["id"]
    status, answer = call(explorer, "/api/design", body)   # one search at a time: each is minutes of CPU
    assert status == 429 and "already running" in answer["error"]
    deadline = time.monotonic() + 300
    while (state := call(explorer, f"/api/design/{run}")[1])["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.5)
    assert state["status"] == "done", state
    status, page = call(explorer, state["report"])
    assert status == 200 and "These designs were selected by a search" in page
    assert call(explorer, f"/api/design/{run}/../../etc/passwd")[0] == 404


def test_command_line_space_and_bad_spec(tmp_path, capsys):
    from unosim.cli import main
    spec = tmp_path / "d.toml"
    spec.write_text('[design]\nvariant = "no_mercy"\nplayers = 4\nobjectives = { length = [25, 40] }\n'
                    '[design.space]\nranges = { hand_size = [5, 9] }\ndeck = { draw_two = [0, 16] }\n')
    assert main(["design", str(spec), "--space"]) == 0
    out = capsys.readouterr().out
    assert "hand_size" in out and "5..9" in out and "deck.draw_two" in out and "stacking" not in out
    spec.write_text('[design]\nvariant = "classic"\nplayers = 4\nobjectives = { fun = "more" }\n')
    assert main(["design", str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown objective 'fun'" in err
    assert main(["design", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read design spec" in capsys.readouterr().err


def test_objectives_on_rounds_made_by_hand():
    import polars as pl

    from unosim.design.objectives import OBJECTIVES, Played
    rounds = pl.DataFrame({"winner_seat": [0, 1, 1, -1], "dealer_seat": [3, 3, 0, 0], "n_turns": [10, 20, 30, 40],
                           "lead_changes": [1, 2, 3, 100], "winner_max_deficit": [0, 3, 5, 0]})
    played = Played(rounds, players=4)
    value = {name: OBJECTIVES[name].compute(played) for name in ("length", "fairness", "comebacks",
                                                                  "lead_changes", "deficit", "no_winner")}
    # positions after the dealer: 1, 2, 1 (and a round with no winner); rates over 4 rounds 0, 2/4, 1/4, 0
    assert value == {"length": 25.0, "fairness": 0.5, "comebacks": 2 / 3, "lead_changes": 2.0,
                     "deficit": 8 / 3, "no_winner": 0.25}
    skilled = Played(rounds, 4, skilled=rounds)
    assert OBJECTIVES["skill"].compute(skilled) == pytest.approx(1 / 3 - 1 / 4)


def test_a_journal_of_another_spec_is_refused_in_one_line(tmp_path):
    search.open_study(_spec(), tmp_path, 0)
    with pytest.raises(DesignSpecError) as caught:
        search.open_study(_spec(objectives={"length": "more"}), tmp_path, 0)
    assert "holds the trials of another design spec" in str(caught.value) and "\n" not in str(caught.value)
    search.open_study(_spec(budget={"games": 10**6}), tmp_path, 0)   # a larger budget resumes the same search


def _the_design_section_in_a_real_browser(ds, tmp_path):
    """At 1280 px and on a phone (390 px): the design section first, its Pareto chart drawn (a phone's chart
    with a full-size link on screen), the folded trials table, no sideways scroll, every link resolved (without
    Chromium, as the browser tests do: skipped)."""
    import browser
    from browser import PROBE, chromium_dom
    chromium = browser.chromium()
    if chromium is None:
        return
    probe = ds.path / "probe.html"
    probe.write_text((ds.path / "report.html").read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"))
    for width in (1280, 390):
        dom = chromium_dom(chromium, probe, tmp_path / f"profile{width}", width=width)
        assert dom["innerWidth"] == width and dom["sections"][:2] == ["design", "findings"], dom["sections"]
        assert dom["navLinks"][:2] == ["#design", "#findings"] and not dom["unresolved"], dom["unresolved"]
        pareto = [i for i in dom["images"] if i["alt"].startswith("Pareto chart")]
        assert pareto and all(i["complete"] and i["width"] > 0 for i in pareto), dom["images"]
        assert any(c["text"].startswith("Every design the search tried") for c in dom["captions"]), dom["captions"]
        for figure in dom["figures"]:
            assert 0 <= figure["left"] and figure["right"] <= width, figure
        assert dom["scrollWidth"] <= dom["clientWidth"], (width, dom["scrollWidth"], dom["clientWidth"])
