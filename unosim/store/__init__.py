"""Datasets on disk, one concept a module: atomic files (:mod:`.atomic`), where a dataset keeps what and how
its games are cut into jobs (:mod:`.layout`), the part writer (:mod:`.writer`), the ledger of finished
jobs (:mod:`.ledger`), the sealed manifest (:mod:`.manifest`), the proof that every part is what the
ledger records (:mod:`.integrity`), the run's lock (:mod:`.lock`), resume and repair (:mod:`.resume`),
consolidation, and the reader above integrity (:func:`~unosim.store.reader.open_dataset`)."""
