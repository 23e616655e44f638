"""Mechanism wings: one module per mechanism a variant or house rule adds to the core turn (blank cards,
Dumb Fu, the spin wheel, No Mercy's cards, stacking, 7-0, UNO Flip's sides).

A wing (``engine/mechanics/<name>.py``, twinned by ``reference/mechanics/<name>.py``) holds everything
its mechanism adds to a game: its verbs, its scratch in the game record and its round counters
(declared in ``protocol.MECHANISMS``), its events, and the default answers of the policy decisions it
asks. It imports from the record (:mod:`..record`) and the policies (:mod:`..policies`) only, and the
core calls it only through :mod:`..core.hooks`. The mercy rule's knock-out is not a wing: whether a seat
is active is the core's, and the draw verb knocks out (``record.piles.knock_out``).
"""
