"""Playing games: :func:`~unosim.play.simulate.simulate` (one cell, in memory, on the compiled engine)
and :func:`~unosim.play.trace.replay` (one game as a readable log)."""
