"""Mechanism wings of the reference engine: the readable twins of ``unosim/engine/mechanics/``.

Each module holds one mechanism's verbs and its round counters, called by the core (:mod:`..round`,
:mod:`..effects`, :mod:`..penalties`, :mod:`..match`) at the same hooks as its compiled twin (listed in
``unosim.engine.mechanics``). The first wing is UNO Flip's (:mod:`.flip`).
"""
