"""Mechanism wings of the reference engine, the readable twins of ``unosim/engine/mechanics/``: one
module per mechanism, holding its verbs, its round state (kept on the ``Table``, set by its ``start``) and
its round counters. The core calls them through :mod:`..hooks`. The mercy rule's knock-out is the core's
(``Table.knock_out``, asked by the draw itself), as in the compiled engine.
"""
