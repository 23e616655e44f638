"""Datasets on disk: atomic files, parquet parts and their ledger, the manifest, integrity checks,
resume, consolidation and the reader (:func:`~unosim.store.reader.open_dataset`)."""
