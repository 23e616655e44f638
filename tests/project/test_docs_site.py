"""The docs site's generated pages cover what the code knows: every CLI command and option, every public
module, every variant and rule field; every results file names when, at which commit and on which
machine its figures were measured. (``make docs`` builds the site itself, strictly, in CI.)"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "docs" / "gen"))

import api_reference  # noqa: E402
import cli_reference  # noqa: E402
import results_pages  # noqa: E402
import rule_table  # noqa: E402
import sphinx_roles  # noqa: E402
import variant_pages  # noqa: E402


def test_the_cli_page_shows_every_command_and_every_option():
    from unosim.cli.main import build_parser

    page = cli_reference.page()
    found = list(cli_reference.commands(build_parser()))
    assert len(found) > 12   # the commands, and study's subcommands
    for line, parser, _ in found:
        assert f"## `{line}`" in page
        for action in parser._actions:
            for option in action.option_strings:
                assert option in page, f"{line} {option}"
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
                assert action.dest in page or (action.metavar or "") in page


def test_the_api_pages_show_no_raw_sphinx_role():
    """Every :func:`x` of a docstring reaches the API pages as a link to x's entry, or as code when the
    pages render no entry for it (a private name, a name defined in a unit's ``__init__``)."""
    import griffe

    found = []
    package = griffe.load("unosim", search_paths=[str(ROOT)],
                          extensions=griffe.load_extensions(sphinx_roles.SphinxRoles()))
    for obj in sphinx_roles._objects(package):
        if obj.docstring is not None:
            found += [f"{obj.path}: {m.group(0)}" for m in sphinx_roles.ROLE.finditer(obj.docstring.value)]
    assert found == []
    reader = package["store.reader"].docstring.value
    assert "[`open_dataset`][unosim.store.reader.open_dataset]" in reader    # the module's own function
    assert "[`integrity`][unosim.store.integrity]" in reader   # :mod:`.integrity`, a sibling module
    assert "`_check_shape`" in sphinx_roles._rewritten(package["store.manifest"], ":func:`_check_shape`")


def test_every_cross_reference_of_the_docstrings_names_an_object(caplog):
    """What ``make docs`` checks strictly, without building the site: no role of a docstring points at a
    module or object that is gone (each would be a warning of the build)."""
    import griffe

    with caplog.at_level("WARNING", logger=sphinx_roles.LOG.name):
        griffe.load("unosim", search_paths=[str(ROOT)],
                    extensions=griffe.load_extensions(sphinx_roles.SphinxRoles()))
    assert [r.getMessage() for r in caplog.records if r.name == sphinx_roles.LOG.name] == []


def test_the_strict_build_fails_on_a_reference_to_nothing_naming_file_line_and_target(tmp_path):
    """A small site rendering a planted package through the same extension and mkdocs' strict mode: a
    role naming a module that does not exist stops the build with the file, line and role; the
    well-formed roles beside it (a sibling module, another project's module) do not."""
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text('"""Planted: :mod:`.kept`."""\n')
    (package / "kept.py").write_text(textwrap.dedent('''\
        """A module.

        It reads :func:`scipy.special.expit` and :func:`planted.kept.there`, and
        once read :mod:`planted.rules`; :mod:`planted.kept.there` is no module.
        """


        def there():
            """Here: :func:`nowhere`."""
        '''))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Planted\n\n::: planted.kept\n")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f"""\
        site_name: planted
        strict: true
        plugins:
          - mkdocstrings:
              handlers:
                python:
                  paths: [.]
                  options:
                    extensions: [{ROOT / "docs" / "gen" / "sphinx_roles.py"}]
                    docstring_style: numpy
        """))
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120,
                           env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"})
    assert build.returncode != 0, build.stderr
    assert "planted/kept.py:4: unresolved cross-reference :mod:`planted.rules`" in build.stderr
    assert "planted/kept.py:4: unresolved cross-reference :mod:`planted.kept.there`" in build.stderr
    assert "planted/kept.py:9: unresolved cross-reference :func:`nowhere`" in build.stderr
    assert build.stderr.count("unresolved cross-reference") == 3, build.stderr


def test_the_api_pages_render_every_public_module_of_every_unit():
    import unosim

    pages = api_reference.pages()
    units = {p.name for p in Path(unosim.__file__).parent.iterdir() if (p / "__init__.py").is_file()}
    assert set(api_reference.UNITS) == units
    for unit in units:
        page = pages[f"reference/api/{unit}.md"]
        for path in (Path(unosim.__file__).parent / unit).rglob("*.py"):
            parts = path.relative_to(Path(unosim.__file__).parent.parent).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            if not any(part.startswith("_") for part in module.split(".")):
                assert f"::: {module}\n" in page, module


def test_every_variant_has_a_page_and_the_rule_table_every_rule_field():
    from unosim.game import rules

    pages = variant_pages.pages()
    for name in rules.variant_names():
        page = pages[f"reference/variants/{name}.md"]
        assert f"# `{name}`" in page and str(rules.get_variant(name).deck_size) in page
    table = rule_table.page()
    for key in rules.RULE_KEYS:
        assert f"| `{key}` |" in table


def test_the_deck_table_of_a_variant_adds_up_to_its_deck():
    from unosim.game import rules

    page = variant_pages.variant_page("no_mercy")
    counts = [int(line.split("|")[2]) for line in page.splitlines()[page.splitlines().index("## Deck") + 4:]
              if line.startswith("| ")]
    assert sum(counts) == rules.get_variant("no_mercy").deck_size == 168


def test_every_results_file_is_stamped_and_renders():
    files = sorted(results_pages.RESULTS.glob("*.json"))
    assert files
    for path in files:
        data = results_pages.load(path)
        page = results_pages.render(data)
        assert page.count("Measured ") >= 1 + sum("measured" in t for t in data["tables"])


@pytest.mark.parametrize("field", ["date", "commit", "machine"])
def test_a_results_file_without_its_stamp_is_refused(tmp_path, field):
    data = json.loads((results_pages.RESULTS / "tournaments.json").read_text())
    del data["tables"][0]["measured"][field]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=field):
        results_pages.load(path)
