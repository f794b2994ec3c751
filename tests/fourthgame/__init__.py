"""A fourth test game of another family, a one-pile patience with a stock: Climb, in its own modules."""
