"""A dataset that cannot lie (issue 24): readers see exactly the verified parts, the manifest is sealed,
repair deletes only what cannot be proved, and nothing is written or deleted outside the dataset."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from study_specs import analyzed, small, table

from unosim.cli import main
from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study
from unosim.store.atomic import OutsideDataset, write_text_atomic
from unosim.store.layout import LEDGER, MANIFEST, TABLES, DatasetError
from unosim.store.ledger import read_ledger
from unosim.store.reader import PARTITION_SCHEMA, open_dataset


@pytest.fixture
def copy(small_pair, tmp_path):
    return Path(shutil.copytree(small_pair[0], tmp_path / "out" / "small", symlinks=True))


def rows(root: Path) -> int:
    return open_dataset(root).rounds.select("game").collect().height


def edit_manifest(root: Path, change) -> None:
    """Edit manifest.json as a person or a careless script would: load, change a field, save (the seal
    stays as it was)."""
    manifest = json.loads((root / MANIFEST).read_text())
    change(manifest)
    (root / MANIFEST).write_text(json.dumps(manifest, indent=2))


# ---- 1. read exactly what was verified ---------------------------------------------------------------
FOREIGN_PLACES = [
    "rounds/variant=classic/players=3/extra",                      # a directory link inside a partition
    "rounds/variant=classic/players=3/part-classic-p3-random-00009.parquet",   # a file link, part-named
    "rounds/variant=classic/players=9",                             # a whole partition as a link
    "rounds/variant=minions",                                       # a variant as a link
]


@pytest.mark.parametrize("place", FOREIGN_PLACES)
def test_foreign_parts_behind_a_link_are_never_read(small_pair, copy, place):
    """Issue 24: two foreign parts behind a directory link passed `verify`, and open_dataset held 30,000
    rows for a 20,000-game study. Every way a glob could see them is refused by verify and open."""
    _, other = small_pair
    foreign = other / "rounds/variant=classic/players=3"
    target = copy / place
    target.parent.mkdir(parents=True, exist_ok=True)
    if place.endswith(".parquet"):
        target.symlink_to(next(foreign.glob("*.parquet")))
    else:
        target.symlink_to(foreign, target_is_directory=True)
    with pytest.raises(DatasetError, match=f"{place}: a symbolic link"):
        open_dataset(copy)
    assert main(["study", "verify", str(copy)]) == 2
    assert main(["study", "verify", str(copy), "--repair"]) == 0
    assert not target.is_symlink() and not target.exists() and foreign.exists()   # the link, not its target
    assert rows(copy) == rows(small_pair[0])


def test_a_table_directory_that_is_a_link_is_refused(small_pair, copy):
    shutil.rmtree(copy / "seats")
    (copy / "seats").symlink_to(small_pair[1] / "seats", target_is_directory=True)
    with pytest.raises(DatasetError, match="seats: a symbolic link where the table's directory belongs"):
        open_dataset(copy)


def test_readers_scan_the_recorded_parts_not_a_glob(copy):
    """A regular foreign file that verify would name is never read in the meantime: the scan lists the
    ledger's parts (a hidden .parquet file, which polars' glob reads, is not among them)."""
    ds = open_dataset(copy)
    assert all(len(ds.parts[t]) == len(read_ledger(copy)) for t in TABLES)
    before = ds.rounds.select("game").collect().height
    hidden = copy / "rounds/variant=classic/players=2/.hidden.parquet"
    shutil.copy(ds.parts["rounds"][0], hidden)
    assert ds.rounds.select("game").collect().height == before
    with pytest.raises(DatasetError, match="hidden.parquet: unexpected part"):
        open_dataset(copy)


# ---- 2. a sealed manifest -----------------------------------------------------------------------------
@pytest.mark.parametrize("field, change", [
    ("study.cells[classic-p2-random].rules_key", lambda m: m["study"]["cells"][0].update(rules_key="classic|x=1")),
    ("study.seed", lambda m: m["study"].update(seed=8)),
    ("chunk_size", lambda m: m.update(chunk_size=100)),
    ("study.cells[classic-p3-random].games", lambda m: m["study"]["cells"][2].update(games=600)),
    ("schema.rounds", lambda m: m["schema"]["rounds"].pop()),
])
def test_an_edited_manifest_is_refused_naming_the_field(copy, capsys, field, change):
    """Issue 24: a cell's rules_key edited in manifest.json passed verify, and the report printed the
    numbers under rules they were not played by."""
    edit_manifest(copy, change)
    for command in (["study", "verify", str(copy)], ["analyze", str(copy)], ["study", "status", str(copy)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"field {field} was changed" in err, err
    with pytest.raises(DatasetError, match=f"field {field.replace('[', '.').replace(']', '.')}"):
        run_study(parse_study(small()), copy.parent, n_jobs=1, progress=False)


def test_repair_deletes_nothing_when_the_manifest_is_in_doubt(small_pair, copy, capsys):
    """Issue 24: with the seed, games or schema edited in the manifest, --repair deleted 30-120 good
    parts and the resume still refused."""
    parts = sorted(p.relative_to(copy) for p in copy.rglob("*.parquet"))
    for change in (lambda m: m["study"].update(seed=8), lambda m: m["cells"]["classic-p2-random"].update(games=1),
                   lambda m: m.pop("seal"), lambda m: m["seal"].update(sha256="0" * 64)):
        edit_manifest(copy, change)
        assert main(["study", "verify", str(copy), "--repair"]) == 2
        assert "manifest.json" in capsys.readouterr().err
        assert sorted(p.relative_to(copy) for p in copy.rglob("*.parquet")) == parts
        shutil.copy(small_pair[0] / MANIFEST, copy / MANIFEST)
    assert main(["study", "verify", str(copy)]) == 0


def test_an_edited_ledger_is_refused_and_repair_adopts_what_verifies(small_pair, copy, capsys):
    lines = (copy / LEDGER).read_text().splitlines()
    record = json.loads(lines[0])
    other = json.loads((small_pair[1] / LEDGER).read_text().splitlines()[0])
    part = f"rounds/variant=classic/players=2/part-{record['cell']}-{record['job']:05d}.parquet"
    shutil.copy(small_pair[1] / part, copy / part)   # a foreign part, and the ledger forged to match it
    record["parts"]["rounds"] = other["parts"]["rounds"]
    (copy / LEDGER).write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    with pytest.raises(DatasetError, match="parts.jsonl: does not match the manifest's seal"):
        open_dataset(copy)
    assert main(["study", "verify", str(copy), "--repair"]) == 0
    out = capsys.readouterr().out
    assert "deleted 3 file(s) of 1 job(s)" in out and f"kept {len(lines) - 1} job(s)" in out
    run_study(parse_study(small()), copy.parent, n_jobs=1, progress=False)
    for name in TABLES:
        assert table(copy, name).equals(table(small_pair[0], name)), name


def test_repair_with_the_ledger_missing_adopts_every_good_part_like_a_resume(small_pair, copy, capsys):
    """Issue 24: with the ledger deleted, --repair deleted every part, where a resume adopts them."""
    (copy / LEDGER).unlink()
    n_parts = len(list(copy.rglob("*.parquet")))
    with pytest.raises(DatasetError, match="parts.jsonl: missing"):
        open_dataset(copy)
    assert main(["study", "verify", str(copy), "--repair"]) == 0
    assert "deleted 0 file(s)" in capsys.readouterr().out
    assert len(list(copy.rglob("*.parquet"))) == n_parts
    assert rows(copy) == rows(small_pair[0])
    (copy / LEDGER).unlink()
    edit_manifest(copy, lambda m: None)   # status stays complete: a resume must re-adopt, not rerun
    summary = run_study(parse_study(small()), copy.parent, n_jobs=1, progress=False)
    assert summary.jobs_run == 0 and rows(copy) == rows(small_pair[0])


# ---- 4. nothing written or deleted outside the dataset ----------------------------------------------
def test_an_analysis_link_is_not_written_through(copy, tmp_path, capsys):
    """Issue 24: an `analysis` link made `analyze` write 13 CSVs, tables.json and the charts into its target."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (copy / "analysis").symlink_to(elsewhere, target_is_directory=True)
    for command in (["analyze", str(copy)], ["report", str(copy)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is a symbolic link" in err and "inside the dataset" in err, err
    assert list(elsewhere.iterdir()) == []
    (copy / "analysis").unlink()
    (copy / "analysis").mkdir()
    (copy / "analysis" / "charts").symlink_to(elsewhere, target_is_directory=True)
    assert main(["analyze", str(copy)]) == 2
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("name", [MANIFEST, LEDGER, ".lock", ".lock.owner", "report.html"])
def test_a_file_link_at_the_top_is_not_written_through(small_pair, copy, tmp_path, name):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    (copy / name).unlink(missing_ok=True)
    (copy / name).symlink_to(outside)
    with pytest.raises((DatasetError, OSError)):
        if name == "report.html":
            from unosim.reporting.report import write_report
            shutil.copy(small_pair[0] / MANIFEST, copy / MANIFEST)
            write_report(analyzed(copy))
        else:
            run_study(parse_study(small()), copy.parent, n_jobs=1, progress=False)
    assert outside.read_text() == "keep me"


def test_a_crafted_manifest_cannot_make_repair_delete_outside(copy, tmp_path):
    """Issue 24: a crafted dataset could make `verify --repair` delete a part-named file outside it."""
    victim = tmp_path / "victim" / "part-x-00000.parquet"
    victim.parent.mkdir()
    victim.write_text("keep me")
    manifest = json.loads((copy / MANIFEST).read_text())
    manifest["study"]["cells"][0]["variant"] = "../../../victim"
    manifest.pop("seal")
    (copy / MANIFEST).write_text(json.dumps(manifest))
    assert main(["study", "verify", str(copy), "--repair"]) == 2
    assert victim.read_text() == "keep me"


def test_writes_and_deletes_through_a_link_at_any_level_are_refused(copy, tmp_path):
    from unosim.store.atomic import remove
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "players=2").mkdir(parents=True)
    (elsewhere / "players=2" / "x.parquet").write_text("keep me")
    link = copy / "rounds/variant=linked"
    link.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutsideDataset, match="variant=linked is a symbolic link"):
        write_text_atomic(link / "players=2" / "y.parquet", "no")
    with pytest.raises(OutsideDataset):
        remove(link / "players=2" / "x.parquet")
    assert (elsewhere / "players=2" / "x.parquet").read_text() == "keep me"
    assert not (elsewhere / "players=2" / "y.parquet").exists()
    assert remove(link)   # the link itself lies inside: removing it is fine
    assert (elsewhere / "players=2" / "x.parquet").exists()


def test_the_dataset_directory_itself_may_be_a_link(small_pair, tmp_path):
    real = Path(shutil.copytree(small_pair[0], tmp_path / "big" / "small"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "small").symlink_to(real, target_is_directory=True)
    assert main(["analyze", str(tmp_path / "data" / "small")]) == 0
    assert (real / "analysis" / "source.json").exists()
    assert run_study(parse_study(small()), tmp_path / "data", n_jobs=1, progress=False).jobs_run == 0


# ---- 7. a kill during --force -------------------------------------------------------------------------
@pytest.mark.parametrize("stop_at", ["first directory", "second directory", "manifest"])
def test_a_force_stopped_at_any_point_is_finished_by_the_next_run(copy, monkeypatch, stop_at):
    """Issue 24: a kill during --force, after the manifest was deleted, left a folder --force refused."""
    from unosim.pipeline import start
    real_rmtree, real_remove, calls = shutil.rmtree, start.remove, []

    def rmtree(path, *args, **kwargs):
        calls.append(path)
        if stop_at == {1: "first directory", 2: "second directory"}.get(len(calls)):
            raise KeyboardInterrupt
        real_rmtree(path, *args, **kwargs)

    def remove(path):
        if stop_at == "manifest" and Path(path).name == MANIFEST:
            raise KeyboardInterrupt
        return real_remove(path)

    monkeypatch.setattr(start.shutil, "rmtree", rmtree)
    monkeypatch.setattr(start, "remove", remove)
    with pytest.raises(KeyboardInterrupt):
        run_study(parse_study(small()), copy.parent, n_jobs=1, force=True, progress=False)
    monkeypatch.setattr(start.shutil, "rmtree", real_rmtree)
    monkeypatch.setattr(start, "remove", real_remove)
    with pytest.raises(DatasetError, match="was being deleted by `unosim study run --force`"):
        open_dataset(copy)
    summary = run_study(parse_study(small()), copy.parent, n_jobs=1, progress=False)   # without --force
    assert summary.jobs_skipped == 0 and summary.games_run == 4 * 300
    open_dataset(copy)


def test_a_shape_edit_with_a_recomputed_seal_is_one_line(copy, capsys):
    from unosim.store.manifest import write_manifest
    for change in (lambda m: m.update(chunk_size="250"), lambda m: m.update(chunk_size=0),
                   lambda m: m["cells"]["classic-p2-random"].update(layout=[[0, 0, 5, 1]]),
                   lambda m: m["study"].update(cells=[])):
        manifest = json.loads((copy / MANIFEST).read_text())
        change(manifest)
        write_manifest(copy, manifest)   # sealed as it is: only its shape is wrong
        assert main(["study", "verify", str(copy)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is invalid" in err and "Traceback" not in err, err
        with pytest.raises(DatasetError, match="is invalid"):   # the resume refuses with the same line
            run_study(parse_study(small()), copy.parent, n_jobs=1, progress=False)


# ---- 3. analyses bound to their dataset ---------------------------------------------------------------
def test_an_analysis_copied_from_another_dataset_is_not_reported(small_pair, copy, tmp_path):
    """Issue 24: `report` reused an analysis/ folder copied from another dataset as this dataset's numbers."""
    from unosim.analysis.provenance import SOURCE, bound_tables
    other = Path(shutil.copytree(small_pair[1], tmp_path / "other"))
    assert main(["analyze", str(other)]) == 0
    shutil.copytree(other / "analysis", copy / "analysis")
    assert bound_tables(open_dataset(copy), copy / "analysis") is None
    assert main(["report", str(copy)]) == 0
    ours = (copy / "analysis" / "win_rates.csv").read_bytes()
    assert ours != (other / "analysis" / "win_rates.csv").read_bytes()
    assert json.loads((copy / "analysis" / SOURCE).read_text())["dataset_digest"] == open_dataset(copy).digest
    stamp = (copy / "analysis" / "win_rates.csv").stat().st_mtime_ns
    assert main(["report", str(copy)]) == 0   # bound: reused as it is
    assert (copy / "analysis" / "win_rates.csv").stat().st_mtime_ns == stamp
    chart = next((copy / "analysis" / "charts").glob("*.svg"))
    chart.write_bytes(chart.read_bytes().replace(b"<svg", b"<svg data-edited='1'", 1))
    assert bound_tables(open_dataset(copy), copy / "analysis") is None   # any file edited: recomputed
    assert main(["report", str(copy)]) == 0
    assert bound_tables(open_dataset(copy), copy / "analysis") is not None
    (copy / "analysis" / "stray.csv").write_text("x\n1\n")   # read by nothing: the binding holds
    assert bound_tables(open_dataset(copy), copy / "analysis") is not None


def test_an_analysis_of_a_dataset_that_grew_since_is_recomputed(tmp_path):
    first = run_study(parse_study(small(games=200)), tmp_path, n_jobs=1, chunk_size=100, progress=False).path
    assert main(["analyze", str(first)]) == 0
    before = open_dataset(first).digest
    run_study(parse_study(small(games=300)), tmp_path, n_jobs=1, progress=False)
    from unosim.analysis.provenance import bound_tables
    assert open_dataset(first).digest != before
    assert bound_tables(open_dataset(first), first / "analysis") is None


# ---- 8. a dataset of many small jobs reads like one of a few large ones ------------------------------
def test_many_small_parts_are_read_from_consolidated_files_bound_to_the_dataset(small_pair, tmp_path):
    from unosim.store import consolidate
    spec = {**small(), "grid": [{"variants": ["classic"], "players": [3], "lineups": ["random"]}]}
    root = run_study(parse_study(spec), tmp_path, n_jobs=1, chunk_size=5, progress=False).path   # 60 jobs
    ds = open_dataset(root)
    assert all(len(paths) == 1 and "/consolidated/" in paths[0] for paths in ds.parts.values())
    parts = {t: tuple(sorted(str(p) for p in (root / t).rglob("*.parquet"))) for t in TABLES}
    assert len(parts["rounds"]) == 60
    for name in TABLES:   # the same rows and types as the parts themselves
        direct = (pl.scan_parquet(list(parts[name]), hive_partitioning=True, hive_schema=PARTITION_SCHEMA)
                  .collect())
        assert ds.scan(name).collect().equals(direct), name
    consolidated = Path(ds.parts["seats"][0])
    data = consolidated.read_bytes()
    replace = consolidated.with_name("edited")
    replace.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    replace.rename(consolidated)   # a changed file (new inode): its sha256 no longer matches
    assert open_dataset(root).parts["seats"] == parts["seats"]
    assert open_dataset(root).parts["rounds"] != parts["rounds"]   # the other files still serve
    other = Path(shutil.copytree(small_pair[0], tmp_path / "other"))
    shutil.copytree(root / consolidate.DIR, other / consolidate.DIR)   # built from another dataset
    assert not any("/consolidated/" in p for paths in open_dataset(other).parts.values() for p in paths)


def test_the_first_open_after_a_run_reads_a_sample_and_a_changed_part_is_read(tmp_path, monkeypatch):
    """What the run's workers hashed as they wrote is kept as proven: the first open after a run (of
    20,000 jobs: a minute of hashing) reads only a sample of parts; `verify --quick` reads nothing, the
    default verify every part; a part replaced since is read and refused."""
    from unosim.store import integrity
    root = run_study(parse_study(small()), tmp_path, n_jobs=1, chunk_size=150, progress=False).path
    reads = []
    real = integrity._facts_of
    monkeypatch.setattr(integrity, "_facts_of", lambda data: reads.append(1) or real(data))
    digest = open_dataset(root).digest
    assert len(reads) == integrity.SAMPLE_PARTS
    reads.clear()
    assert main(["study", "verify", str(root), "--quick"]) == 0 and reads == []
    assert main(["study", "verify", str(root)]) == 0 and len(reads) == 3 * 8
    part = next(root.glob("seats/variant=classic/players=3/*.parquet"))
    data = part.read_bytes()
    part.unlink()
    part.write_bytes(data[:-2] + bytes([data[-2] ^ 1]) + data[-1:])   # same size, new inode and ctime
    with pytest.raises(DatasetError, match=part.name):
        open_dataset(root)
    part.unlink()
    part.write_bytes(data)
    assert open_dataset(root).digest == digest
