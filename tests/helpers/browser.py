"""Debian's Chromium for the browser tests, and the probe that measures a report in it (:data:`PROBE`,
:func:`chromium_dom`) (tests/reporting/test_report_browser.py, tests/explore/test_explore_browser.py).

`.ci/run` installs it in the background while the suite runs (about 40 s of download and unpacking that
would otherwise come first), and names the file it writes the install's exit status to in
``UNOSIM_CHROMIUM_INSTALL``: a browser test then waits for that file instead of skipping. Outside CI, with
no Chromium and no install under way, the browser tests skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

#: how long a browser test waits for `.ci/run`'s install (apt's download and unpacking: about 40 s here)
INSTALL_WAIT_S = 600


def find_chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(wait_s: float = INSTALL_WAIT_S) -> str | None:
    """Chromium's path; while `.ci/run` installs it, waits for the install and fails if the install failed
    (a CI run must not skip the browser tests); None when there is no Chromium and no install under way."""
    status_file = os.environ.get("UNOSIM_CHROMIUM_INSTALL")
    if find_chromium() or not status_file:
        return find_chromium()
    status = Path(status_file)
    deadline = time.monotonic() + wait_s
    while not status.is_file() or not status.read_text().strip():
        if time.monotonic() > deadline:
            raise TimeoutError(f"Chromium's install by .ci/run did not finish in {wait_s:.0f} s ({status} has no status)")
        time.sleep(1)
    code = status.read_text().strip()
    path = find_chromium()
    if code != "0" or path is None:
        raise RuntimeError(f"Chromium's install by .ci/run failed (exit status {code}; its log: {status}.log)")
    return path


#: a script appended to a report: at the load event it measures the page and writes the figures into the DOM
PROBE = """
<script>
window.addEventListener("load", () => {
  const root = document.documentElement;
  const sections = [...document.querySelectorAll("section")].map(s => s.id);
  const links = [...document.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute("href").slice(1));
  const navLinks = [...document.querySelectorAll("nav a")].map(a => a.getAttribute("href"));
  const images = [...document.images].map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth}));
  const findings = document.getElementById("findings");
  const figures = [...document.querySelectorAll("figure")].map(f => {
    const a = f.querySelector("a.full");
    const r = a ? a.getBoundingClientRect() : null;
    return {href: a ? a.getAttribute("href") : null, left: r ? r.left : null, right: r ? r.right : null,
            height: r ? r.height : 0};
  });
  const captions = [...document.querySelectorAll(".table-caption")].map(c => {
    const r = c.getBoundingClientRect();
    return {left: r.left, right: r.right, scrollWidth: c.scrollWidth, clientWidth: c.clientWidth,
            text: c.textContent.slice(0, 40)};
  });
  const box = sel => { const e = document.querySelector(sel); if (!e) return null;
                       const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  const answer = {verdicts: box("ul.verdicts"), scorecard: box("table.scorecard"), folded: box("details.all-findings"),
                  verdictItems: document.querySelectorAll("ul.verdicts li").length,
                  scorecardRows: document.querySelectorAll("table.scorecard tbody tr").length,
                  smallestText: Math.min(...[...document.querySelectorAll("#findings *")]
                    .filter(e => e.childNodes.length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
                    .map(e => parseFloat(getComputedStyle(e).fontSize)))};
  // each chart's text at the size it is drawn: the SVG the <picture> chose, laid out at the image's width
  const chartText = [...document.querySelectorAll("figure img")].map(img => {
    const src = img.currentSrc || img.src;
    const holder = document.createElement("div");
    holder.style.cssText = `position:absolute;left:0;top:0;width:${img.getBoundingClientRect().width}px`;
    holder.innerHTML = atob(src.split(",")[1]).replace(/^[\\s\\S]*?<svg/, "<svg");
    document.body.appendChild(holder);
    const svg = holder.querySelector("svg");
    svg.setAttribute("width", "100%"); svg.removeAttribute("height");
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll("text")].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    holder.remove();
    return {alt: img.alt, width: img.getBoundingClientRect().width, texts: sizes.length, smallest: Math.min(...sizes)};
  });
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({
    sections, navLinks, unresolved: links.filter(id => !document.getElementById(id)),
    images, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, innerWidth: window.innerWidth,
    findingsTop: findings ? findings.getBoundingClientRect().top : null,
    findingsItems: findings ? findings.querySelectorAll("li").length : 0, figures, captions, answer, chartText});
  // inside the phone-sized frame of a wrapper page (Chromium's window is at least 500 px wide), the
  // measurements go to the wrapper, which is the document --dump-dom returns
  (window.parent !== window ? window.parent.document : document).body.appendChild(out);
});
</script>
"""


def chromium_dom(chromium: str, html_path: Path, profile: Path, width: int = 1280) -> dict:
    """The probe's measurements of ``html_path`` at a viewport ``width`` px wide (below Chromium's
    smallest window, 500 px, the page is loaded in a frame of that width)."""
    page = html_path
    if width < 500:
        page = html_path.with_name("phone.html")
        page.write_text(f'<html><body style="margin:0"><iframe src="{html_path.name}" '
                        f'style="width:{width}px;height:900px;border:0"></iframe></body></html>')
    out = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--allow-file-access-from-files", f"--user-data-dir={profile}", "--hide-scrollbars",
         f"--window-size={max(width, 500)},900", "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)
    match = re.search(r'<pre id="probe">(.*?)</pre>', out.stdout, re.S)
    assert match, f"the probe did not run: {out.stderr[-500:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))
