"""The explorer's HTTP side: a Starlette app serving the page and its JSON API.

API (JSON in and out; a bad request is HTTP 400 with ``{"error": "<the CLI's one-line message>"}``):

``GET /api/options``
    variants (players, description, the rules that apply with their descriptions, docs sections and
    current values, the deck in effect and the card classes a designer deck may set), policies, modes,
    the games limit, and the vocabulary of card effects (``card_effects``) the deck editor's "add a card"
    composes cards from.
``POST /api/cards``
    the deck editor's check of declared cards (:mod:`.declared_cards`: ``variant``, ``players``, ``rules``
    = the what-if's overrides with its ``cards``) → each card's spec form and label and the deck in
    effect, or the one-line message of a spec's ``[cards.NAME]``.
``POST /api/compare``
    a comparison (:class:`unosim.explore.comparison.Comparison`: ``variant``, ``players``, ``lineup``,
    ``games`` ≤ :data:`~unosim.explore.comparison.MAX_GAMES` per cell, ``seed``, ``mode``, ``baseline`` and
    ``what_if`` rule overrides, each may hold a ``deck`` and declared ``cards``) → 202 ``{"id", "status"}``; with ``?wait=1``
    the answer is the finished run (200), for scripts.
``GET /api/runs/{id}``
    progress (``games_done`` of ``games_total``, ``phase``) and, when done, the ``result``: findings,
    tables, decks in effect and the study spec; then the chart SVGs (``charts``, null until drawn).
``DELETE /api/runs/{id}``
    cancel (a run whose findings are in is done; its charts follow: ``charts_ready``).
``GET /api/runs/{id}/spec.toml``, ``GET /api/runs/{id}/tables/{name}.csv``
    "save as study" and the analysis tables as CSV.
``POST /api/design``, ``GET``/``DELETE /api/design/{id}``, ``GET /api/design/{id}/{file}``
    Design mode (:mod:`.design_runs`): a design search of at most two minutes (``variant``, ``players``,
    ``lineup``, ``objectives``, ``constraints``, ``minutes``) → 202 ``{"id", "status"}``; its progress lines
    and, when done, the URL of its confirmation study's report (it opens with the design verdict; none when
    no design met the constraints), served with the files it links to.

It answers only its own page (:func:`create_app`'s ``hosts``): a request naming another Host (DNS
rebinding) is refused by Starlette's ``TrustedHostMiddleware``; a state-changing request (POST, DELETE)
from a page of another origin, or a POST that is not ``application/json`` (a cross-site form or
``text/plain`` post, which browsers send without asking), is refused (403, 415); at most
:data:`~unosim.explore.jobs.MAX_PENDING` runs wait or play at once, a new one past that is a 429. No
request can stall it: a request's head not sent within :data:`~unosim.explore.slow_clients.HEAD_TIMEOUT_S`
seconds closes its connection, a body over :data:`MAX_BODY` bytes is refused while it is read (413), a body not
sent within :data:`BODY_TIMEOUT_S` seconds too (408), JSON is parsed and validated in a thread, off the
event loop, and every error is JSON ``{"error": ...}`` of at most :data:`MAX_ERROR` characters.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..game import designer_deck, policies, rule_table, rules
from . import declared_cards
from .comparison import DEFAULT_GAMES, MAX_GAMES, Comparison
from .design_runs import Busy, DesignRuns
from .jobs import QueueFull, Runs

STATIC = Path(__file__).with_name("static")
DOCS = Path(__file__).parents[2] / "docs"
#: the docs the page links to (served from a source checkout): the rules and the invent-a-card tutorial
LINKED_DOCS = ("rules.md", "tutorials/invent-a-card.md")
#: the largest request body (a comparison with two designer decks is a few hundred bytes)
MAX_BODY = 64 * 1024
#: the longest a client may take to send its body
BODY_TIMEOUT_S = 10.0
#: the longest error message (the valid choices a message lists fit; an input it quotes is cut, never echoed whole)
MAX_ERROR = 2000


class _Refused(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def _bounded(message: str) -> str:
    return message if len(message) <= MAX_ERROR else message[:MAX_ERROR - 1] + "…"


def _error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": _bounded(message)}, status_code=status, headers=headers)


class JSONErrors:
    """Every error answer as JSON ``{"error": ...}``: those of the app's own routes already are; this
    rewrites the plain-text ones of the framework (a refused Host, an unknown path, a wrong method)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start: Message | None = None
        body = b""

        async def rewrite(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                kind = dict(message.get("headers", [])).get(b"content-type", b"")
                if message["status"] < 400 or kind.startswith(b"application/json"):
                    return await send(message)
                start = message
                return None
            if start is None:
                return await send(message)
            body += message.get("body", b"")[:MAX_ERROR]
            if not message.get("more_body", False):
                text = body.decode("utf-8", "replace").strip() or "error"
                await _error(text, start["status"])(scope, receive, send)
            return None

        await self.app(scope, receive, rewrite)


class SameOriginJSON:
    """A state-changing request (anything but GET and HEAD) must come from the explorer's own page or
    from a script (no ``Origin``), and a POST must be ``application/json``: a cross-site page can send
    a form or ``text/plain`` post without asking, but a JSON one only after a preflight this server
    never grants."""

    def __init__(self, app: ASGIApp, origins: Iterable[str]):
        self.app = app
        self.origins = frozenset(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            headers = {k.lower(): v for k, v in scope["headers"]}
            origin = headers.get(b"origin")
            if origin is not None and origin.decode("latin-1") not in self.origins:
                return await _error(f"requests from another origin are refused: this server answers only its own "
                                    f"page ({', '.join(sorted(self.origins))})", 403)(scope, receive, send)
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if scope["method"] == "POST" and kind != b"application/json":
                return await _error(f"Content-Type {kind.decode('latin-1')[:40] or 'none'!r} is refused: send "
                                    f"application/json", 415)(scope, receive, send)
        await self.app(scope, receive, send)


async def _read_body(request: Request) -> bytes:
    """The body, read within :data:`BODY_TIMEOUT_S` and refused as soon as it passes :data:`MAX_BODY`."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise _Refused(f"the request body has {int(declared):,} bytes: at most {MAX_BODY:,} are accepted", 413)
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_TIMEOUT_S):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise _Refused(f"the request body is over {MAX_BODY:,} bytes: at most {MAX_BODY:,} are "
                                   f"accepted", 413)
    except TimeoutError:
        raise _Refused(f"the request body did not arrive within {BODY_TIMEOUT_S:g} s", 408) from None
    return bytes(body)


def _json(body: bytes) -> Any:
    """A request body's JSON value, or a refusal saying why it is none."""
    try:
        return json.loads(body or b"null")
    except RecursionError:
        raise _Refused("the request body is JSON nested too deeply", 400) from None
    except ValueError as exc:
        raise _Refused(f"the request body is not JSON: {exc}", 400) from None


def _comparison(body: bytes) -> Comparison:
    """Parse and validate a request body (in a worker thread: the event loop keeps serving)."""
    data = _json(body)
    try:
        return Comparison.from_json(data)
    except RecursionError:
        raise _Refused("the request nests its values too deeply", 400) from None
    except (TypeError, ValueError) as exc:
        raise _Refused(str(exc), 400) from None


def _checked_cards(body: bytes) -> dict[str, Any]:
    """A declared card checked for the deck editor (in a worker thread, like a comparison)."""
    try:
        return declared_cards.check(_json(body))
    except RecursionError:
        raise _Refused("the request nests its values too deeply", 400) from None
    except (TypeError, ValueError) as exc:
        raise _Refused(str(exc), 400) from None


def options() -> dict[str, Any]:
    """What the page offers: every variant with the rules that apply to it, policies, modes, limits."""
    variants = []
    for name in rules.variant_names():
        rs = rules.get_variant(name)
        values = rs.as_dict()
        variants.append({
            "name": name, "description": rules.variant_description(name),
            "players": [rs.player_range[0], rs.max_players()],
            "rules": [{**r, "value": values[r["name"]]} for r in rule_table.as_json()
                      if rules.applies(r["name"], rs.family) and r["name"] not in ("match_mode", "deck", "cards")],
            "fixed": list(rs.spec.fixed),
            "deck": rs.deck_in_effect(),
            "deck_classes": designer_deck.valid_classes(rs.spec.kinds),
            "declared_cards": rs.mechanics != "flip",   # UNO Flip's cards are two-faced (docs/rules.md §2.7)
        })
    return {"variants": variants,
            "policies": [{"name": p.name, "doc": p.doc} for p in policies.POLICIES.values()],
            "modes": list(rules.MATCH_MODES), "max_games": MAX_GAMES, "default_games": DEFAULT_GAMES,
            "card_effects": declared_cards.vocabulary()}


def create_app(runs: Runs, hosts: Iterable[str] = ("127.0.0.1", "localhost"), port: int | None = None,
               designs: DesignRuns | None = None, stopping: threading.Event | None = None) -> Starlette:
    """The app over ``runs`` (the caller owns and closes it) and the design searches ``designs`` (default:
    its own, closed at exit), answering requests addressed to ``hosts`` (Host header names) and
    state-changing ones from the page at those hosts and ``port``; once ``stopping`` is set, a request
    waiting on a run (``?wait=1``) is answered at once (503)."""
    stopping = stopping or threading.Event()
    cached_options = options()
    designs = designs or DesignRuns()
    hosts = list(dict.fromkeys(hosts))
    origins = [f"http://{h}" + (f":{port}" if port else "") for h in hosts]

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def linked_doc(request: Request) -> Response:
        """docs/rules.md (the page's house rules link to it) or the invent-a-card tutorial (the deck
        editor's "add a card" does), in a source checkout."""
        name = request.url.path.removeprefix("/docs/")
        path = DOCS / name
        if not path.is_file():
            return _error(f"{path} is not here (an installed package has no docs): read docs/{name} of the "
                          "source", 404)
        return PlainTextResponse(path.read_text(encoding="utf-8"), media_type="text/markdown; charset=utf-8")

    async def get_options(request: Request) -> Response:
        return JSONResponse(cached_options)

    async def check_cards(request: Request) -> Response:
        try:
            return JSONResponse(await run_in_threadpool(_checked_cards, await _read_body(request)))
        except _Refused as exc:
            return _error(str(exc), exc.status)

    async def failure(request: Request, exc: Exception) -> Response:   # a bug: the terminal gets its traceback
        return _error(f"internal error: {type(exc).__name__}: {exc}", 500)

    middleware = [Middleware(JSONErrors), Middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False),
                  Middleware(SameOriginJSON, origins=origins)]
    return Starlette(exception_handlers={Exception: failure}, middleware=middleware, routes=[
        *_design_routes(designs),
        Route("/", index),
        Route("/api/options", get_options),
        Route("/api/cards", check_cards, methods=["POST"]),
        *(Route(f"/docs/{name}", linked_doc) for name in LINKED_DOCS),
        *_run_routes(runs, stopping),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])


def _run_routes(runs: Runs, stopping: threading.Event) -> list[Route]:
    """Comparisons: submit one, follow or cancel it, download its spec and tables."""
    async def compare(request: Request) -> Response:
        try:
            if runs.full():   # before reading: a flood of posts costs nothing
                raise QueueFull(runs.pending_limit)
            comparison = await run_in_threadpool(_comparison, await _read_body(request))
            run = runs.submit(comparison)
        except _Refused as exc:
            return _error(str(exc), exc.status)
        except QueueFull as exc:
            return _error(str(exc), 429, headers={"Retry-After": "5"})
        if request.query_params.get("wait") not in ("1", "true"):
            return JSONResponse(run.state(), status_code=202)
        while not run.drawn.is_set():
            if stopping.is_set():
                return _error("the explorer is stopping: this run is cancelled", 503)
            await asyncio.sleep(0.05)
        return _run_response(run)

    def _run_response(run) -> Response:
        body = run.state()
        if run.status == "done":
            body["result"] = {**run.result, "charts": run.charts}
        return JSONResponse(body, status_code=500 if run.status == "failed" else 200)

    def _run(request: Request):
        return runs.get(request.path_params["run"])

    async def get_run(request: Request) -> Response:
        run = _run(request)
        return _error(f"unknown run {request.path_params['run']!r}", 404) if run is None else _run_response(run)

    async def cancel_run(request: Request) -> Response:
        run = runs.cancel(request.path_params["run"])
        if run is None:
            return _error(f"unknown run {request.path_params['run']!r}", 404)
        return JSONResponse(run.state())

    async def spec(request: Request) -> Response:
        run = _run(request)
        if run is None:
            return _error(f"unknown run {request.path_params['run']!r}", 404)
        return PlainTextResponse(run.comparison.spec(), media_type="application/toml",
                                 headers={"Content-Disposition": 'attachment; filename="what_if.toml"'})

    async def table(request: Request) -> Response:
        run = _run(request)
        name = request.path_params["name"]
        if run is None or run.status != "done":
            return _error(f"run {request.path_params['run']!r} has no tables (unknown or not done)", 404)
        if name not in run.result["csv"]:
            return _error(f"unknown table {name!r}: valid are {run.result['csv']}", 404)
        return FileResponse(run.dataset / "analysis" / f"{name}.csv", media_type="text/csv",
                            filename=f"what_if_{name}.csv")

    return [
        Route("/api/compare", compare, methods=["POST"]),
        Route("/api/runs/{run}", get_run),
        Route("/api/runs/{run}", cancel_run, methods=["DELETE"]),
        Route("/api/runs/{run}/spec.toml", spec),
        Route("/api/runs/{run}/tables/{name}.csv", table),
    ]


def _design_routes(designs: DesignRuns) -> list[Route]:
    """Design searches: start one, follow or cancel it, read its files."""
    async def design(request: Request) -> Response:
        try:
            body = await _read_body(request)
            run = await asyncio.to_thread(designs.submit, _json(body))
        except _Refused as exc:
            return _error(str(exc), exc.status)
        except Busy as exc:
            return _error(str(exc), 429)
        except ValueError as exc:
            return _error(str(exc))
        return JSONResponse(run.state(), status_code=202)

    async def design_state(request: Request) -> Response:
        run = designs.get(request.path_params["run"])
        if run is None:
            return _error(f"unknown design search {request.path_params['run']!r}", 404)
        if request.method == "DELETE":
            designs.cancel(run.id)
        return JSONResponse(run.state())

    async def design_file(request: Request) -> Response:
        path = designs.file(request.path_params["run"], request.path_params["path"])
        return _error("no such file of a design search", 404) if path is None else FileResponse(path)

    return [
        Route("/api/design", design, methods=["POST"]),
        Route("/api/design/{run}", design_state, methods=["GET", "DELETE"]),
        Route("/api/design/{run}/{path:path}", design_file),
    ]
