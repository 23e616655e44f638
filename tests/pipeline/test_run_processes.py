"""`study run` as real processes: one writer per dataset, clean SIGTERM, workers that follow their parent,
bounded resources (issue 12 items 7-8, issue 11 item 7). A local run's jobs run on threads of the command's
process by default, on loky worker processes with ``--processes``: the stops are checked in both."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import UNOSIM, run_unosim
from study_specs import small, spec_file

from unosim.pipeline.runner import run_study
from unosim.pipeline.start import DEFAULT_CHUNK_SIZE
from unosim.pipeline.study import parse_study
from unosim.store.ledger import read_ledger
from unosim.store.manifest import read_manifest

psutil = pytest.importorskip("psutil")

def write_spec(tmp_path: Path, name: str, games: int) -> Path:
    return spec_file(tmp_path, name, seed=5, games=games, variants=["classic", "minions"], players=[4])


# The runs that are stopped mid-way and resumed: 60 jobs of 2,000 games (30 per cell). A job costs about
# 0.1 s of a worker, mostly writing its parts, so after the first parts appear some 50 jobs (seconds of
# work for two workers) are still to run when the signal lands.
KILLED_GAMES, KILLED_CHUNK = 60_000, 2000
KILLED_JOBS = 2 * KILLED_GAMES // KILLED_CHUNK


def ledger_parts(root: Path) -> dict:
    return {key: record["parts"] for key, record in read_ledger(root).items()}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> dict:
    """The parts (rows and sha256 per table, per job) of the stopped runs' spec run at once, in this
    process: what every resumed run must end with. Computed once for the tests that stop and resume it
    (a part's content depends on the seed and the cell, not on the study's name or directory)."""
    from unosim.pipeline.study import load_study
    tmp = tmp_path_factory.mktemp("uninterrupted")
    spec = write_spec(tmp, "killed", KILLED_GAMES)
    reference = run_study(load_study(spec), tmp / "out", n_jobs=1, chunk_size=KILLED_CHUNK, progress=False)
    parts = ledger_parts(reference.path)
    assert len(parts) == KILLED_JOBS
    return parts


def start_run(spec: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([*UNOSIM, "study", "run", str(spec), "--out", str(out),
                             "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def resume(spec: Path, out: Path, capsys) -> tuple[int, str, str]:
    """The next `study run` of a stopped run, in this process (the stop is what runs as a real process):
    its exit code, stdout and stderr."""
    from unosim.cli import main
    capsys.readouterr()
    code = main(["study", "run", str(spec), "--out", str(out), "--quiet", "--n-jobs", "1"])
    return (code, *capsys.readouterr())


def wait_for(condition, proc: subprocess.Popen, what: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if proc.poll() is not None:
            pytest.fail(f"the run ended before {what}: {proc.stderr.read()}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def parts(root: Path) -> int:
    return len(list(root.glob("matches/*/*/*.parquet")))


def children(pid: int) -> list:
    return psutil.Process(pid).children(recursive=True)


def survivors(procs: list, timeout: float) -> list:
    """The processes still alive (zombies count as gone) after up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for p in procs:
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(p)
            except psutil.NoSuchProcess:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@pytest.mark.slow
def test_a_second_run_on_the_same_dataset_is_refused_with_the_holders_pid(tmp_path):
    spec = write_spec(tmp_path, "busy", 400_000)
    first = start_run(spec, tmp_path / "out", "--n-jobs", "1", "--chunk-size", "2000")
    try:
        wait_for(lambda: (tmp_path / "out" / "busy" / ".lock.owner").exists(), first, "the lock")
        second = run_unosim("study", "run", str(spec), "--out", str(tmp_path / "out"), "--quiet", timeout=120)
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1
        assert f"is in use by another unosim run (PID {first.pid})" in second.stderr
        assert first.poll() is None, "the refused run disturbed the first"
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["threads", "processes"])
def test_sigterm_stops_every_worker_and_the_next_run_resumes_to_identical_data(tmp_path, mode, uninterrupted,
                                                                               capsys):
    spec = write_spec(tmp_path, "term", KILLED_GAMES)
    root = tmp_path / "out" / "term"
    proc = start_run(spec, tmp_path / "out", "--n-jobs", "2", "--chunk-size", str(KILLED_CHUNK),
                     *(["--processes"] if mode == "processes" else []))
    wait_for(lambda: parts(root) >= 4, proc, "the first parts")
    kids = children(proc.pid)
    assert len(loky_workers(proc.pid)) == (2 if mode == "processes" else 0), [k.cmdline() for k in kids]
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; the dataset is resumable" in err
    assert "Traceback" not in err and "leaked" not in err, err
    assert survivors(kids, timeout=10) == []
    assert read_manifest(root)["status"] == "interrupted"
    done = len(read_ledger(root))
    assert 0 < done < KILLED_JOBS

    code, out, err = resume(spec, tmp_path / "out", capsys)
    assert code == 0, err
    skipped = int(re.search(r"\(([\d,]+) jobs already done\)", out)[1].replace(",", ""))
    assert done <= skipped <= done + 4  # + jobs a worker finished but the parent had not recorded: adopted
    assert ledger_parts(root) == uninterrupted  # every part byte-identical (sha256)


def test_a_finished_run_leaves_no_worker_behind(tmp_path):
    """The command ends its idle workers itself (cli.main), rather than wait for them to tear down."""
    spec = write_spec(tmp_path, "done", 4000)
    proc = start_run(spec, tmp_path / "out", "--n-jobs", "2", "--chunk-size", "1000", "--processes")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and err == "", err
    writers = {int(r["writer"].rsplit(":", 1)[1]) for r in read_ledger(tmp_path / "out" / "done").values()}
    assert writers and proc.pid not in writers   # the parts came from workers (under load, one may do all)
    assert not [pid for pid in writers if psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie"]


ABORTED_CALL = """
import importlib, threading
from joblib import Parallel, delayed
from joblib.externals.loky import reusable_executor
cli_main = importlib.import_module("unosim.cli.main")   # the module (unosim.cli.main is also the function)
for attempt in range(8):   # a feeder thread outlives the failed call in about 1 attempt in 5
    try:
        Parallel(n_jobs=2, backend="loky")(delayed(divmod)(1, k) for k in (1, 0, 2, 3))
    except ZeroDivisionError:
        pass
    aborted = reusable_executor._executor
    assert aborted is not None and aborted._flags.shutdown
    cli_main._end_idle_workers()
    assert reusable_executor._executor is aborted, "a new pool was built"
    feeders = [t for t in threading.enumerate() if t.name == "QueueFeederThread"]
    assert not feeders, f"attempt {attempt}: {feeders} still running"
"""


def test_after_an_aborted_parallel_call_the_command_ends_its_pool_without_building_another():
    """An interrupted (or failed) joblib call has already shut its loky pool down: ending the idle
    workers must not ask loky for the reusable executor (which builds a new pool in place of a shut-down
    one) and waits for the queues' feeder threads, which release loky's semaphores as they end (an exit
    between the two left "leaked semlock" warnings on stderr after Ctrl-C). In a process of its own: a
    test process holds other tests' pools and queues, whose feeder threads are named alike."""
    done = subprocess.run([sys.executable, "-c", ABORTED_CALL], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "leaked" not in done.stderr, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["threads", "processes"])
def test_ctrl_c_stops_the_run_and_its_workers_quietly(tmp_path, mode):
    spec = write_spec(tmp_path, "ctrlc", 150_000)
    root = tmp_path / "out" / "ctrlc"
    proc = start_run(spec, tmp_path / "out", "--n-jobs", "2", "--chunk-size", "2000",
                     *(["--processes"] if mode == "processes" else []))
    wait_for(lambda: parts(root) >= 2, proc, "the first parts")
    kids = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole foreground group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.splitlines() == [f"unosim: interrupted; the dataset is resumable: run `unosim study run {spec} "
                                f"--out {tmp_path / 'out'}` again"]
    assert survivors(kids, timeout=10) == []
    assert read_manifest(root)["status"] == "interrupted"


@pytest.mark.slow
def test_a_stop_waits_for_the_job_threads_so_the_process_never_aborts(tmp_path):
    """A job thread still in the engine or the parquet writer when the interpreter exits is killed
    mid-call: SIGTERM of a threads run ended with SIGABRT (exit 134) in 6 of 20 tries before the run
    stopped its job threads and waited for them (this test, 10 stops, failed 1 run in 3 without it).
    Sixteen stops at random moments of 10,000-game jobs: short jobs, so that a stop lands in the engine or
    in the writer alike and the first part is not long in coming."""
    spec = write_spec(tmp_path, "abort", 10**9)
    rng = random.Random(7)
    for attempt in range(16):
        out = tmp_path / f"out{attempt}"
        proc = start_run(spec, out, "--n-jobs", "2", "--threads", "--chunk-size", "10000")
        wait_for(lambda: parts(out / "abort") >= 1, proc, "the first part")   # noqa: B023 (waited for at once)
        time.sleep(rng.uniform(0, 0.5))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, (attempt, proc.returncode, err)
        assert err.startswith("unosim: interrupted") and err.count("\n") == 1, err


@pytest.mark.slow
def test_workers_exit_when_the_parent_is_killed(tmp_path):
    spec = write_spec(tmp_path, "orphans", 300_000)
    root = tmp_path / "out" / "orphans"
    proc = start_run(spec, tmp_path / "out", "--n-jobs", "2", "--chunk-size", "2000", "--processes")
    wait_for(lambda: parts(root) >= 2, proc, "the first parts")
    kids = children(proc.pid)
    assert kids
    proc.kill()  # the parent only, as an OOM killer would
    proc.wait()
    assert survivors(kids, timeout=10) == []


@pytest.mark.slow
def test_a_trillion_game_spec_starts_at_once_in_bounded_memory(tmp_path, capsys):
    spec = write_spec(tmp_path, "trillion", 10**12)
    root = tmp_path / "out" / "trillion"
    proc = start_run(spec, tmp_path / "out", "--n-jobs", "2")
    try:
        wait_for(lambda: parts(root) >= 1, proc, "the first part")
        assert psutil.Process(proc.pid).memory_info().rss < 1_000_000_000
        manifest = json.loads((root / "manifest.json").read_text())
        assert manifest["cells"]["classic-p4-random"]["jobs"] == 10**12 // DEFAULT_CHUNK_SIZE["single_round"]
        assert (root / "manifest.json").stat().st_size < 20_000
        from unosim.cli import main  # the status of the running dataset, read in this process
        capsys.readouterr()
        assert main(["study", "status", str(root)]) == 0
        assert "of 2,000,000,000,000 games on disk" in capsys.readouterr().out
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    assert proc.returncode == 130


def test_workers_are_capped_by_the_jobs_and_write_the_parts_themselves(tmp_path):
    study = parse_study(small())
    one_job = {**small(), "grid": [{"variants": ["classic"], "players": [2], "lineups": ["random"]}],
               "comparisons": []}
    # a 1-job study asked for 100 000 worker processes runs that job here, without starting a pool
    path = run_study(parse_study(one_job), tmp_path / "one", n_jobs=100_000, processes=True, progress=False).path
    assert {r["writer"].split(":")[1] for r in read_ledger(path).values()} == {str(os.getpid())}
    # on threads, every part is written by this process
    path = run_study(study, tmp_path / "threads", n_jobs=100_000, chunk_size=100, progress=False).path
    assert {r["writer"].split(":")[1] for r in read_ledger(path).values()} == {str(os.getpid())}
    path = run_study(study, tmp_path / "pool", n_jobs=100_000, chunk_size=100, processes=True, progress=False).path
    writers = {r["writer"].split(":")[1] for r in read_ledger(path).values()}
    assert str(os.getpid()) not in writers  # the parent wrote no part: it only recorded them
    assert 1 <= len(writers) <= min(len(os.sched_getaffinity(0)), 8)


def test_oversized_requests_end_in_one_line_not_a_memory_error_traceback(tmp_path):
    import resource

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, 6 * 2**30))

    spec = write_spec(tmp_path, "oversized", 1000)
    for command in (["simulate", "classic", "-n", "4", "--seed", "1", "--games", "100000000"],
                    ["study", "run", str(spec), "--out", str(tmp_path / "out"), "--chunk-size", "1000000000"]):
        done = subprocess.run([*UNOSIM, *command], capture_output=True, text=True,
                              timeout=300, preexec_fn=limit_memory)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("unosim: error: "), done.stderr
    assert not (tmp_path / "out").exists()


def loky_workers(pid: int) -> list:
    return [k for k in children(pid) if "LokyProcess" in " ".join(k.cmdline())]


def resource_tracker(pid: int) -> list:
    return [k for k in children(pid) if "resource_tracker" in " ".join(k.cmdline())]


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["worker", "resource tracker"])
def test_a_killed_worker_ends_the_run_in_one_line_and_the_resume_is_identical(tmp_path, victim, uninterrupted,
                                                                              capsys):
    """Issue 24: SIGKILL of a loky worker (what the out-of-memory killer does) ended `study run` with 29
    lines of traceback, and killing loky's resource tracker printed 47 lines and 9 tracebacks."""
    spec = write_spec(tmp_path, "oom", KILLED_GAMES)
    root = tmp_path / "out" / "oom"
    proc = start_run(spec, tmp_path / "out", "--n-jobs", "2", "--chunk-size", str(KILLED_CHUNK), "--processes")
    wait_for(lambda: parts(root) >= 2 and len(loky_workers(proc.pid)) == 2
             and (victim == "worker" or resource_tracker(proc.pid)), proc, f"the first parts and a {victim}")
    target = (loky_workers if victim == "worker" else resource_tracker)(proc.pid)[0]
    target.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=300)
    if victim == "worker":
        assert proc.returncode == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert "killed by SIGKILL (signal 9)" in err and "out-of-memory" in err, err
        assert f"run `unosim study run {spec} --out {tmp_path / 'out'}` again to resume" in err
    else:   # loky starts a new tracker: the run goes on and says nothing about it
        assert proc.returncode == 0 and err == "", err
    code, _, err = resume(spec, tmp_path / "out", capsys)
    assert code == 0 and err == "", err
    assert ledger_parts(root) == uninterrupted
