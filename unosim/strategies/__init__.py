"""Comparing and improving policies: duplicate tournaments and the tuning of ``weighted``'s weights."""
