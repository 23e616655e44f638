"""Debian's Chromium for the browser tests (tests/reporting/test_report_browser.py, tests/explore/test_explore_browser.py).

`.ci/run` installs it in the background while the suite runs (about 40 s of download and unpacking that
would otherwise come first), and names the file it writes the install's exit status to in
``UNOSIM_CHROMIUM_INSTALL``: a browser test then waits for that file instead of skipping. Outside CI, with
no Chromium and no install under way, the browser tests skip.
"""

from __future__ import annotations

import os
import shutil
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
