"""Every notebook runs headless, from a working directory outside notebooks/, with the network blocked.

Each notebook runs in a fresh process (and its own Jupyter kernel) whose ``sitecustomize`` makes every
connection to a non-loopback address fail, so a notebook that downloads anything fails here. Data go to
a temporary ``UNOSIM_DATA``; game counts are small (``UNOSIM_NOTEBOOK_GAMES``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# looked up, not imported: nbclient imports jsonschema's format checkers, 3 s at every collection (the
# notebooks run in a subprocess of their own)
pytestmark = pytest.mark.skipif(any(importlib.util.find_spec(name) is None for name in ("jupytext", "nbclient")),
                                reason="needs the dev extras (jupytext, nbclient)")

NOTEBOOK_DIR = Path(__file__).parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.py"))
# a sentence each notebook prints once it has computed its answer
EXPECTED = {"quickstart": "seat 0 (greedy_points) wins", "house_rules": "* stacking",
            "strategies": "On the same", "demo_study": "cells", "design": "on the Pareto front"}

NO_NETWORK = '''
import ipaddress, socket

def _loopback(address):
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(address, (str, bytes)) and not isinstance(address, tuple):
        return True                       # AF_UNIX socket paths stay local
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"

def _refuse(address):
    raise OSError(f"network blocked by the notebook test: connection to {address!r}")

_connect, _connect_ex, _getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

def connect(self, address):
    return _connect(self, address) if _loopback(address) else _refuse(address)

def connect_ex(self, address):
    return _connect_ex(self, address) if _loopback(address) else _refuse(address)

def getaddrinfo(host, *args, **kwargs):
    if host not in (None, "localhost", b"localhost") and not _loopback((host,)):
        _refuse(host)
    return _getaddrinfo(host, *args, **kwargs)

socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = connect, connect_ex, getaddrinfo
'''

RUN = '''
import sys, jupytext, nbclient, nbformat
notebook = jupytext.read(sys.argv[1])
nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                        resources={"metadata": {"path": sys.argv[2]}}).execute()
nbformat.write(notebook, sys.argv[3])
'''


@pytest.fixture(scope="module")
def offline_env(tmp_path_factory, small_dataset):  # noqa: F811
    site = tmp_path_factory.mktemp("offline")
    (site / "sitecustomize.py").write_text(NO_NETWORK)
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update(PYTHONPATH=os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               UNOSIM_DATA=str(tmp_path_factory.mktemp("data")), UNOSIM_DATASET=str(small_dataset),
               UNOSIM_NOTEBOOK_GAMES="1500", MPLBACKEND="Agg")
    return env


def test_the_network_is_really_blocked(offline_env, tmp_path):
    probe = ("import socket\ntry:\n    socket.create_connection(('93.184.216.34', 80), timeout=5)\n"
             "except OSError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", probe], env=offline_env, cwd=tmp_path, capture_output=True,
                         text=True, check=True)
    assert "network blocked by the notebook test" in out.stdout


def test_every_notebook_is_tested():
    assert {p.stem for p in NOTEBOOKS} == set(EXPECTED)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_headless_offline_from_elsewhere(path, offline_env, tmp_path):
    executed = tmp_path / f"{path.stem}.ipynb"
    out = subprocess.run([sys.executable, "-c", RUN, str(path), str(tmp_path), str(executed)],
                         env=offline_env, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    cells = [c for c in json.loads(executed.read_text())["cells"] if c["cell_type"] == "code"]
    outputs = [o for c in cells for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    text = "".join("".join(o.get("text", "")) for o in outputs if o["output_type"] == "stream")
    assert EXPECTED[path.stem] in text, text[-2000:]
    if path.stem == "demo_study":
        assert any("image/png" in o.get("data", {}) for o in outputs), "the chart was not drawn"
