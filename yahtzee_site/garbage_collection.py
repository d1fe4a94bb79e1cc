"""A marked workaround: CPython's cycle collector, tuned for a long-running server process.

Works around CPython's generational garbage collector as the site runs on it (3.11 to
3.13; default thresholds ``(700, 10, 10)``): after ten collections of the middle
generation comes a full collection (once the objects that survived since the last one
number a quarter of those it kept), which walks every tracked object, everything loaded at
start-up included (Django, the site's code, the room's compiled templates), and pauses
every table on the process while it does.

Everything loaded at start-up lives as long as the process: :func:`tune` moves it out of
the collector's reach (``gc.freeze``), so that each full collection walks only what came
after. Full collections are also made ten times rarer (``FULL_COLLECTION_EVERY``); the
young generations keep their usual, short collections. The figures are in
``docs/benchmarks.md`` (load benchmark: the slowest 1 % of moves).

Remove it when the site runs on a Python whose collector bounds its own pauses (CPython
3.14's incremental collector, for one, has two generations and ignores the third
threshold, which ``test_the_server_keeps_the_garbage_collectors_full_pauses_few_and_short``
notices) and ``make bench-load`` shows the slowest 1 % of moves no slower without it.
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
