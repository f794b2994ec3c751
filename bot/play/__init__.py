"""The game layer players act through without Discord: the service, boards, races, the daily's
deal, replays' cache, hints' and pictures' worker pools, and the console. Nothing here imports
discord, even indirectly (``tests/test_architecture.py``), so the console and the service's
tests play without it."""
