"""Mechanism wings: one module per mechanism a variant or house rule adds to the core turn (blank cards,
Dumb Fu, the spin wheel, No Mercy's cards, stacking, mercy knock-outs, 7-0, UNO Flip's sides).

A wing (``engine/mechanics/<name>.py``, twinned by ``reference/mechanics/<name>.py``) holds everything
its mechanism adds to a game: its verbs, its scratch in the game record and its round counters
(declared in ``protocol.MECHANISMS``), its events, and the default answers of the policy decisions it
asks. It imports from ``state``, ``piles``, ``policy``, ``quality`` and ``rng`` only. The core calls the
wings through :mod:`..hooks`, except the draw verb (``piles.draw_one``), which asks :mod:`.mercy` itself:
the hooks import every wing, and the wings import the piles.
"""
