"""The browser tests' wait for `.ci/run`'s background install of Chromium (tests/helpers/browser.py): they wait for
the install's exit status, fail if it failed, and skip only when there is no Chromium and no install."""

from __future__ import annotations

import threading

import browser
import pytest


def _finish_later(path, status, installed, monkeypatch):
    def finish():
        installed.set()
        path.write_text(status)
    threading.Timer(0.5, finish).start()
    monkeypatch.setattr(browser, "find_chromium", lambda: "/usr/bin/chromium" if installed.is_set() else None)


def test_a_browser_test_waits_for_the_install_under_way(tmp_path, monkeypatch):
    status = tmp_path / "status"
    monkeypatch.setenv("UNOSIM_CHROMIUM_INSTALL", str(status))
    _finish_later(status, "0\n", threading.Event(), monkeypatch)
    assert browser.chromium(wait_s=30) == "/usr/bin/chromium"


def test_a_failed_install_fails_the_browser_tests_instead_of_skipping_them(tmp_path, monkeypatch):
    status = tmp_path / "status"
    monkeypatch.setenv("UNOSIM_CHROMIUM_INSTALL", str(status))
    _finish_later(status, "100\n", threading.Event(), monkeypatch)
    monkeypatch.setattr(browser, "find_chromium", lambda: None)
    with pytest.raises(RuntimeError, match="exit status 100"):
        browser.chromium(wait_s=30)
    with pytest.raises(TimeoutError, match="did not finish"):
        monkeypatch.setenv("UNOSIM_CHROMIUM_INSTALL", str(tmp_path / "never"))
        browser.chromium(wait_s=1.5)


def test_without_chromium_or_an_install_the_browser_tests_skip(monkeypatch):
    monkeypatch.delenv("UNOSIM_CHROMIUM_INSTALL", raising=False)
    monkeypatch.setattr(browser, "find_chromium", lambda: None)
    assert browser.chromium() is None
