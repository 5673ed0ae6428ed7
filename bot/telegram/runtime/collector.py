"""Python's cycle collector in a long-running bot: what start-up made is kept out of its sight.

A full collection walks every object the collector tracks. Once the bot has
started, that is some 150 000 objects (the modules, PTB's and SQLAlchemy's
classes, the solver's and the pictures' caches), and on the benchmark machine
one walk took 80-90 ms, in the event loop or in a solver process in the middle
of an answer (BENCHMARKS.md, Bot). Those objects live as long as the process,
so once start-up is done they are moved to the permanent generation
(``gc.freeze``), and later collections walk only what came after.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect the start-up garbage, then freeze everything left: it lives as long as the process."""
    gc.collect()
    gc.freeze()
