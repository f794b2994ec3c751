"""A fourth test game of another family, a one-pile patience with a stock: Climb, its own modules
and one record (``record.py``)."""
