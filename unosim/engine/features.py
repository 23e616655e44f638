"""The compile-time switches of a build (:mod:`.builds`): what this copy of the engine compiles in.

Kernel code tests them as ``if HAS_SPIN and …:``; numba's dead-branch pruning removes a branch on a
false module constant before typing, so the code behind it costs nothing in a build without it. Rule
switches that are not mechanisms stay data (``ir``/``fr``), never switches here.

This file is the switches of the ``unosim.engine`` package's own modules, the full build that tests
reach into; every other build's switches are generated from its :class:`.builds.Build`
(:func:`unosim.engine.kernel`) into a module of the same name in its package.
"""

HAS_BLANK = True       # blank cards' effects (classic)
HAS_MINIONS = True     # Dumb Fu pose windows
HAS_SPIN = True        # spin cards and the wheel
HAS_NO_MERCY = True    # No Mercy's setup and its action cards
HAS_STACKING = True    # stacking draw cards (response turns)
HAS_MERCY = True       # mercy knock-outs
HAS_SEVEN_O = True     # 7-0 swaps and passes
HAS_JUMP_IN = True     # jump-ins
HAS_FLIP = True        # UNO Flip's two sides (engine/mechanics/flip.py)
HAS_WEIGHTED = True    # the weighted policy and its presets (random and the heuristics are always in)
HAS_LOOKAHEAD = True   # the lookahead search and its belief tracking
