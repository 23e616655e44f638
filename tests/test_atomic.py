"""Atomic writes and the append-only journal: a crash or an error never leaves a partial file."""

from __future__ import annotations

import pytest

from unosim.atomic import append_line_durable, read_journal, write_atomic, write_text_atomic


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
