"""The dataset on disk: hive layout, compact types, and refusing files that disagree with the manifest."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest

from unosim.store.layout import TABLES, DatasetError
from unosim.store.manifest import write_manifest
from unosim.store.reader import open_dataset


def test_tables_are_lazy_with_partition_and_lineup_columns(small_dataset):  # noqa: F811
    ds = open_dataset(small_dataset)
    for name in TABLES:
        frame = ds.scan(name)
        assert isinstance(frame, pl.LazyFrame)
        schema = frame.collect_schema()
        assert schema["variant"] == pl.String and schema["players"] == pl.Int8
        assert "lineup" in schema
    seats = ds.seats.collect_schema()
    assert seats["seat"] == pl.Int8 and seats["won"] == pl.Boolean and seats["open_wd4"] == pl.Int8
    counts = ds.matches.group_by("variant", "players", "lineup").len().collect()
    assert counts["len"].to_list() == [600] * len(ds.manifest["study"]["cells"])


def test_parts_are_hive_partitioned_and_zstd_compressed(small_dataset):  # noqa: F811
    import pyarrow.parquet as pq
    parts = sorted(small_dataset.glob("rounds/variant=*/players=*/part-*.parquet"))
    assert parts and not list(small_dataset.rglob("*.tmp"))
    meta = pq.read_metadata(parts[0])
    assert meta.row_group(0).column(0).compression == "ZSTD"
    assert "variant" not in meta.schema.names and "players" not in meta.schema.names


def test_each_column_of_a_part_has_its_cheap_encoding(small_dataset):  # noqa: F811
    import pyarrow.parquet as pq

    def encodings(table):
        part = next(small_dataset.glob(f"{table}/variant=classic/players=3/part-*.parquet"))
        meta = pq.read_metadata(part)
        return {meta.schema.column(i).name: set(meta.row_group(0).column(i).encodings)
                for i in range(meta.num_columns)}

    seats, rounds = encodings("seats"), encodings("rounds")
    assert "DELTA_BINARY_PACKED" in seats["game"] and "DELTA_BINARY_PACKED" in rounds["game"]
    for name in ("open_n0", "open_wd4", "cards_left", "n_played"):  # costly to dictionary-encode
        assert "BYTE_STREAM_SPLIT" in seats[name] and "RLE_DICTIONARY" not in seats[name], name
    for name in ("rel_dealer", "policy", "lineup"):  # what polars reads fastest
        assert "RLE_DICTIONARY" in seats[name] and "BYTE_STREAM_SPLIT" not in seats[name], name
    for name in ("n_turns", "points", "dealer_seat", "end"):
        assert "RLE_DICTIONARY" in rounds[name], name
    # one value in the whole part (single rounds; classic has no knockouts nor draw-four cards), and
    # the seat number 0..n-1 over and over: plain
    for encoding, name in [(seats, "round"), (seats, "open_draw_four"), (seats, "seat"), (rounds, "round"),
                           (rounds, "knockouts")]:
        assert encoding[name] <= {"PLAIN", "RLE"} and "PLAIN" in encoding[name], name
    schema = pq.read_schema(next(small_dataset.glob("seats/variant=classic/players=3/part-*.parquet")))
    assert schema.field("policy").type.value_type == "string"  # read back as the dictionary it was


def test_only_a_column_with_one_value_and_no_nulls_is_written_plain():
    import pyarrow as pa

    from unosim.store.writer import column_encodings
    table = pa.table({"same": pa.array([3, 3, 3], pa.int32()), "varies": pa.array([3, 3, 4], pa.int32()),
                      "same_with_null": pa.array([3, None, 3], pa.int16()), "zeros": pa.array([0, 0, 0], pa.int8()),
                      "label": pa.array(["a", "a", "a"]).dictionary_encode(), "won": pa.array([True] * 3)})
    dictionary, encodings = column_encodings(table)
    assert encodings == {"same": "PLAIN", "zeros": "PLAIN"}
    assert dictionary == ["varies", "same_with_null", "label"]
    assert column_encodings(table.slice(0, 0)) == (["same", "varies", "same_with_null", "zeros", "label"], {})


def test_refuses_a_missing_part(copy_of):
    next(copy_of.glob("seats/variant=minions/players=2/*.parquet")).unlink()
    with pytest.raises(DatasetError, match="missing"):
        open_dataset(copy_of)


def test_refuses_an_unexpected_part(copy_of):
    part = next(copy_of.glob("rounds/variant=classic/players=3/*.parquet"))
    shutil.copy(part, part.with_name("part-stray-00000.parquet"))
    with pytest.raises(DatasetError, match="unexpected"):
        open_dataset(copy_of)


def test_refuses_game_counts_that_disagree(copy_of):
    manifest = json.loads((copy_of / "manifest.json").read_text())
    manifest["study"]["cells"][0]["games"] = 550  # the same 3 jobs of 250 games, 50 fewer games
    name = manifest["study"]["cells"][0]["name"]
    manifest["cells"][name].update(games=550, layout=[[0, 0, 550, 250]])
    write_manifest(copy_of, manifest)   # sealed so: only the parts disagree
    with pytest.raises(DatasetError, match="matches on disk"):
        open_dataset(copy_of)


def test_refuses_an_incomplete_run_and_a_directory_without_manifest(copy_of, tmp_path):
    manifest = json.loads((copy_of / "manifest.json").read_text())
    manifest["status"] = "running"
    write_manifest(copy_of, manifest)
    with pytest.raises(DatasetError, match="incomplete"):
        open_dataset(copy_of)
    with pytest.raises(DatasetError, match="no manifest.json"):
        open_dataset(tmp_path)


def _frame_as_part(frame: pl.DataFrame, lineup: str):
    """The oracle of dataset.part_table: the polars frame, partition columns dropped, lineup added,
    every string column dictionary-encoded by arrow itself."""
    import pyarrow as pa
    table = frame.drop("variant", "players", strict=False).with_columns(pl.lit(lineup, pl.String).alias("lineup")).to_arrow()
    for i, fld in enumerate(table.schema):
        if pa.types.is_string(fld.type) or pa.types.is_large_string(fld.type):
            column = table.column(i).cast(pa.string()).dictionary_encode()
            table = table.set_column(i, pa.field(fld.name, column.type), column)
    return table


@pytest.mark.parametrize("variant", ["classic", "minions", "spin", "no_mercy", "flip"])
@pytest.mark.parametrize(("players", "lineup", "mode"), [
    (2, "random", "single_round"), (4, "greedy_points,random*", "single_round"),
    (6, "keep_wilds,random,keep_wilds,greedy_points,random,random", "single_round"), (3, "random", "points"),
    (3, "greedy_points,random*", "lowest")])
def test_a_part_holds_exactly_the_results_frame(variant, players, lineup, mode):
    from unosim import simulate
    from unosim.store.writer import part_table
    results = simulate(variant, players=players, games=30, seed=5, lineup=lineup, rules={"match_mode": mode})
    for name in TABLES:
        direct = part_table(results, name, "the-lineup")
        expected = _frame_as_part(getattr(results, name), "the-lineup")
        assert direct.schema.names == expected.schema.names and direct.schema.types == expected.schema.types
        nullable = [f.name for f in direct.schema if f.nullable]  # parquet writes no levels for the others
        assert nullable == (["winner_max_deficit"] if name == "rounds" else []), name
        assert direct.cast(expected.schema).equals(expected), name


@pytest.mark.parametrize("variant", ["classic", "minions", "spin", "no_mercy", "flip"])
def test_the_schema_of_no_games_is_the_schema_of_played_games(variant):
    """A study's parent records the parts' schema from tables of no games, without the engine."""
    from unosim import simulate
    from unosim.game.policies import make_lineup
    from unosim.play.simulate import Results
    from unosim.store.writer import part_table, table_schemas
    lineup = "greedy_points,random*"
    played = simulate(variant, players=4, games=3, seed=2, lineup=lineup)
    empty = Results.empty(played.rules, 4, make_lineup(lineup, 4))
    assert len(empty.raw.rounds) == len(empty.raw.seats) == len(empty.raw.matches) == 0
    assert (table_schemas({t: part_table(empty, t, "x") for t in TABLES})
            == table_schemas({t: part_table(played, t, "x") for t in TABLES}))


def test_arrays_built_from_buffers_equal_those_of_pa_array():
    """The writer builds arrow arrays from numpy buffers (``pa.array`` imports pandas in every worker)."""
    import numpy as np
    import pyarrow as pa

    from unosim.store.writer import _integers, _numbers, _strings
    rng = np.random.default_rng(3)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, bool):
        values = rng.integers(-100, 100, 37).astype(dtype)
        missing = rng.random(37) < 0.3
        for array, mask in ((values, None), (values, np.zeros(37, bool)), (values, missing), (values[::3], None)):
            built = _numbers(array, mask)
            built.validate(full=True)
            assert built.equals(pa.array(array, mask=mask)), (dtype, mask)
    assert _strings(["random", "greedy_points", "ü"], pa.string()).equals(pa.array(["random", "greedy_points", "ü"]))
    assert _strings(["a", "bc"], pa.large_string()).equals(pa.array(["a", "bc"], pa.large_string()))
    sliced = pa.array(np.arange(20, dtype=np.int16)).slice(5, 6)
    assert _integers(sliced).tolist() == list(range(5, 11))
