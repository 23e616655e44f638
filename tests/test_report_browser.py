"""The demo report in a real browser (headless Chromium, from Debian's `chromium` package; `.ci/run`
installs it): findings first, every in-page link resolves, every image loads, and at 1280 px the page
never scrolls sideways.

Chromium is driven without extra dependencies: the report is copied with a small script appended that
runs at the load event and writes its measurements into the DOM; ``--dump-dom`` (with a virtual-time
budget, so the load event and image decoding have happened) returns that DOM.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from unosim.dataset import open_dataset
from unosim.report import write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PROBE = """
<script>
window.addEventListener("load", () => {
  const root = document.documentElement;
  const sections = [...document.querySelectorAll("section")].map(s => s.id);
  const links = [...document.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute("href").slice(1));
  const navLinks = [...document.querySelectorAll("nav a")].map(a => a.getAttribute("href"));
  const images = [...document.images].map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth}));
  const findings = document.getElementById("findings");
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({
    sections, navLinks, unresolved: links.filter(id => !document.getElementById(id)),
    images, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, innerWidth: window.innerWidth,
    findingsTop: findings ? findings.getBoundingClientRect().top : null,
    findingsItems: findings ? findings.querySelectorAll("li").length : 0});
  document.body.appendChild(out);
});
</script>
"""


def chromium_dom(html_path: Path, profile: Path) -> dict:
    out = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--hide-scrollbars", "--window-size=1280,900",
         "--virtual-time-budget=10000", "--dump-dom", html_path.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)
    match = re.search(r'<pre id="probe">(.*?)</pre>', out.stdout, re.S)
    assert match, f"the probe did not run: {out.stderr[-500:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")
def test_demo_report_in_a_real_browser(demo_dataset, tmp_path):  # noqa: F811
    report = write_report(open_dataset(demo_dataset), tmp_path / "report.html")
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    dom = chromium_dom(probe, tmp_path / "profile")
    assert dom["innerWidth"] == 1280
    assert dom["sections"][0] == "findings"
    assert dom["findingsTop"] < 900, "the findings start on the first screen"
    assert dom["findingsItems"] >= 3
    assert len(dom["navLinks"]) >= 8 and not dom["unresolved"], dom["unresolved"]
    assert {link[1:] for link in dom["navLinks"]} == set(dom["sections"])
    assert dom["images"] and all(i["complete"] and i["width"] > 0 and i["alt"] for i in dom["images"]), dom["images"]
    assert dom["scrollWidth"] <= dom["clientWidth"], (dom["scrollWidth"], dom["clientWidth"])
