"""The compile-time switches of a build (:mod:`.compiler.builds`): what this copy of the engine compiles in.

Kernel code tests them as ``if HAS_SPIN and …:``; numba's dead-branch pruning removes a branch on a
false module constant before typing, so the code behind it costs nothing in a build without it. Rule
switches that are not mechanisms stay data (``ir``/``fr``), never switches here.

One switch per mechanism of ``protocol.MECHANISMS`` (``HAS_BLANK``, ``HAS_MINIONS``, ``HAS_SPIN``,
``HAS_NO_MERCY``, ``HAS_STACKING``, ``HAS_MERCY``, ``HAS_SEVEN_O``, ``HAS_JUMP_IN``, ``HAS_FLIP`` …) and
per policy tier (``HAS_WEIGHTED``: the weighted policy and its presets; ``HAS_LOOKAHEAD``: the search
and its belief tracking; random and the heuristics are always in).

This file is the switches of the ``unosim.engine`` package's own modules, the full build that tests
reach into (every switch on); every other build's switches are generated from its
:class:`unosim.engine.compiler.builds.Build` (:func:`unosim.engine.kernel`) into a module of the same name in its package.
"""

from .compiler.builds import Build

globals().update(Build.full().constants())
