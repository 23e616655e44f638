"""A griffe extension for the API pages: the Sphinx roles of unosim's docstrings read as links or code.

The docstrings cite code as Sphinx does (:func:`x`, :mod:`.y`, :class:`~a.B`), which mkdocstrings would
print as it is. Each role becomes a cross-reference to the object's entry when the API pages render it
(a public object of a public module, found from the docstring's module as Python would: a sibling
module for ``.name``, ``..name`` one package up, the module's or the class's own name, or a full path),
else inline code. A leading ``~`` shows the last part of the name only, as in Sphinx. mkdocs.yml loads
it for the python handler (``extensions``).

A role naming nothing is text the code left behind (a module renamed, a function gone): each is logged
as a warning naming file, line and role, which fails the strict build (``make docs``). A name outside
the package whose top module is installed (:mod:`scipy.special`) is another project's object and reads
as code.
"""

from __future__ import annotations

import importlib.util
import logging
import re
from typing import Any

import griffe

#: under ``mkdocs``: the strict build counts this logger's warnings and fails on them
LOG = logging.getLogger("mkdocs.plugins.unosim.sphinx_roles")

ROLE = re.compile(r":(?:func|mod|class|meth|attr|data|exc|obj|const):`(~?)([^`]+)`")


class SphinxRoles(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            for place, role in unresolved(obj):
                LOG.warning("%s: unresolved cross-reference %s", place, role)
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = _rewritten(obj, obj.docstring.value)


def _rewritten(owner: griffe.Object, text: str) -> str:
    return ROLE.sub(lambda m: _reference(owner, m.group(2), bool(m.group(1))), text)


def unresolved(owner: griffe.Object) -> list[tuple[str, str]]:
    """The roles of ``owner``'s docstring that name no object (a ``:mod:`` role: no module), as
    ``("file:line", role)``."""
    docstring = owner.docstring
    if docstring is None:
        return []
    found = []
    for match in ROLE.finditer(docstring.value):
        name, target = match.group(2), _resolve(owner, match.group(2))
        wants_module = match.group(0).startswith(":mod:")
        if (target is None or wants_module and not target.is_module) and not _external(owner, name):
            line = (docstring.lineno or 0) + docstring.value.count("\n", 0, match.start())
            found.append((f"{_shown_path(owner)}:{line}", match.group(0)))
    return found


def _external(owner: griffe.Object, name: str) -> bool:
    top = name.split(".", 1)[0]
    return top not in ("", owner.package.name) and importlib.util.find_spec(top) is not None


def _shown_path(owner: griffe.Object) -> str:
    """``owner``'s file relative to the folder holding its top package (``unosim/game/rules.py``)."""
    path = owner.filepath[0] if isinstance(owner.filepath, list) else owner.filepath
    top = owner.package.filepath
    root = (top[0] if isinstance(top, list) else top.parent).parent
    return str(path.relative_to(root))


def _objects(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def _reference(owner: griffe.Object, name: str, short: bool) -> str:
    shown = name.lstrip(".").rsplit(".", 1)[-1] if short else name.lstrip(".")
    target = _resolve(owner, name)
    if target is None or not _rendered(target):
        return f"`{shown}`"
    return f"[`{shown}`][{target.path}]"


def _resolve(owner: griffe.Object, name: str) -> griffe.Object | None:
    module = owner if owner.is_module else owner.module
    if name.startswith("."):
        package = module if module.is_init_module else module.parent
        for _ in range(len(name) - len(name.lstrip(".")) - 1):
            package = package.parent
        candidates = [f"{package.path}.{name.lstrip('.')}"]
    else:
        scopes = [owner.path] if owner.is_class else []
        scopes += [owner.parent.path] if owner.parent is not None and owner.parent.is_class else []
        candidates = [*(f"{scope}.{name}" for scope in [*scopes, module.path]), name]
    for path in candidates:
        try:
            found = owner.modules_collection.get_member(path)
        except (KeyError, ValueError, griffe.AliasResolutionError):   # the last: through an import griffe did not load
            continue
        try:
            return found.final_target if found.is_alias else found
        except griffe.AliasResolutionError:
            return None
    return None


def _rendered(target: griffe.Object) -> bool:
    """Whether the API pages render ``target``: every public module of a unit has its own entry with its
    public members (a unit's ``__init__`` only its docstring); private names are filtered out."""
    parts = target.path.split(".")
    if parts[0] != "unosim" or any(part.startswith("_") for part in parts[1:]):
        return False
    if target.is_module:
        return len(parts) >= 2
    return len(target.module.path.split(".")) >= 3
