"""Verify means read: damage that keeps a file's stamp (bit rot, a write below the file system) is found
by the default `unosim study verify`, which reads every byte; `--quick` trusts the cached proofs and
says so; opening a proven dataset re-reads a random sample of parts."""

from __future__ import annotations

import os

import pytest
from study_specs import small

from unosim.cli import main
from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study
from unosim.store import integrity
from unosim.store.layout import DatasetError
from unosim.store.ledger import read_ledger
from unosim.store.manifest import read_manifest
from unosim.store.reader import open_dataset


def _flip_below_the_file_system(root, part):
    """One bit flipped in place with size and mtime restored, and the cached proofs re-stamped: what a
    change below the file system (which leaves ctime and inode too) looks like to unosim."""
    st = part.stat()
    with open(part, "r+b") as f:
        f.seek(st.st_size // 2)
        byte = f.read(1)
        f.seek(st.st_size // 2)
        f.write(bytes([byte[0] ^ 0x10]))
    os.utime(part, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert part.stat().st_size == st.st_size and part.stat().st_mtime_ns == st.st_mtime_ns
    integrity._FACTS.clear()   # a new process
    integrity.record_written(root, read_manifest(root), read_ledger(root))


@pytest.fixture
def dataset(tmp_path):
    return run_study(parse_study(small()), tmp_path, n_jobs=1, chunk_size=150, progress=False).path


def test_default_verify_reads_every_byte_and_finds_a_flipped_bit(dataset, capsys):
    part = sorted(dataset.glob("rounds/**/*.parquet"))[1]
    _flip_below_the_file_system(dataset, part)
    assert main(["study", "verify", str(dataset), "--quick"]) == 0   # the cache vouches for the old stamp
    quick = capsys.readouterr().out
    assert "24 part(s): 0 read (0 bytes) and 24 proven from the cache" in quick and "0 problem(s)" in quick
    assert main(["study", "verify", str(dataset)]) == 2
    out = capsys.readouterr()
    assert f"bad: rounds/{part.relative_to(dataset / 'rounds')}: " in out.out and "1 problem(s)" in out.out
    assert "24 part(s): 24 read (" in out.out and "proven from the cache" not in out.out


def test_opening_a_proven_dataset_reads_a_random_sample(dataset, monkeypatch):
    part = sorted(dataset.glob("seats/**/*.parquet"))[0]
    _flip_below_the_file_system(dataset, part)
    monkeypatch.setattr(integrity, "SAMPLE_PARTS", 24)   # the sample is every part: the flip is among it
    with pytest.raises(DatasetError, match=f"failed verification: .*{part.name}: "):
        open_dataset(dataset)
