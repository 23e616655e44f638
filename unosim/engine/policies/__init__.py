"""The built-in policies' decisions: one dispatch of every decision (:mod:`.dispatch`) over ``random``
(:mod:`.random`), the two heuristics (:mod:`.heuristic`) and ``weighted`` with its presets
(:mod:`.weighted`, scoring with :mod:`.weighted_features` and the card-only terms of :mod:`.card_terms`)."""
