"""A tiny third game, to show that a new game is its own modules and one record (``record.py``)."""
