"""The garbage collector after start-up: what start-up built is kept for good, out of its way.

Python's cyclic collector walks every tracked object of a generation when it collects it;
after start-up those are the some 120,000 objects of the modules, classes, catalogues and
sprites that live as long as the bot, walked again at each full collection for nothing.
``settle`` collects once, then freezes what is left (``gc.freeze``: the collector no longer
looks at it) and lets more young objects pile up before a collection, so fewer short-lived
ones (a press's events, requests and rows) survive into the older generations. In one run
of ``benchmarks/bot.py --think 0.1 0.5`` (issue 26), collections after the bot was ready took
0.14 s of its CPU before, 0.02 s after.
"""

from __future__ import annotations

import gc

#: Allocations (less deallocations) before a young collection, and young collections before
#: a middle one, middle ones before a full one; Python's defaults are 700, 10 and 10.
THRESHOLDS = (20_000, 50, 100)


def settle() -> int:
    """Collect, freeze the survivors and raise the thresholds; how many objects were frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return gc.get_freeze_count()
