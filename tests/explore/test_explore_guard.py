"""The explorer answers only its own page and no request can stall it: cross-site posts, foreign Host
headers (DNS rebinding), a 50 MB body and a flood of 2,000 posts are refused while the page itself is
served within 100 ms throughout; slow bodies time out, and a request head dribbled forever (slowloris) is
cut off; every failure is a bounded JSON error."""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time

import pytest
from commands import unosim_explore

from unosim.explore import server, start

JSON = {"Content-Type": "application/json"}
LONG_RUN = json.dumps({"games": 200_000, "what_if": {"seven_o": True}}).encode()   # hours of CPU each, if they were let in


async def http(port: int, method: str, path: str, headers: dict | None = None, body: bytes = b"",
               chunks: int = 0, host: str = "127.0.0.1") -> tuple[int, dict | str]:
    """One request on its own connection: (status, JSON or text). ``chunks``: send that many MiB as a
    chunked body instead of ``body`` (stopping when the server stops reading); a server that refuses it
    may reset the connection before its answer is read: then (None, the bytes sent)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = {"Host": f"{host}:{port}", "Connection": "close", **(headers or {})}
    if chunks:
        head["Transfer-Encoding"] = "chunked"
    else:
        head.setdefault("Content-Length", str(len(body)))
    received = bytearray()

    async def read():   # while writing: a server that refuses a body answers, then resets the connection
        try:
            while data := await reader.read(65536):
                received.extend(data)
        except ConnectionResetError:
            pass

    reading = asyncio.create_task(read())
    writer.write(f"{method} {path} HTTP/1.1\r\n".encode()
                 + "".join(f"{k}: {v}\r\n" for k, v in head.items()).encode() + b"\r\n" + (b"" if chunks else body))
    sent = 0
    try:
        mib = b"x" * (1 << 20)
        for _ in range(chunks):
            writer.write(b"%x\r\n" % len(mib) + mib + b"\r\n")
            await writer.drain()
            sent += len(mib)
        if chunks:
            writer.write(b"0\r\n\r\n")
        await writer.drain()
    except (ConnectionResetError, BrokenPipeError):
        pass   # the server stopped reading: its answer is already there
    await reading
    raw = bytes(received)
    writer.close()
    if not raw:
        return None, sent
    head_text, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head_text.split()[1])
    text = payload.decode("utf-8", "replace")
    return status, json.loads(text) if b"application/json" in head_text else text


# a `unosim explore` whose event loop a request to /block stalls for BLOCK_S: what a handler doing its work
# in the loop (reading a body, parsing, starting a run) would do to the page
BLOCKING_EXPLORER = """
import sys, time
from unosim.cli import main
from unosim.explore import server

def blocking(app):
    async def with_a_stall(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == "/block":
            time.sleep(float(sys.argv[1]))   # in the event loop: every other request waits
        await app(scope, receive, send)
    return with_a_stall

create_app = server.create_app
server.create_app = lambda *a, **k: blocking(create_app(*a, **k))
sys.exit(main(["explore", "--no-browser", "--port", "0"]))
"""
BLOCK_S = 2.0


def _started(process_and_line) -> tuple[subprocess.Popen, int]:
    process, line = process_and_line
    port = int(line.split()[2].rstrip("/").rsplit(":", 1)[1])
    asyncio.run(http(port, "GET", "/"))
    return process, port


@pytest.fixture(scope="module")
def explorers():
    """Two `unosim explore` processes: the one the attacks go to, and its twin, which no attack reaches: the
    same page asked of it at the same moments measures what this machine's load alone does to a page request."""
    started = [_started(unosim_explore()) for _ in range(2)]
    time.sleep(2)   # past the first requests' imports and the workers' start
    yield [port for _, port in started]
    for process, _ in started:
        process.terminate()
        process.wait(30)


@pytest.fixture
def blocking_explorer():
    process, port = _started((lambda p: (p, p.stdout.readline()))(subprocess.Popen(
        [sys.executable, "-c", BLOCKING_EXPLORER, str(BLOCK_S)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)))
    yield port
    process.terminate()
    process.wait(30)


def _slowdown(cpu_s: float = 0.1) -> float:
    """Wall time over CPU time of a busy loop in this process: how many processes share each core now
    (1 on a quiet machine; a shared 2-core machine under a load of 16 gives about 8)."""
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < cpu_s:
        pass
    return max(1.0, (time.perf_counter() - wall) / (time.process_time() - cpu))


async def _timed_page(port: int) -> float:
    t = time.perf_counter()
    status, page = await http(port, "GET", "/")
    assert status == 200 and "what-if explorer" in page
    return time.perf_counter() - t


async def _watched(port: int, twin: int, attacks) -> tuple[list, list[tuple[float, float]], float]:
    """The results of the coroutines ``attacks``, while the page is asked of ``port`` and of ``twin`` at once,
    every 20 ms for as long as they last: (results, (latency, twin's latency) per request, the median
    contention measured before, during and after: one busy loop preempted for a moment reads as a
    contention of 20 or more, so the largest would excuse anything)."""
    pairs: list[tuple[float, float]] = []
    contention = [_slowdown()]
    done = asyncio.Event()

    async def watch():
        while not done.is_set():
            pairs.append(tuple(await asyncio.gather(_timed_page(port), _timed_page(twin))))
            contention.append(_slowdown(0.01))
            await asyncio.sleep(0.02)

    watcher = asyncio.create_task(watch())
    await asyncio.sleep(0.2)
    results = await asyncio.gather(*attacks)
    done.set()
    await watcher
    return results, pairs, statistics.median([*contention, _slowdown()])


def _stall(pairs: list[tuple[float, float]], contention: float) -> str | None:
    """Why the page was not served within 100 ms throughout, or None. 100 ms on a quiet machine, scaled by the
    contention (a loaded machine slows the work of every process alike), plus the slowest answer of the twin
    (the longest a page request waited for its server to be scheduled, which no contention figure of this
    process predicts): a request that holds up the server shows as the difference, a busy machine in both.
    One request may be late by at most three times the bound (its server descheduled for a moment the twin,
    on the other core, did not share: seen at 0.30 s against 0.25 s with both test workers busy); a second
    late one, or one later than that (a loop held for 2 s), fails."""
    worst, twin_worst = max(p[0] for p in pairs), max(p[1] for p in pairs)
    bound = 0.1 * contention + twin_worst
    late = [p for p in pairs if p[0] >= bound]
    if len(late) > 1 or worst >= 3 * bound:
        return (f"{len(late)} page(s) later than a bound of {bound:.3f} s, the slowest {worst:.3f} s (contention "
                f"{contention:.2f}, the twin's slowest {twin_worst:.3f} s) in {len(pairs)} requests; slowest: "
                f"{sorted(pairs)[-5:]}")
    return None


def test_attacks_are_refused_while_the_page_answers_within_100_ms(explorers):
    """100 ms on a quiet machine: :func:`_stall` says how the bound follows a loaded machine;
    :func:`test_a_request_that_stalls_the_server_is_caught` shows that it still catches a stalled server."""
    port, twin = explorers

    async def flood():
        gate = asyncio.Semaphore(10)

        async def one():
            async with gate:
                return (await http(port, "POST", "/api/compare", JSON, LONG_RUN))[0]
        return await asyncio.gather(*(one() for _ in range(2000)))

    results, pairs, contention = asyncio.run(_watched(port, twin, [
        http(port, "POST", "/api/compare", {"Content-Type": "text/plain", "Origin": "https://evil.example"}, LONG_RUN),
        http(port, "POST", "/api/compare", {**JSON, "Origin": "https://evil.example"}, LONG_RUN),
        http(port, "GET", "/api/options", host="evil.example"),
        http(port, "POST", "/api/compare", JSON, LONG_RUN, host="rebound.example"),
        http(port, "POST", "/api/compare", JSON, chunks=50),
        http(port, "POST", "/api/compare", {**JSON, "Content-Length": str(50 << 20)}),
        flood()]))
    text_post, cross_site, foreign, rebound, chunked, declared, flood = results
    assert text_post[0] == 403 and cross_site[0] == 403 and "another origin" in cross_site[1]["error"]
    assert foreign == (400, {"error": "Invalid host header"}) and rebound[0] == 400
    assert declared[0] == 413 and "at most 65,536" in declared[1]["error"]
    # refused while read: answered, or reset (its answer lost) long before 50 MB went through
    assert (chunked[0] == 413 and "at most 65,536" in chunked[1]["error"]) or (chunked[0] is None and chunked[1] < 20 << 20)
    assert flood.count(202) == 4 and flood.count(429) == 2000 - 4
    assert len(pairs) > 10 and _stall(pairs, contention) is None, _stall(pairs, contention)


def test_a_request_that_stalls_the_server_is_caught(explorers, blocking_explorer):
    """The check of the attacks above, on an explorer one of whose requests holds its event loop for 2 s."""
    _, twin = explorers

    async def stall():
        await asyncio.sleep(0.3)
        return await http(blocking_explorer, "GET", "/block")

    _, pairs, contention = asyncio.run(_watched(blocking_explorer, twin, [stall(), asyncio.sleep(BLOCK_S + 1)]))
    assert _stall(pairs, contention) is not None, (contention, sorted(pairs)[-5:])
    assert max(p[0] for p in pairs) > BLOCK_S / 2   # a page request waited for the stall


@pytest.fixture(scope="module")
def explorer(tmp_path_factory):
    app = start(workdir=tmp_path_factory.mktemp("explore"))
    yield app
    app.stop()


def _port(explorer) -> int:
    return int(explorer.url.rstrip("/").rsplit(":", 1)[1])


@pytest.mark.parametrize("body, message", [
    (b"[" * 30_000 + b"]" * 30_000, "the request body is JSON nested too deeply"),
    (b'{"what_if": {"deck": ' + b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"}}", "JSON nested too deeply"),
    (b"not json", "the request body is not JSON"),
    (json.dumps({"lineup": "x" * 50_000}).encode(), "unknown policy 'xxx"),
])
def test_malformed_bodies_get_a_bounded_json_error(explorer, body, message):
    status, answer = asyncio.run(http(_port(explorer), "POST", "/api/compare", JSON, body))
    assert status == 400 and message in answer["error"]
    assert len(answer["error"]) <= server.MAX_ERROR


@pytest.mark.parametrize("method, path, status", [("GET", "/api/nowhere", 404), ("GET", "/api/compare", 405),
                                                  ("PUT", "/api/runs/r1", 405)])
def test_the_frameworks_own_errors_are_json_too(explorer, method, path, status):
    assert asyncio.run(http(_port(explorer), method, path, JSON))[0] == status
    assert "error" in asyncio.run(http(_port(explorer), method, path, JSON))[1]


def test_a_slow_body_times_out(explorer, monkeypatch):
    monkeypatch.setattr(server, "BODY_TIMEOUT_S", 0.5)

    async def slow():
        reader, writer = await asyncio.open_connection("127.0.0.1", _port(explorer))
        writer.write("POST /api/compare HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: 100\r\nConnection: close\r\n\r\n{".encode())
        await writer.drain()
        t = time.perf_counter()
        raw = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        return raw, time.perf_counter() - t

    raw, seconds = asyncio.run(slow())
    assert raw.startswith(b"HTTP/1.1 408") and b"did not arrive within 0.5 s" in raw and seconds < 5


@pytest.mark.parametrize("after_a_request", [False, True])
def test_a_request_head_dribbled_byte_by_byte_is_cut_off(explorer, monkeypatch, after_a_request):
    """A client that sends a request's head a byte at a time, forever (slowloris), is disconnected once
    :data:`HEAD_TIMEOUT_S` passes, on a fresh connection and on one kept alive after a request: each byte
    arrives well within the keep-alive timeout, which uvicorn restarts on every byte anyway. The bound is
    loose (a loaded machine delays the server's timer, never by this much); the dribble never ends."""
    import re
    import socket

    from unosim.explore import slow_clients
    monkeypatch.setattr(slow_clients, "HEAD_TIMEOUT_S", 1.0)   # read as each connection or request starts
    bound = 30.0
    t = time.perf_counter()   # never after the server's timer starts (at connect, or as it answers)
    with socket.create_connection(("127.0.0.1", _port(explorer)), timeout=bound) as sock:
        if after_a_request:   # a whole request and its answer first: the connection is kept alive
            t = time.perf_counter()
            sock.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += sock.recv(65536)
            head, body = answer.split(b"\r\n\r\n", 1)
            length = int(re.search(rb"content-length: (\d+)", head, re.IGNORECASE).group(1))
            while len(body) < length:
                body += sock.recv(65536)
            assert head.startswith(b"HTTP/1.1 200") and b"connection: close" not in head.lower()
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        sock.settimeout(0.2)
        closed = False
        while not closed and time.perf_counter() - t < bound:
            try:
                sock.sendall(b"a")
                closed = sock.recv(65536) == b""
            except TimeoutError:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
        seconds = time.perf_counter() - t
    assert closed, f"the connection was still open after {seconds:.0f} s of a dribbled header"
    assert 1.0 <= seconds < bound
