"""Running studies: the study spec, the runner and its workers (local processes or dask), house-rule
studies, and where the data lives."""
