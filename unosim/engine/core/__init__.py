"""The core game: the fixed hooks to the mechanisms' wings (:mod:`.hooks`), card effects (:mod:`.effects`),
the turn and turn loop (:mod:`.turn`), the search (:mod:`.lookahead`), the round and match with the entry
point ``run_games`` (:mod:`.round`), writing the output rows (:mod:`.output`) and the audit
(:mod:`.audit`)."""
