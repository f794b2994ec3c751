"""A fourth test game of another family, a one-pile patience with a stock: Ladder, in its own modules."""
