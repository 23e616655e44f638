"""The what-if explorer: toggle a rule or change the deck, see the paired effects in seconds.

``unosim explore`` (or :func:`serve`) starts a local web app on http://127.0.0.1:8765/ (``--host`` to
listen elsewhere, ``--port``, ``--no-browser``); in JupyterLab, ``from unosim.explore import start;
start()`` runs it in the background and shows the page in the notebook. The page and scripts use one
JSON API (:mod:`.server`); a comparison is a two-cell study run, analysed and checked exactly as
``unosim study run`` + ``analyze`` + ``report`` would (:mod:`.comparison`); games are played by a warm
worker process (:mod:`.jobs`), so the server stays responsive and a run can be cancelled.

Pieces: Starlette + uvicorn (a small ASGI server: a JSON API and static files are all the page needs),
a page of plain HTML/JS with no external asset (works offline), charts drawn server-side as SVG by the
report's own chart code (the explorer and the report draw the same charts).
"""

from __future__ import annotations

import errno
import ipaddress
import signal
import socket
import sys
import threading
import webbrowser
from dataclasses import dataclass

DEFAULT_PORT = 8765


def check_address(host: str, port) -> bool:
    """Validate ``--host`` and ``--port`` (a ValueError names the bad value and what is valid); True when
    the address reaches beyond this machine (not loopback)."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ValueError(f"--port {port!r} is invalid: valid is 1..65535 (0: any free port)")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ValueError(f"--host {host[:100]!r} is invalid ({getattr(exc, 'strerror', None) or exc}): valid is "
                         f"an address or name of this machine, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 "
                         f"(every network it is on)") from None
    return not all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in found)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        choose = "--port" if exc.errno in (errno.EADDRINUSE, errno.EACCES) else "--host"
        raise ValueError(f"cannot listen on {host}:{port} ({exc.strerror}); choose another {choose}") from None
    sock.listen(128)   # connections wait in the backlog until the server runs: the printed URL works at once
    return sock


def _hosts(host: str) -> list[str]:
    """The Host header names the server answers: the machine's own, the one it was told to bind, and,
    bound to every interface, the machine's names and addresses."""
    names = ["127.0.0.1", "localhost", "[::1]", f"[{host}]" if ":" in host else host]
    try:
        everywhere = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        everywhere = False
    if everywhere:
        machine = socket.gethostname()
        names += [machine, socket.getfqdn()]
        try:
            names += socket.gethostbyname_ex(machine)[2]
        except OSError:
            pass
    return list(dict.fromkeys(n.lower() for n in names))


def _server(host: str, port: int, workdir=None):
    import uvicorn

    from .jobs import Runs
    from .server import create_app
    from .slow_clients import HeadDeadline

    class Server(uvicorn.Server):
        """uvicorn's server, telling the app when it starts to stop (a request waiting on a run ends)."""

        def handle_exit(self, sig, frame) -> None:
            stopping.set()
            super().handle_exit(sig, frame)

    stopping = threading.Event()
    sock = _bind(host, port)
    runs = Runs(workdir)
    app = create_app(runs, _hosts(host), sock.getsockname()[1], stopping=stopping)
    # a client slower than the keep-alive timeout between requests is dropped, and one that does not finish
    # a request's head within its deadline (slow_clients); on Ctrl-C, open requests get a second
    config = uvicorn.Config(app, log_level="error", lifespan="off", timeout_keep_alive=5,
                            timeout_graceful_shutdown=1, http=HeadDeadline)
    return Server(config), sock, runs


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, open_browser: bool = True, workdir=None) -> None:
    """Run the explorer until Ctrl-C (or SIGTERM); prints its URL (and opens it in a browser unless told
    not to), and one line as it stops: the runs it cancels end with their worker."""
    beyond = check_address(host, port)
    server, sock, runs = _server(host, port, workdir)
    # Ctrl-C and SIGTERM ask the server to stop, whenever they come: uvicorn handles them while it runs and
    # re-raises them once it has stopped (then they land here), and one before it starts stops it at once
    signals = (signal.SIGINT, signal.SIGTERM) if threading.current_thread() is threading.main_thread() else ()
    previous = {sig: signal.signal(sig, server.handle_exit) for sig in signals}
    url = _url(sock)
    if beyond:
        print(f"unosim explore: warning: listening on {host}, beyond this machine: anyone who can reach it "
              f"can run games here and read the results (no password); --host 127.0.0.1 keeps it to this machine",
              file=sys.stderr, flush=True)
    print(f"unosim explore: {url}  (Ctrl-C stops it)", flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        unfinished = runs.unfinished()
        runs.close()
        print("unosim explore: stopped" + (f"; {unfinished} unfinished run(s) cancelled" if unfinished else ""),
              flush=True)


@dataclass
class Explorer:
    """A running explorer (from :func:`start`): its ``url``; shown in a notebook as the page itself."""

    url: str
    _server: object
    _thread: threading.Thread
    _runs: object

    def stop(self) -> None:
        self._server.handle_exit(None, None)
        self._thread.join(10)
        self._runs.close()

    def _repr_html_(self) -> str:
        return (f'<iframe src="{self.url}" width="100%" height="900" style="border:0"></iframe>'
                f'<p><a href="{self.url}" target="_blank">{self.url}</a></p>')


def start(host: str = "127.0.0.1", port: int = 0, workdir=None) -> Explorer:
    """Start the explorer in a background thread (port 0: any free port) and return it; in JupyterLab the
    returned object displays the page. ``stop()`` ends it."""
    check_address(host, port)
    server, sock, runs = _server(host, port, workdir)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="unosim-explore", daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        threading.Event().wait(0.02)
    return Explorer(_url(sock), server, thread, runs)


def compare(**request):
    """Run one comparison in this process and return its result (the page's JSON): the Python API.
    Keys as ``POST /api/compare`` takes them (``variant``, ``players``, ``lineup``, ``games``, ``seed``,
    ``mode``, ``baseline``, ``what_if``)."""
    import tempfile

    from . import comparison as _compare
    comparison = _compare.Comparison.from_json(request)
    with tempfile.TemporaryDirectory(prefix="unosim-compare-") as tmp:
        return _compare.run(comparison, tmp)


__all__ = ["serve", "start", "compare", "Explorer", "DEFAULT_PORT"]
