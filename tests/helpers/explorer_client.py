"""A script's call to the explorer's HTTP API (``unosim explore``; the ``explorer`` fixture of conftest.py
starts one in this process)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request


def call(explorer, path: str, body=None, method: str | None = None) -> tuple[int, dict | str]:
    """The status and the answer (parsed when it is JSON) of ``path`` on ``explorer``; ``body``: a dict sent
    as JSON, or bytes sent as they are."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(explorer.url.rstrip("/") + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            status, text, kind = response.status, response.read().decode(), response.headers["Content-Type"]
    except urllib.error.HTTPError as exc:
        status, text, kind = exc.code, exc.read().decode(), exc.headers["Content-Type"]
    return status, json.loads(text) if "json" in kind else text
