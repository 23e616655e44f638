"""Mechanism wings: one module per mechanism that the core turn calls through a fixed set of hooks.

A wing (``engine/mechanics/<name>.py``, twinned by ``reference/mechanics/<name>.py``) holds everything
its mechanism adds to a game: its verbs, its scratch in the game record and its round counters
(declared in ``protocol.MECHANISM_FIELDS``, which appends them to the core's tables), its events, and
the default answers of the policy decisions it asks. The core calls a wing only at these hooks, each
under the wing's compile-time switch (``if HAS_<NAME> and ...:``, :mod:`..features`), so a build without
the mechanism never compiles it and dispatch stays static (numba inlines or links the call):

========================  ==========================================  ============================
hook                      called from                                 what it does
========================  ==========================================  ============================
``reset(g)``              ``turn.reset_round``                        zero its scratch and counters
``first_card(g, f, c)``   ``turn.first_card_effect``                  a first card of its kinds
``on_play(g, p, c)``      ``effects.action_effect`` / ``play_card``   a played card of its kinds
``on_final(g, p, c)``     ``effects.final_card_effects``              its final-card effect
``face_counts(g, d, o)``  ``lookahead.search``                        the deck as its faces show now
``reveal(g, p)``          ``lookahead.search``                        what seat p sees of the others
``physical(c)``           ``turn.audit``                              the card a face belongs to
``write(g, row)``         ``round.write_round``                       its round counters
========================  ==========================================  ============================

A wing implements the hooks its mechanism needs; the first wing is UNO Flip's (:mod:`.flip`).
"""
