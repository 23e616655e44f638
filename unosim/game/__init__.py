"""What is played: cards and decks, variant families, rule sets, policies, seat arrangements, and the
numeric protocol both engines share (no numba here)."""
