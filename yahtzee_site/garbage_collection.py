"""Garbage collection tuned for a long-running server process.

Everything loaded at start-up (Django, the site's code, the room's compiled templates)
lives as long as the process: :func:`tune` moves it out of the collector's reach
(``gc.freeze``), so that each full collection, which pauses every table on the process,
walks only what came after. Full collections are also made ten times rarer
(``FULL_COLLECTION_EVERY``); the young generations keep their usual, short collections.
The figures are in ``docs/benchmarks.md`` (load benchmark: the slowest 1 % of moves).
"""

import gc

from django.template.loader import get_template

FULL_COLLECTION_EVERY = 100
TEMPLATES_USED_ON_EVERY_TABLE = ("games/room.html", "games/home.html")


def tune() -> None:
    for name in TEMPLATES_USED_ON_EVERY_TABLE:
        get_template(name)
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
