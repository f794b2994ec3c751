"""Klondike (issue 43)."""
