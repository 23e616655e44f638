"""The runner: the same data whatever n_jobs and chunk size, a manifest, and resume after a real kill."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import polars as pl
import pytest
from commands import UNOSIM, run_unosim
from study_specs import small, spec_file, table

from unosim.pipeline.runner import RunError, run_study
from unosim.pipeline.study import parse_study
from unosim.play.simulate import simulate
from unosim.store.layout import TABLES, DatasetError
from unosim.store.manifest import read_manifest
from unosim.store.reader import open_dataset


def test_data_do_not_depend_on_n_jobs_or_chunk_size_or_threads_or_processes(tmp_path):
    study = parse_study(small())
    serial = run_study(study, tmp_path / "a", n_jobs=1, chunk_size=300, progress=False).path
    threads = run_study(study, tmp_path / "b", n_jobs=2, chunk_size=70, progress=False).path
    processes = run_study(study, tmp_path / "c", n_jobs=2, chunk_size=70, processes=True, progress=False).path
    for name in TABLES:
        assert table(serial, name).equals(table(threads, name)), name
        assert table(serial, name).equals(table(processes, name)), name


@pytest.mark.parametrize("processes", [True, False])
def test_threads_or_processes_and_a_dask_scheduler_are_one_or_the_other(tmp_path, processes):
    with pytest.raises(RunError, match="give one or the other"):
        run_study(parse_study(small()), tmp_path, scheduler="local", processes=processes, progress=False)
    assert not (tmp_path / "small").exists()


def test_by_default_a_few_workers_are_threads_and_more_are_processes(tmp_path, monkeypatch, capsys):
    """Jobs hold the GIL part of their time: threads (one engine load) up to MAX_THREADS workers, processes
    beyond. The CLI's help names the same limit."""
    from unosim.cli.main import build_parser
    from unosim.pipeline import runner
    from unosim.store.ledger import read_ledger

    with pytest.raises(SystemExit):
        build_parser().parse_args(["study", "run", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"default up to {runner.MAX_THREADS} workers" in shown
    assert f"default beyond {runner.MAX_THREADS} workers" in shown

    def writers(path):
        return {r["writer"].split(":")[1] for r in read_ledger(path).values()}

    study = parse_study(small())
    assert writers(run_study(study, tmp_path / "a", n_jobs=2, chunk_size=150, progress=False).path) == {
        str(os.getpid())}
    monkeypatch.setattr(runner, "MAX_THREADS", 1)
    assert str(os.getpid()) not in writers(run_study(study, tmp_path / "b", n_jobs=2, chunk_size=150,
                                                     progress=False).path)


def test_the_parent_makes_a_jobs_renames_durable_before_recording_it(tmp_path, monkeypatch):
    from unosim.pipeline import runner
    from unosim.store import ledger
    events = []
    monkeypatch.setattr(runner, "sync_directories",
                        lambda paths: events.append(("sync", sorted(p.relative_to(root).parts[0] for p in paths))))
    real_append = ledger.append_ledger
    monkeypatch.setattr(ledger, "append_ledger",
                        lambda where, record: (events.append(("record", record["job"])), real_append(where, record)))
    study = parse_study(small())
    root = tmp_path / study.name
    run_study(study, tmp_path, n_jobs=2, chunk_size=150, progress=False)
    jobs = sum(cell["jobs"] for cell in read_manifest(root)["cells"].values())
    assert len(events) == 2 * jobs
    for synced, recorded in zip(events[::2], events[1::2], strict=True):  # each record right after its sync
        assert synced == ("sync", sorted(TABLES)) and recorded[0] == "record"
    open_dataset(root)


def test_a_cell_holds_exactly_what_simulate_returns(small_dataset):  # noqa: F811
    manifest = read_manifest(small_dataset)
    cell = next(c for c in manifest["study"]["cells"] if c["name"] == "minions-p3-greedy_first")
    direct = simulate("minions", players=3, games=cell["games"], seed=cell["seed"], lineup=cell["lineup_spec"],
                      rules={"match_mode": "single_round"})
    stored = (table(small_dataset, "seats")
              .filter(pl.col("variant") == "minions", pl.col("players") == 3, pl.col("lineup") == "greedy_first")
              .drop("variant", "lineup"))
    expected = direct.seats.drop("players").with_columns(pl.col(pl.Categorical, pl.Enum).cast(pl.String))
    assert stored.select(expected.columns).equals(expected)


def test_manifest_records_the_run(small_dataset):  # noqa: F811
    manifest = read_manifest(small_dataset)
    assert manifest["status"] == "complete"
    assert set(manifest["versions"]) >= {"unosim", "numba", "numpy", "polars", "pyarrow"}
    assert isinstance(manifest["engine_version"], int)
    assert "git_revision" in manifest
    assert all(c["status"] == "complete" and c["games_done"] == c["games"] for c in manifest["cells"].values())
    assert manifest["study"]["cells"][0]["rules_key"].startswith("classic")


def test_a_finished_study_is_not_run_again(tmp_path):
    study = parse_study(small())
    run_study(study, tmp_path, n_jobs=1, progress=False)
    again = run_study(study, tmp_path, n_jobs=1, progress=False)
    assert again.jobs_run == 0 and again.games_run == 0


def test_an_existing_dataset_of_another_spec_is_refused_unless_forced(tmp_path):
    run_study(parse_study(small()), tmp_path, n_jobs=1, progress=False)
    other = parse_study(small(seed=99))
    with pytest.raises(RunError, match="different spec"):
        run_study(other, tmp_path, n_jobs=1, progress=False)
    assert run_study(other, tmp_path, n_jobs=1, force=True, progress=False).games_run == 2 * 2 * 300


def test_a_dataset_started_under_other_preset_weights_is_not_continued(tmp_path, monkeypatch):
    """A preset is a name for weights that a later unosim may change: the manifest records each cell's
    effective lineup, so a resume under changed weights is refused instead of mixing two policies'
    games under one name."""
    from dataclasses import replace

    from unosim.game import policies
    spec = {**small(), "lineups": {"counter_first": "colour_counter,random*"},
            "grid": [{"variants": ["classic"], "players": [2], "lineups": ["counter_first"]}]}
    study = parse_study(spec)
    first = run_study(study, tmp_path, n_jobs=1, chunk_size=100, progress=False)
    recorded = read_manifest(first.path)["study"]["cells"][0]["lineup_effective"]
    assert "w_seen=1.0" in recorded and recorded.endswith(",random")
    assert run_study(parse_study(spec), tmp_path, n_jobs=1, progress=False).games_run == 0   # same weights
    info = policies.POLICIES["colour_counter"]
    monkeypatch.setitem(policies.POLICIES, "colour_counter",
                        replace(info, defaults=tuple((k, 0.2 if k == "w_seen" else v) for k, v in info.defaults)))
    with pytest.raises(RunError, match="cell 'classic-p2-counter_first': policy parameters 'colour_counter"):
        run_study(parse_study(spec), tmp_path, n_jobs=1, progress=False)


def test_force_refuses_to_delete_a_directory_that_is_not_a_dataset(tmp_path):
    (tmp_path / "small").mkdir()
    (tmp_path / "small" / "precious.txt").write_text("keep me")
    with pytest.raises(RunError, match="not a unosim dataset"):
        run_study(parse_study(small()), tmp_path, force=True, progress=False)
    assert (tmp_path / "small" / "precious.txt").exists()


@pytest.mark.slow
def test_a_killed_study_resumes_without_lost_or_duplicated_games(tmp_path):
    spec = spec_file(tmp_path, "killed", seed=3, games=6000, variants=["classic", "minions"], players=[4])
    root = tmp_path / "out" / "killed"
    proc = subprocess.Popen([*UNOSIM, "study", "run", str(spec), "--out", str(tmp_path / "out"),
                             "--n-jobs", "2", "--chunk-size", "100", "--quiet"],
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(root.glob("matches/*/*/*.parquet"))) < 10:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "the study wrote no parts"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the runner and its workers, mid-study
    proc.wait()
    parts = len(list(root.glob("matches/*/*/*.parquet")))
    assert parts < 120, "the run finished before it was killed; nothing to resume"
    assert json.loads((root / "manifest.json").read_text())["status"] == "running"
    with pytest.raises(DatasetError, match="incomplete"):
        open_dataset(root)
    status = run_unosim("study", "status", str(root), check=True).stdout
    assert f"{parts * 100:,} of 12,000 games on disk" in status

    from unosim.pipeline.study import load_study
    summary = run_study(load_study(spec), tmp_path / "out", n_jobs=2, progress=False)
    assert summary.jobs_skipped == parts  # a job's matches part is written last: it marks the job done
    games = table(root, "matches").group_by("variant").agg(pl.col("game").sort()).sort("variant")
    for row in games.iter_rows(named=True):
        assert row["game"] == list(range(6000)), row["variant"]
    assert table(root, "seats").height == 2 * 6000 * 4


def test_a_full_disk_ends_the_run_in_one_line_with_the_path_and_the_resume(tmp_path, monkeypatch, capsys):
    """Issue 24: the disk-full message had no path and no resume hint."""
    from unosim.cli import main
    from unosim.store import atomic
    spec = spec_file(tmp_path, "small", seed=7, games=300, players=[2, 3])
    real_fsync, calls = atomic._fsync, []

    def fills_up(path, flags=atomic.os.O_RDONLY):
        calls.append(path)
        if len(calls) > 12:
            raise OSError(28, "No space left on device")
        real_fsync(path, flags)

    monkeypatch.setattr(atomic, "_fsync", fills_up)
    assert main(["study", "run", str(spec), "--out", str(tmp_path / "out"), "--n-jobs", "1",
                 "--chunk-size", "100", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and str(tmp_path / "out" / "small") in err
    assert f"run `unosim study run {spec} --out {tmp_path / 'out'}` again to resume" in err
    monkeypatch.setattr(atomic, "_fsync", real_fsync)
    assert main(["study", "run", str(spec), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    fresh = run_study(parse_study({"study": {"name": "small", "seed": 7, "games": 300, "mode": "single_round"},
                                   "grid": [{"variants": ["classic"], "players": [2, 3], "lineups": ["random"]}]}),
                      tmp_path / "fresh", n_jobs=1, chunk_size=100, progress=False)
    for name in TABLES:
        assert table(tmp_path / "out" / "small", name).equals(table(fresh.path, name)), name


@pytest.mark.parametrize("option, value, shown", [("chunk_size", True, "chunk_size=True"),
                                                  ("chunk_size", 250.5, "chunk_size=250.5"),
                                                  ("n_jobs", False, "n_jobs=False"),
                                                  ("n_jobs", "x" * 1000, "n_jobs='xxxx")])
def test_api_options_of_the_wrong_type_are_refused_before_anything_is_written(tmp_path, option, value, shown):
    """Issue 24: run_study(chunk_size=True) or 250.5 was written into the manifest, and every later CLI
    resume crashed with a traceback; long values in errors are cut."""
    with pytest.raises(RunError, match=re.escape(shown)) as caught:
        run_study(parse_study(small()), tmp_path, progress=False, **{option: value})
    assert len(str(caught.value)) < 400
    assert not (tmp_path / "small").exists()


def test_numpy_integers_are_accepted_as_the_cli_accepts_integers(tmp_path):
    """Issue 24: n_jobs=np.int64(2) was refused as "n_jobs=2 is invalid"."""
    import numpy as np
    summary = run_study(parse_study(small()), tmp_path, n_jobs=np.int64(2), chunk_size=np.int32(150), progress=False)
    assert summary.jobs_run == 8 and read_manifest(summary.path)["chunk_size"] == 150
    assert type(read_manifest(summary.path)["chunk_size"]) is int


def test_a_match_study_over_the_memory_budget_says_to_lower_the_chunk_size(tmp_path, monkeypatch, capsys):
    """Issue 24: a match-mode study whose matches are very long hit the 4 GiB budget with advice about
    `simulate`, and the chunk size could not be lowered on resume without --force."""
    from unosim.cli import main
    spec = spec_file(tmp_path, "long", seed=7, games=40, mode="points")
    monkeypatch.setenv("UNOSIM_MEMORY_BUDGET", str(40_000))   # as if each match were 100 times longer
    assert main(["study", "run", str(spec), "--out", str(tmp_path), "--n-jobs", "1", "--chunk-size", "20",
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "simulate" not in err, err
    assert "job 0 of cell classic-p3-random (20 games from game 0) needs more memory than a job may hold" in err
    assert "lower --chunk-size, e.g. to 2" in err and "run `unosim study run" in err
    assert main(["study", "run", str(spec), "--out", str(tmp_path), "--n-jobs", "1", "--chunk-size", "1",
                 "--quiet"]) == 0
    monkeypatch.delenv("UNOSIM_MEMORY_BUDGET")
    assert open_dataset(tmp_path / "long").matches.collect().height == 40


def test_a_huge_value_in_a_spec_gives_a_short_line(tmp_path, capsys):
    from unosim.cli import main
    spec = tmp_path / "huge.toml"
    spec.write_text(f"[study]\nname = '{'x' * 300_000}'\nseed = 1\ngames = 1\nmode = 'single_round'\n"
                    "[[grid]]\nvariants = ['classic']\nplayers = [2]\n")
    assert main(["study", "run", str(spec), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 700 and "characters cut" in err and "lowercase identifier" in err
