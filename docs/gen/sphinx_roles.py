"""A griffe extension for the API pages: the Sphinx roles of unosim's docstrings read as links or code.

The docstrings cite code as Sphinx does (:func:`x`, :mod:`.y`, :class:`~a.B`), which mkdocstrings would
print as it is. Each role becomes a cross-reference to the object's entry when the API pages render it
(a public object of a public module, found from the docstring's module as Python would: a sibling
module for ``.name``, the module's or the class's own name, or a full path), else inline code. A
leading ``~`` shows the last part of the name only, as in Sphinx. mkdocs.yml loads it for the python
handler (``extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|mod|class|meth|attr|data|exc|obj|const):`(~?)([^`]+)`")


class SphinxRoles(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = _rewritten(obj, obj.docstring.value)


def _rewritten(owner: griffe.Object, text: str) -> str:
    return ROLE.sub(lambda m: _reference(owner, m.group(2), bool(m.group(1))), text)


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
        package = module if module.is_package else module.parent
        candidates = [f"{package.path}.{name.lstrip('.')}"]
    else:
        scopes = [owner.path] if owner.is_class else []
        scopes += [owner.parent.path] if owner.parent is not None and owner.parent.is_class else []
        candidates = [*(f"{scope}.{name}" for scope in [*scopes, module.path]), name]
    for path in candidates:
        try:
            found = owner.modules_collection.get_member(path)
        except (KeyError, ValueError):
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
