"""Mechanism wings of the reference engine, the readable twins of ``unosim/engine/mechanics/``: one
module per mechanism, holding its verbs, its round state (kept on the ``Table``, set by its ``start``) and
its round counters. The core calls them through :mod:`..hooks`, except the draw (``Table.draw_one``),
which asks :mod:`.mercy` itself: the hooks import every wing, and the wings import the table.
"""
