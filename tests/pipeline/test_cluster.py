"""The same runner on a dask cluster (joblib's dask backend), a real one and `--scheduler local`, each with a
worker killed mid-run: every part byte-identical to those of a run in one process."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from commands import UNOSIM
from study_specs import spec_file, table

from unosim.pipeline.runner import run_study
from unosim.store.atomic import read_journal
from unosim.store.layout import TABLES
from unosim.store.ledger import read_ledger

distributed = pytest.importorskip("distributed")


def _scheduler_address(path: Path) -> str | None:
    try:
        return json.loads(path.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


def _start(args: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)


@pytest.mark.slow
def test_a_real_cluster_survives_a_killed_worker_and_writes_the_local_runs_parts(tmp_path):
    """A scheduler and two workers as separate processes; one worker is SIGKILLed mid-run."""
    dask = Path(sys.executable).with_name("dask")
    scheduler_file = tmp_path / "scheduler.json"
    procs = [_start([str(dask), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(scheduler_file)], tmp_path / "scheduler.log")]
    try:
        deadline = time.monotonic() + 60
        while not _scheduler_address(scheduler_file):   # the file may exist before it is written
            assert time.monotonic() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.1)
        address = _scheduler_address(scheduler_file)
        workers = [_start([str(dask), "worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                           "--no-nanny", "--no-dashboard", "--name", f"w{i}"], tmp_path / f"worker{i}.log")
                   for i in range(2)]
        procs += workers
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=120)

        # 80 jobs of 500 games (40 per cell): some 70 are still to run when the kill lands
        spec = spec_file(tmp_path, "cluster", seed=4, games=20000, variants=["classic", "minions"])
        root = tmp_path / "out" / "cluster"
        run = subprocess.Popen([*UNOSIM, "study", "run", str(spec), "--out",
                                str(tmp_path / "out"), "--scheduler", address, "--chunk-size", "500", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        worker_pids = {str(w.pid) for w in workers}
        deadline = time.monotonic() + 180
        # kill only once both workers have written (under load one worker may start late): then the
        # killed one is known to have held jobs, and both must appear as writers at the end
        while {json.loads(line)["writer"].rsplit(":", 1)[1] for line in read_journal(root / "parts.jsonl")} \
                != worker_pids:
            assert run.poll() is None, run.stderr.read()
            assert time.monotonic() < deadline, "the two workers did not both write parts"
            time.sleep(0.02)
        workers[0].kill()  # SIGKILL, mid-run: its jobs in flight are lost with it
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        assert len(read_ledger(root)) == 80, "the run did not finish every job"
        writers = {r["writer"].rsplit(":", 1)[1] for r in read_ledger(root).values()}
        assert writers == worker_pids  # every part came from a worker, both wrote
    finally:
        for proc in reversed(procs):
            proc.kill()
            proc.wait()
    from unosim.pipeline.study import load_study
    # the reference runs in this process: results do not depend on the worker count
    local = run_study(load_study(spec), tmp_path / "local", n_jobs=1, chunk_size=500, progress=False).path
    assert {k: r["parts"] for k, r in read_ledger(root).items()} == \
        {k: r["parts"] for k, r in read_ledger(local).items()}  # every part byte-identical (sha256)
    for name in TABLES:
        assert table(local, name).equals(table(root, name)), name


class _Client:
    """Stands for a dask client: ``run`` calls the function once per "worker", here in this process."""

    def __init__(self, workers: int, elsewhere: Path | None = None):
        self.workers, self.elsewhere = workers, elsewhere

    def run(self, function, root):
        return {f"tcp://w{i}": function(str(self.elsewhere or root)) for i in range(self.workers)}


def test_workers_that_cannot_write_the_dataset_stop_the_run_before_the_first_job(tmp_path):
    from unosim.pipeline.backends import probe_workers
    from unosim.pipeline.runner import RunError
    root = tmp_path / "data" / "study"
    root.mkdir(parents=True)
    probe_workers(_Client(2), root)  # the same directory: fine, and the probes are cleaned up
    assert list(root.iterdir()) == []
    other = tmp_path / "worker-local-disk"
    other.mkdir()
    with pytest.raises(RunError, match="writes .* on another filesystem than this process"):
        probe_workers(_Client(2, elsewhere=other), root)
    with pytest.raises(RunError, match="cannot write the dataset directory: .* does not exist on worker"):
        probe_workers(_Client(1, elsewhere=tmp_path / "missing"), root)


@pytest.mark.slow
def test_a_killed_local_dask_worker_has_its_jobs_run_again_quietly(tmp_path):
    """Issue 24 (dask path): SIGKILL of a worker of `--scheduler local` — the nanny restarts it, its jobs
    run again, the run says nothing and writes the same parts as a run in one process."""
    psutil = pytest.importorskip("psutil")
    # 80 jobs of 500 games (40 per cell): some 75 are still to run when the kill lands
    spec = spec_file(tmp_path, "killed", seed=4, games=20000, variants=["classic", "minions"])
    root = tmp_path / "out" / "killed"
    run = subprocess.Popen([*UNOSIM, "study", "run", str(spec), "--out", str(tmp_path / "out"),
                            "--scheduler", "local", "--n-jobs", "2", "--chunk-size", "500", "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 180
    while len(read_journal(root / "parts.jsonl")) < 4:
        assert run.poll() is None, run.stderr.read()
        assert time.monotonic() < deadline, "no parts"
        time.sleep(0.05)
    workers = [c for c in psutil.Process(run.pid).children() if "spawn_main" in " ".join(c.cmdline())]
    assert len(workers) == 2
    workers[0].kill()
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0 and err == "", err
    from unosim.pipeline.study import load_study
    local = run_study(load_study(spec), tmp_path / "local", n_jobs=1, chunk_size=500, progress=False).path
    assert len(read_ledger(local)) == 80
    assert {k: r["parts"] for k, r in read_ledger(root).items()} == \
        {k: r["parts"] for k, r in read_ledger(local).items()}


def test_a_worker_lost_again_and_again_is_one_line_naming_memory():
    from distributed.scheduler import KilledWorker

    from unosim.pipeline.run_errors import worker_death
    line = worker_death(KilledWorker("run_job-1234", SimpleNamespace(address="tcp://127.0.0.1:4567"), 3))
    assert "\n" not in line and "out of memory" in line and "--chunk-size" in line
    from joblib.externals.loky.process_executor import TerminatedWorkerError
    line = worker_death(TerminatedWorkerError("A worker process managed by the executor was unexpectedly "
                                              "terminated.\n\nThe exit codes of the workers are {SIGKILL(-9)}"))
    assert line == ("a study worker process was killed by SIGKILL (signal 9), most likely the system's "
                    "out-of-memory killer: lower --chunk-size (a job holds its games in memory) or --n-jobs")
    assert worker_death(ValueError("no")) is None
