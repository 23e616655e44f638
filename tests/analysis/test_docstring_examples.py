"""The statistics functions' docstrings (numpy style, rendered on the docs site's API pages): every public
function of the statistics modules documents its parameters and what it returns, the statistical ones
cite their source, and every example runs as printed (doctest), so the examples cannot rot."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

MODULES = ("inference", "proportions", "intervals", "survival", "fairness", "skill", "luck", "paired", "practical",
           "price_check")
#: public functions that compute no statistic of their own (a lookup, a conversion, arithmetic on a
#: table's figures): they need no reference
NO_SOURCE = {"intervals.z_value", "luck.majority_chance", "luck.rounds_needed_row", "luck.share",
             "luck.inconsistencies", "paired.compared_rows", "practical.number", "practical.scaled",
             "practical.games_to_decide", "practical.size"}


def _module(name: str):
    return importlib.import_module(f"unosim.analysis.{name}")


def _functions(name: str):
    module = _module(name)
    return [(f"{name}.{fname}", f) for fname, f in inspect.getmembers(module, inspect.isfunction)
            if f.__module__ == module.__name__ and not fname.startswith("_")]


def _has_section(doc: str, title: str) -> bool:
    return f"\n{title}\n{'-' * len(title)}\n" in doc


@pytest.mark.parametrize("name", MODULES)
def test_every_example_runs_as_printed(name):
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    for test in doctest.DocTestFinder().find(_module(name)):
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(report)
    assert results.attempted >= len(_functions(name))   # at least one example line per function


@pytest.mark.parametrize("name", MODULES)
def test_every_function_documents_parameters_returns_a_source_and_an_example(name):
    missing = []
    for qualified, function in _functions(name):
        doc = inspect.getdoc(function) or ""
        needed = ["Parameters", "Returns", "Examples"] + ([] if qualified in NO_SOURCE else ["References"])
        missing += [f"{qualified}: {title}" for title in needed if not _has_section(doc, title)]
    assert not missing, missing


def test_the_exempt_functions_exist():
    """A renamed function leaves no stale exemption behind."""
    public = {qualified for name in MODULES for qualified, _ in _functions(name)}
    assert NO_SOURCE <= public, NO_SOURCE - public
