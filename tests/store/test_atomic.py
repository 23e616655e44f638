"""Atomic writes and the append-only journal: a crash or an error never leaves a partial file."""

from __future__ import annotations

import pytest

from unosim.store.atomic import append_line_durable, read_journal, write_atomic, write_text_atomic


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "table.csv"
    write_text_atomic(path, "old\n")

    def half_then_fail(tmp):
        tmp.write_text("new, partial")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_atomic(path, half_then_fail)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_a_journal_drops_only_a_torn_last_line(tmp_path):
    path = tmp_path / "parts.jsonl"
    assert read_journal(path) == []
    append_line_durable(path, '{"job": 0}')
    append_line_durable(path, '{"job": 1}')
    with open(path, "a") as fh:
        fh.write('{"job": 2, "par')  # a crash in the middle of an append
    assert read_journal(path) == ['{"job": 0}', '{"job": 1}']
    with pytest.raises(ValueError, match="newline"):
        append_line_durable(path, "two\nlines")


def test_a_batch_renames_its_files_only_when_every_write_succeeded(tmp_path):
    from unosim.store.atomic import AtomicBatch
    old = tmp_path / "a" / "old.bin"
    write_text_atomic(old, "old\n")
    with pytest.raises(RuntimeError, match="encoding failed"):
        with AtomicBatch() as batch:
            batch.write_bytes(old, b"new")
            batch.write_bytes(tmp_path / "b" / "new.bin", b"new")
            raise RuntimeError("encoding failed")
    assert old.read_text() == "old\n" and not (tmp_path / "b" / "new.bin").exists()
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["old.bin"]
    (tmp_path / "c").write_text("a file where a directory is needed")
    with pytest.raises(OSError):
        with AtomicBatch() as batch:
            batch.write_bytes(tmp_path / "a" / "x.bin", b"x")
            batch.write_bytes(tmp_path / "c" / "y.bin", b"y")
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["c", "old.bin"]
    with pytest.raises(TypeError):  # fails in the writing thread: raised when the batch ends
        with AtomicBatch() as batch:
            batch.write_bytes(old, b"new")
            batch.write_bytes(tmp_path / "a" / "z.bin", "text, not bytes")
    assert old.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["c", "old.bin"]
    with AtomicBatch() as batch:
        batch.write_bytes(old, b"new")
        batch.write_bytes(tmp_path / "b" / "new.bin", b"two")
    assert old.read_bytes() == b"new" and (tmp_path / "b" / "new.bin").read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["c", "new.bin", "old.bin"]


def test_a_batch_can_leave_the_directory_fsyncs_to_its_caller(tmp_path, monkeypatch):
    from unosim.store import atomic
    synced = []
    real_fsync = atomic._fsync

    def recording_fsync(path, flags=atomic.os.O_RDONLY):
        synced.append((path.parent.name, "file") if flags != atomic.os.O_RDONLY else (path.name, "directory"))
        real_fsync(path, flags)

    monkeypatch.setattr(atomic, "_fsync", recording_fsync)
    with atomic.AtomicBatch(sync_directories=False) as batch:
        batch.write_bytes(tmp_path / "a" / "one.bin", b"1")
        batch.write_bytes(tmp_path / "a" / "two.bin", b"2")
        batch.write_bytes(tmp_path / "b" / "three.bin", b"3")
    assert sorted(synced) == [("a", "file"), ("a", "file"), ("b", "file")]  # each file before its rename
    assert (tmp_path / "b" / "three.bin").read_bytes() == b"3"
    synced.clear()
    atomic.sync_directories([tmp_path / "a" / "one.bin", tmp_path / "a" / "two.bin", tmp_path / "b" / "three.bin"])
    assert synced == [("a", "directory"), ("b", "directory")]  # once per directory
    synced.clear()
    with atomic.AtomicBatch() as batch:
        batch.write_bytes(tmp_path / "a" / "one.bin", b"1")
    assert synced == [("a", "file"), ("a", "directory")]
