"""A dataset proves its integrity: each part checked against its ledger record, by name (issue 12, item 5)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import shutil
from pathlib import Path

import polars as pl
import pytest
from study_specs import small, table

from unosim.cli import main
from unosim.game import protocol
from unosim.pipeline.runner import RunError, run_study
from unosim.pipeline.study import parse_study
from unosim.store import integrity
from unosim.store.layout import LEDGER, TABLES, DatasetError
from unosim.store.ledger import read_ledger
from unosim.store.manifest import read_manifest, write_manifest
from unosim.store.reader import open_dataset


def replace_file(path: Path, data: bytes) -> None:
    """Put new bytes at ``path`` under a new inode, as a copy or an editor would."""
    tmp = path.with_name(path.name + ".new")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def test_the_ledger_records_every_part_with_rows_bytes_and_sha256(small_dataset):  # noqa: F811
    manifest = read_manifest(small_dataset)
    ledger = read_ledger(small_dataset)
    assert len(ledger) == sum(c["jobs"] for c in manifest["cells"].values())
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    for (name, job), record in ledger.items():
        for t in TABLES:
            rows, size, sha = record["parts"][t]
            path = small_dataset / t / f"variant={cells[name]['variant']}" / f"players={cells[name]['players']}" \
                / f"part-{name}-{job:05d}.parquet"
            data = path.read_bytes()
            assert len(data) == size and hashlib.sha256(data).hexdigest() == sha
            assert pl.read_parquet(path).height == rows
    assert {t: [n for n, _ in cols] for t, cols in manifest["schema"].items()} == \
        {t: open_dataset(small_dataset).scan(t).drop("variant", "players").collect_schema().names() for t in TABLES}


def test_a_part_copied_from_a_study_with_another_seed_is_refused_by_name(small_pair, tmp_path):
    a, b = small_pair
    target = shutil.copytree(a, tmp_path / "copy")
    part = next(b.glob("seats/variant=classic/players=3/part-*-00001.parquet"))
    shutil.copy(part, target / part.relative_to(b))
    with pytest.raises(DatasetError, match=f"{part.name}: .*(replaced|copied in)") as info:
        open_dataset(target)
    assert "\n" not in str(info.value)


def test_a_part_of_another_player_count_is_refused(copy_of):
    three = next(copy_of.glob("seats/variant=classic/players=3/part-classic-p3-random-00000.parquet"))
    two = copy_of / "seats/variant=classic/players=2/part-classic-p2-random-00000.parquet"
    replace_file(three, two.read_bytes())
    with pytest.raises(DatasetError, match="players=3/part-classic-p3-random-00000.parquet"):
        open_dataset(copy_of)
    # a ledger forged to match is refused by the manifest's seal; even with the seal recomputed as well,
    # the footer names the cell it belongs to
    ledger = read_ledger(copy_of)
    ledger[("classic-p3-random", 0)]["parts"]["seats"] = ledger[("classic-p2-random", 0)]["parts"]["seats"]
    (copy_of / LEDGER).write_text("".join(json.dumps(r) + "\n" for r in ledger.values()))
    with pytest.raises(DatasetError, match="parts.jsonl: does not match the manifest's seal"):
        open_dataset(copy_of)
    write_manifest(copy_of, read_manifest(copy_of))
    with pytest.raises(DatasetError, match="belongs to another job or study: its footer says "
                                           "cell='classic-p2-random'"):
        open_dataset(copy_of)


def test_every_single_bit_flip_is_refused(copy_of):
    part = next(copy_of.glob("seats/variant=minions/players=3/*.parquet"))
    original = part.read_bytes()
    rng = random.Random(12)
    for _ in range(60):
        flipped = bytearray(original)
        bit = rng.randrange(len(flipped) * 8)
        flipped[bit // 8] ^= 1 << (bit % 8)
        replace_file(part, bytes(flipped))
        with pytest.raises(DatasetError, match=part.name):
            open_dataset(copy_of)
    replace_file(part, original)
    open_dataset(copy_of)


def test_a_truncated_part_is_refused_in_one_line_by_the_cli(copy_of, capsys):
    part = next(copy_of.glob("seats/variant=classic/players=2/*.parquet"))
    replace_file(part, part.read_bytes()[: part.stat().st_size // 2])
    assert main(["analyze", str(copy_of)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and part.name in err and "truncated or replaced" in err


def test_a_column_of_another_type_is_refused(copy_of):
    manifest = read_manifest(copy_of)
    manifest["schema"]["rounds"][0][1] = "int32"  # as if the dataset had been written with 32-bit games
    write_manifest(copy_of, manifest)   # sealed so: only the parts can disagree
    with pytest.raises(DatasetError, match="columns differ from the dataset's schema: column game is int64, "
                                           "expected int32"):
        open_dataset(copy_of)


def test_paths_that_are_not_datasets_say_so_in_one_line(tmp_path, capsys):
    spec = tmp_path / "demo.toml"
    spec.write_text("[study]\n")
    for command in (["analyze", str(spec)], ["report", str(spec)], ["study", "verify", str(tmp_path / "nope")]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not a unosim dataset" in err, err


def test_verification_reads_each_part_once_per_process_but_a_sample(copy_of, monkeypatch):
    open_dataset(copy_of)
    reads = []
    real = integrity._facts_of
    monkeypatch.setattr(integrity, "_facts_of", lambda data: reads.append(1) or real(data))
    open_dataset(copy_of)  # every part unchanged (size, mtime, inode): the cached verdicts hold
    assert len(reads) == integrity.SAMPLE_PARTS   # but a random sample is read again (bit rot keeps stamps)


def test_verify_lists_every_bad_part_and_repair_recomputes_exactly_their_jobs(small_pair, tmp_path, capsys):
    a, b = small_pair
    root = shutil.copytree(a, tmp_path / "out" / "small")
    bad = [next(root.glob("rounds/variant=classic/players=2/*-00000.parquet")),
           next(root.glob("matches/variant=classic/players=3/*greedy_first-00001.parquet"))]
    replace_file(bad[0], b"not parquet")
    replace_file(bad[1], bad[1].read_bytes()[:-100])
    stray = root / "seats/variant=classic/players=2/part-stray-00000.parquet"
    shutil.copy(next(root.glob("seats/variant=classic/players=2/*.parquet")), stray)
    before = {p.relative_to(root): p.read_bytes() for p in root.rglob("*.parquet") if p not in bad and p != stray}

    assert main(["study", "verify", str(root)]) == 2
    out, err = capsys.readouterr()
    for path in (*bad, stray):
        assert f"bad: {path.relative_to(root)}: " in out
    assert "3 problem(s)" in out and "--repair" in err

    assert main(["study", "verify", str(root), "--repair"]) == 0
    assert "deleted 7 file(s) of 2 job(s)" in capsys.readouterr().out  # each bad job's 3 parts, the stray
    with pytest.raises(DatasetError, match="incomplete"):
        open_dataset(root)
    summary = run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False)
    assert summary.jobs_run == 2
    after = {p.relative_to(root): p.read_bytes() for p in root.rglob("*.parquet")}
    assert {k: after[k] for k in before} == before
    for path in bad:
        assert after[path.relative_to(root)] == (a / path.relative_to(root)).read_bytes()
    assert main(["study", "verify", str(root)]) == 0


def test_a_resume_refuses_a_damaged_or_foreign_part_by_name(small_pair, tmp_path):
    a, _ = small_pair
    root = shutil.copytree(a, tmp_path / "out" / "small")
    manifest = read_manifest(root)
    manifest["status"] = "interrupted"
    write_manifest(root, manifest)
    part = next(root.glob("seats/variant=classic/players=3/*.parquet"))
    replace_file(part, part.read_bytes()[:-1])
    with pytest.raises(DatasetError, match=f"{part.name}: .*verify .* --repair"):
        run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False)
    replace_file(part, (a / part.relative_to(root)).read_bytes())
    stray = part.with_name("part-classic-p9-random-00000.parquet")
    shutil.copy(part, stray)
    with pytest.raises(DatasetError, match="part-classic-p9-random-00000.parquet is not a part of this study"):
        run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False)


def test_a_resume_adopts_good_parts_whose_record_was_lost_and_redoes_the_rest(small_pair, tmp_path):
    """A kill between a worker's last rename and the parent's ledger append leaves recordless parts."""
    a, _ = small_pair
    root = shutil.copytree(a, tmp_path / "out" / "small")
    lines = (root / LEDGER).read_text().splitlines()
    (root / LEDGER).write_text("\n".join(lines[:-3]) + "\n" + lines[-3][:40])  # 3 records lost, one torn
    lost = [json.loads(line) for line in lines[-3:]]
    damaged = next(root.glob(f"rounds/*/*/part-{lost[0]['cell']}-{lost[0]['job']:05d}.parquet"))
    replace_file(damaged, damaged.read_bytes()[:-1])
    manifest = read_manifest(root)
    manifest["status"] = "interrupted"
    write_manifest(root, manifest)

    summary = run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False)
    assert summary.jobs_run == 1 and summary.jobs_skipped == len(lines) - 1
    ledger = read_ledger(root)
    assert [ledger[(r["cell"], r["job"])]["parts"] for r in lost] == [r["parts"] for r in lost]
    assert ledger[(lost[1]["cell"], lost[1]["job"])]["writer"] == "adopted on resume"
    for name in TABLES:
        assert table(root, name).equals(table(a, name)), name


def test_a_resume_by_another_engine_version_is_refused_unless_accepted(small_pair, tmp_path, capsys):
    a, _ = small_pair
    root = shutil.copytree(a, tmp_path / "out" / "small")
    manifest = read_manifest(root)
    manifest.update(engine_version=manifest["engine_version"] - 1, status="interrupted")
    write_manifest(root, manifest)
    with pytest.raises(RunError, match="started by engine version .* --accept-engine-change"):
        run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False)
    run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False, accept_engine_change=True)
    resumed = read_manifest(root)
    assert resumed["engine_version"] == manifest["engine_version"] + 1
    assert resumed["engine_history"][0]["engine_version"] == manifest["engine_version"]
    assert resumed["engine_history"][0]["jobs_done"] == sum(c["jobs"] for c in manifest["cells"].values())


def test_a_damaged_ledger_is_named(copy_of):
    lines = (copy_of / LEDGER).read_text().splitlines()
    record = json.loads(lines[0])
    record["parts"]["rounds"] = "x"
    (copy_of / LEDGER).write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    with pytest.raises(DatasetError, match="parts.jsonl: does not match the manifest's seal"):
        open_dataset(copy_of)
    write_manifest(copy_of, read_manifest(copy_of))   # the seal recomputed too: the record itself is named
    with pytest.raises(DatasetError, match=f"ledger job {record['cell']}#{record['job']}: record is incomplete"):
        open_dataset(copy_of)
    for bad in ("not json", json.dumps({**record, "job": -1}), "[" * 100_000):
        (copy_of / LEDGER).write_text("\n".join([bad, *lines]) + "\n")
        with pytest.raises(DatasetError, match="parts.jsonl.*holds a line that is not a job record: "):
            open_dataset(copy_of)


def test_a_resume_under_another_version_of_a_mechanism_is_refused_and_its_old_parts_are_not_adopted(
        small_pair, tmp_path, monkeypatch):
    """The manifest and every part record the version of each mechanism the study plays
    (``protocol.Mechanism.version``; classic: its blank cards). A raised version stops a resume as another
    engine version does; accepted, it is recorded, and a part written under the old version is redone."""
    a, _ = small_pair
    root = shutil.copytree(a, tmp_path / "out" / "small")
    blank = protocol.MECHANISMS["blank"]
    manifest = read_manifest(root)
    assert manifest["mechanism_versions"] == {"blank": blank.version}
    lines = (root / LEDGER).read_text().splitlines()
    (root / LEDGER).write_text("\n".join(lines[:-1]) + "\n")   # a job's record lost: its parts await adoption
    lost = json.loads(lines[-1])
    manifest["status"] = "interrupted"
    write_manifest(root, manifest)

    monkeypatch.setitem(protocol.MECHANISMS, "blank", dataclasses.replace(blank, version=blank.version + 1))
    with pytest.raises(RunError, match=f"other versions of its mechanisms \\(blank: version {blank.version}, "
                                       f"now {blank.version + 1}\\).*--accept-engine-change"):
        run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False)
    summary = run_study(parse_study(small()), tmp_path / "out", n_jobs=1, progress=False, accept_engine_change=True)
    assert summary.jobs_run == 1 and summary.jobs_skipped == len(lines) - 1
    resumed = read_manifest(root)
    assert resumed["mechanism_versions"] == {"blank": blank.version + 1}
    assert resumed["engine_history"][0]["mechanism_versions"] == {"blank": blank.version}
    redone = next(root.glob(f"rounds/*/*/part-{lost['cell']}-{lost['job']:05d}.parquet"))
    assert integrity.file_facts(redone).identity["mechanism_versions"] == {"blank": blank.version + 1}
