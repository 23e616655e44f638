"""The game record and the verbs every layer above shares: the record's layout and read-only verbs
(:mod:`.state`), the random streams (:mod:`.rng`), moving cards and knocking seats out (:mod:`.piles`),
the game-quality measures (:mod:`.quality`) and what a searching seat knows (:mod:`.belief`)."""
