"""Study specs: parsing, cells and seeds, and one clear line for each kind of mistake."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from study_specs import small_spec

from unosim.cli import main
from unosim.game import rules
from unosim.pipeline.study import SpecError, load_study, parse_study

STUDIES = sorted((Path(__file__).parents[2] / "analyses" / "studies").glob("*.toml"))


@pytest.mark.parametrize("path", STUDIES, ids=lambda p: p.stem)
def test_example_specs_are_valid(path):
    study = load_study(path)
    assert study.cells and study.total_games > 0


def test_demo_spec_covers_every_variant():
    study = load_study(Path(__file__).parents[2] / "analyses" / "studies" / "demo.toml")
    assert set(rules.variant_names()) <= {rs.name for rs in study.variants.values()}


def test_cells_cross_the_grid_and_resolve_lineups():
    study = parse_study(small_spec())
    names = [c.name for c in study.cells]
    assert len(names) == len(set(names)) == 2 * 2 * 2 + 2
    cell = next(c for c in study.cells if c.name == "classic-p3-greedy_first")
    assert cell.lineup_label == "greedy_points,random,random"
    assert cell.ruleset.match_mode == "single_round"


def test_common_random_numbers_share_seeds_only_where_decks_match():
    cells = {c.name: c for c in parse_study(small_spec()).cells}
    seed = cells["classic-p3-random"].seed
    assert cells["classic-p3-greedy_first"].seed == seed  # lineup differs: same decks
    assert cells["no_bluffing-p3-random"].seed == seed  # house rule, same deck: same decks
    assert cells["no_blank-p3-random"].seed != seed  # another deck
    assert cells["classic-p2-random"].seed != seed  # another player count
    independent = parse_study(small_spec(common_random_numbers=False)).cells
    assert len({c.seed for c in independent}) == len(independent)


def test_seeds_depend_on_the_study_seed():
    a = parse_study(small_spec()).cells[0].seed
    b = parse_study(small_spec(seed=8)).cells[0].seed
    assert a != b


@pytest.mark.parametrize("chunk", [1, 250, 599, 600, 10_000])
def test_jobs_cover_each_cell_exactly(chunk):
    study = parse_study(small_spec())
    for cell in study.cells:
        games = [g for j in study.jobs(chunk) if j.cell == cell for g in range(j.first_game, j.first_game + j.games)]
        assert games == list(range(cell.games))


def _spec_with(path: tuple, value) -> dict:
    spec = copy.deepcopy(small_spec())
    node = spec
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return spec


_DELETE = object()
BAD_SPECS = {
    "unknown top-level key": (("extra",), {}, "unknown key 'extra'"),
    "unknown study key": (("study", "sed"), 1, "unknown key 'sed' in [study]"),
    "missing seed": (("study", "seed"), _DELETE, "missing the required key 'seed'"),
    "bad name": (("study", "name"), "My Study", "lowercase identifier"),
    "negative games": (("study", "games"), -5, "games=-5"),
    "unknown mode": (("study", "mode"), "best_of_3", "valid modes are"),
    "crn not bool": (("study", "common_random_numbers"), "yes", "true or false"),
    "unknown base variant": (("variants", "no_blank", "base"), "clasic", "unknown base variant 'clasic'"),
    "unknown rule": (("variants", "no_blank", "rules"), {"n_blanks": 0}, "unknown rule key 'n_blanks'"),
    "bad rule value": (("variants", "no_blank", "rules"), {"n_blank": 7}, "n_blank=7"),
    "mode in rules": (("variants", "no_blank", "rules"), {"match_mode": "points"}, "[study] mode"),
    "unknown variant key": (("variants", "no_blank", "rule"), {}, "unknown key 'rule'"),
    "unknown grid variant": (("grid", 0, "variants"), ["classic", "minion"], "unknown variant 'minion'"),
    "unknown lineup": (("grid", 0, "lineups"), ["randm"], "unknown lineup 'randm'"),
    "unknown policy": (("lineups", "greedy_first"), "greedy,random*", "unknown policy 'greedy'"),
    "impossible lineup": (("lineups", "greedy_first"), "greedy_points,keep_wilds,random", "players=2"),
    "players out of range": (("grid", 0, "players"), [2, 11], "players=11 is out of range"),
    "players not int": (("grid", 0, "players"), ["4"], "must be integers"),
    "unknown grid key": (("grid", 0, "lineup"), ["random"], "unknown key 'lineup'"),
    "repeated cell": (("grid", 1, "variants"), ["classic"], "repeats cell"),
    "empty axis": (("grid", 0, "players"), [], "non-empty list"),
    "unknown comparison axis": (("comparisons", 0, "axis"), "seat", "unknown axis 'seat'"),
    "comparison of absent cell": (("comparisons", 1, "b"), "no_mercy", "not a variant of the grid"),
    # issue 12, item 9: each gap of the fuzz, one line naming the thing at fault
    "no grid": (("grid",), [], "[[grid]] is empty"),
    "table as a variant name": (("grid", 0, "variants"), [{"a": 1}], "variants: {'a': 1} is not a variant name"),
    "list as a lineup name": (("grid", 0, "lineups"), [["random"]], "lineups: ['random'] is not a lineup name"),
    "list-valued comparison": (("comparisons", 0, "a"), ["random"], "a=['random'] must be a lineup name"),
    "huge target": (("variants", "no_blank", "rules"), {"target": 10**30}, "rule target=10000"),
    "250-character name": (("study", "name"), "a" * 250, "at most 64 characters"),
    "name with a final newline": (("study", "name"), "evil\n", "name='evil\\n' must be a lowercase"),
    "unused variant with an error": (("variants", "unused"), {"base": "classic", "rules": {"n_blank": 99}},
                                     "variant 'unused'"),
    "unused lineup with an error": (("lineups", "unused"), "nonsense*", "[lineups] unused: unknown policy"),
    "built-in variant redefined": (("variants", "classic"), {"base": "classic", "rules": {"n_blank": 0}},
                                   "[variants] classic would redefine the built-in"),
    "policy redefined as a lineup": (("lineups", "random"), "greedy_points*", "would redefine the policy"),
    "rules not a table": (("variants", "no_blank", "rules"), [1], "no_blank rules=[1] must be a table"),
}


@pytest.mark.parametrize("case", BAD_SPECS, ids=list(BAD_SPECS))
def test_each_mistake_is_one_clear_line(case):
    path, value, expected = BAD_SPECS[case]
    with pytest.raises(SpecError) as info:
        parse_study(_spec_with(path, value))
    message = str(info.value)
    assert expected in message
    assert "\n" not in message


@pytest.mark.parametrize("text, expected", [
    ("[study\nname = 1", "not valid TOML"),
    ("[study]\nname = 'x'\nseed = 1\ngames = 10\nmode = 'single_round'\n", "missing the required key 'grid'"),
])
def test_spec_files_that_are_not_specs(tmp_path, text, expected):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SpecError, match=expected):
        load_study(path)


def test_a_spec_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes("[study]\nname = 'caf\u00e9'\n".encode("latin-1"))
    with pytest.raises(SpecError, match=r"latin1.toml: not UTF-8 text \(byte 0xe9 at offset 19\)"):
        load_study(path)


def test_cli_rejects_a_bad_spec_in_one_line_and_writes_nothing(tmp_path, capsys):
    spec = tmp_path / "bad.toml"
    spec.write_text("[study]\nname = 'bad'\nseed = 1\ngames = 10\nmode = 'single_round'\n"
                    "[[grid]]\nvariants = ['classic']\nplayers = [12]\n")
    out = tmp_path / "out"
    assert main(["study", "run", str(spec), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "players=12 is out of range" in err
    assert not out.exists()


def test_a_byte_order_mark_is_read_and_deep_nesting_is_one_line(tmp_path):
    """Issue 24: a UTF-8 BOM and deeply nested TOML gave tracebacks."""
    from unosim.pipeline.study import SpecError, load_study
    spec = tmp_path / "bom.toml"
    spec.write_bytes(b"\xef\xbb\xbf[study]\nname = 'bom'\nseed = 1\ngames = 10\nmode = 'single_round'\n"
                     b"[[grid]]\nvariants = ['classic']\nplayers = [2]\n")
    assert load_study(spec).name == "bom"
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(SpecError, match="nested too deeply") as caught:
        load_study(deep)
    assert "\n" not in str(caught.value)


def test_a_study_s_mechanism_versions_are_those_of_the_mechanisms_its_cells_play(monkeypatch):
    """SMALL_SPEC plays classic (its blanks), minions and classic without blanks: the versions the manifest
    records are the blanks' and minions', and raising one changes the record."""
    import dataclasses

    from unosim.game import protocol

    study = parse_study(small_spec())
    cells = {cell.variant: cell.mechanism_versions for cell in study.cells}
    assert cells["no_blank"] == {} and cells["classic"] == {"blank": protocol.MECHANISMS["blank"].version}
    assert study.mechanism_versions == {"blank": protocol.MECHANISMS["blank"].version,
                                        "minions": protocol.MECHANISMS["minions"].version}
    minions = protocol.MECHANISMS["minions"]
    monkeypatch.setitem(protocol.MECHANISMS, "minions", dataclasses.replace(minions, version=minions.version + 1))
    assert study.mechanism_versions["minions"] == minions.version + 1
