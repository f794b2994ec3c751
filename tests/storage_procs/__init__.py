"""Helpers for the storage tests: a settable clock and the writer processes they start."""
