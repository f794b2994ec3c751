"""The game layer players act through without Discord: the service, boards, races, the daily's
deal, hints' and pictures' worker pools, and the console."""
