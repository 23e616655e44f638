"""The explorer's HTTP side: a Starlette app serving the page and its JSON API.

API (JSON in and out; a bad request is HTTP 400 with ``{"error": "<the CLI's one-line message>"}``):

``GET /api/options``
    variants (players, description, the rules that apply with their descriptions, docs sections and
    current values, the deck in effect and the card classes a designer deck may set), policies, modes,
    the games limit.
``POST /api/compare``
    a comparison (:class:`unosim.explore.compare.Comparison`: ``variant``, ``players``, ``lineup``,
    ``games`` ≤ :data:`~unosim.explore.compare.MAX_GAMES` per cell, ``seed``, ``mode``, ``baseline`` and
    ``what_if`` rule overrides, each may hold a ``deck``) → 202 ``{"id", "status"}``; with ``?wait=1``
    the answer is the finished run (200), for scripts.
``GET /api/runs/{id}``
    progress (``games_done`` of ``games_total``, ``phase``) and, when done, the ``result``: findings,
    tables, decks in effect and the study spec; then the chart SVGs (``charts``, null until drawn).
``DELETE /api/runs/{id}``
    cancel (a run whose findings are in is done; its charts follow: ``charts_ready``).
``GET /api/runs/{id}/spec.toml``, ``GET /api/runs/{id}/tables/{name}.csv``
    "save as study" and the analysis tables as CSV.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..game import designer_deck, policies, rule_table, rules
from .comparison import DEFAULT_GAMES, MAX_GAMES, Comparison
from .jobs import Runs

STATIC = Path(__file__).with_name("static")
RULES_DOC = Path(__file__).parents[2] / "docs" / "rules.md"


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


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
                      if rules.applies(r["name"], rs.family) and r["name"] not in ("match_mode", "deck")],
            "fixed": list(rs.spec.fixed),
            "deck": rs.deck_in_effect(),
            "deck_classes": designer_deck.valid_classes(rs.spec.kinds),
        })
    return {"variants": variants,
            "policies": [{"name": p.name, "doc": p.doc} for p in policies.POLICIES.values()],
            "modes": list(rules.MATCH_MODES), "max_games": MAX_GAMES, "default_games": DEFAULT_GAMES}


def create_app(runs: Runs) -> Starlette:
    """The app over ``runs`` (the caller owns and closes it)."""
    cached_options = options()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def rules_doc(request: Request) -> Response:
        """docs/rules.md, which the page's house rules link to (in a source checkout)."""
        path = RULES_DOC
        if not path.is_file():
            return _error(f"{path} is not here (an installed package has no docs): read docs/rules.md of the "
                          "source", 404)
        return PlainTextResponse(path.read_text(encoding="utf-8"), media_type="text/markdown; charset=utf-8")

    async def get_options(request: Request) -> Response:
        return JSONResponse(cached_options)

    async def compare(request: Request) -> Response:
        try:
            data = json.loads(await request.body() or b"null")
        except ValueError as exc:
            return _error(f"the request body is not JSON: {exc}")
        try:
            comparison = Comparison.from_json(data)
        except (TypeError, ValueError) as exc:
            return _error(str(exc))
        run = runs.submit(comparison)
        if request.query_params.get("wait") not in ("1", "true"):
            return JSONResponse(run.state(), status_code=202)
        while not run.drawn.is_set():
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

    return Starlette(routes=[
        Route("/", index),
        Route("/api/options", get_options),
        Route("/docs/rules.md", rules_doc),
        Route("/api/compare", compare, methods=["POST"]),
        Route("/api/runs/{run}", get_run),
        Route("/api/runs/{run}", cancel_run, methods=["DELETE"]),
        Route("/api/runs/{run}/spec.toml", spec),
        Route("/api/runs/{run}/tables/{name}.csv", table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
