"""A page of another site, open in a real browser (headless Chromium) beside the explorer, can neither
start a run (a form post, a `text/plain` fetch, a JSON fetch) nor read what the explorer answers."""

from __future__ import annotations

import http.server
import threading

import pytest
from playwright.sync_api import sync_playwright

from unosim.explore import start

ATTACK = """<!doctype html><title>another site</title>
<form id="form" method="post" enctype="text/plain" action="{api}/api/compare" target="sink">
  <input name='{{"games": 200000, "what_if": {{"seven_o": true}}, "x": "' value='"}}'></form>
<iframe name="sink"></iframe>
<script>
async function attempt(what, run) {{
  try {{ return what + ": " + await run(); }} catch (e) {{ return what + ": refused (" + e.name + ")"; }}
}}
window.attacks = Promise.all([
  attempt("text/plain fetch", async () => (await fetch("{api}/api/compare", {{method: "POST", mode: "no-cors",
    headers: {{"Content-Type": "text/plain"}}, body: '{{"games": 200000, "what_if": {{"seven_o": true}}}}'}})).type),
  attempt("JSON fetch", async () => (await fetch("{api}/api/compare", {{method: "POST",
    headers: {{"Content-Type": "application/json"}}, body: '{{"games": 200000, "what_if": {{"seven_o": true}}}}'}})).status),
  attempt("read options", async () => (await (await fetch("{api}/api/options")).text()).length),
]);
document.getElementById("form").submit();
</script>"""


@pytest.fixture
def sites(tmp_path, chromium):
    explorer = start(workdir=tmp_path / "explore")
    page = ATTACK.format(api=explorer.url.rstrip("/")).encode()

    class Attacker(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    yield explorer, f"http://127.0.0.1:{other.server_address[1]}/"
    other.shutdown()
    explorer.stop()


def test_a_page_of_another_site_cannot_start_a_run_or_read_the_answers(sites, chromium):
    explorer, attacker = sites
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        tab = browser.new_page()
        tab.goto(attacker)
        outcomes = tab.evaluate("window.attacks")
        tab.wait_for_timeout(1000)   # the form's post lands in the frame
        browser.close()
    assert outcomes == ["text/plain fetch: opaque", "JSON fetch: refused (TypeError)",
                        "read options: refused (TypeError)"]
    assert explorer._runs.get("r1") is None   # nothing was queued
