"""How much work one answer may take, so no rule variant or position can hold a solver for minutes.

The costly part of a big variant is not SCIP but the grown forms of the table's
runs: with ``smallest_set=13`` a long run grows in thousands of ways, and a
table of 36 of them took 137 s and 8 GiB. So a position is refused up front
when its sets would grow in more than ``MAX_FORMS`` ways (about 3 s of work);
the forms kept between answers are bounded by count of forms, not of sets;
and SCIP has a memory limit of its own.
"""

from __future__ import annotations

import time

from solver.errors import RummikubError

#: the grown forms one position's table sets may have (a standard table has at most about 5,000; the longest
#: run of the largest variant alone has some 25,000)
MAX_FORMS = 30_000
#: the grown forms kept between answers (every set of the standard game has about 7,000 in all)
MAX_CACHED_FORMS = 60_000
#: SCIP's own memory limit (its ``limits/memory``), in MiB
SCIP_MEMORY_MB = 1024


class TooBigError(RummikubError):
    """A position the solver refuses up front: it could not be answered in bounded time and memory."""


class OutOfTime(Exception):
    """The deadline passed while the model was being built (caught inside the solver)."""


def check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise OutOfTime


__all__ = ["MAX_CACHED_FORMS", "MAX_FORMS", "SCIP_MEMORY_MB", "OutOfTime", "TooBigError", "check_deadline"]
