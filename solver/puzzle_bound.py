"""A lower bound on the actions a one-tile puzzle still needs, so its search can skip tables that cannot finish in time.

The search (``puzzle_search``) keeps a table only when the actions spent
reaching it plus this bound fit in the length it is trying, so the bound
must never be more than the true number (``tests/solver/test_puzzle.py``
checks that on every table within reach of thousands of small puzzles). It
adds up actions that every answer must take, each counted once, from facts
that hold in every shortest answer:

- A tile of the goal's kind (the goal's twin) never moves: wherever the
  twin could be put, the goal could have been put instead, and sooner (the
  search never moves it either).
- Rows are never made, only split: a group stays a group of its number and
  a run a run of its colour (with one joker at most: a row of two tiles and
  a joker is one or the other).
- The goal goes into a run of its colour: a group of its number that could
  take it would take it now, and one holding its twin never can; with a
  joker, a full group of its number without its twin may after one pair.
- The run that takes it descends from a run of its colour on the table now
  (see ``Bound.counted``), so the numbers between the two must each come
  into a run of the colour: a tile each, which a TAKE and a PUT bring (a
  *pair*), and a pair more into its group first if that group is too small
  to let it go; or the joker stands for them, a pair each but one.
- A group of three lets a tile go only after a fourth tile comes in. Where
  neither copy of that tile lies on any row (tiles only move: none ever
  comes), only the joker can be it: without a joker the group's tiles never
  move, and with one, the goal's run passing that number, the joker standing
  for it costs less (see ``_joker_span``).
- The joker in a group of three moves only after a pair puts a tile into
  that group, and in a run of three of another colour only after an action
  on that run: counted once when the joker stands for numbers. From a group
  of four, the joker and the group's tile of the goal's colour both leave
  only after a pair puts another tile in: that tile then costs two pairs.
- Where the goal's run spans the goal's number before its PUT (the joker
  one of its tiles) and the twin lies in a run, either the joker stands for
  that number in a run other than the twin's, or the goal's PUT splits the
  twin's run (``Bound._twin_split``): tiles beside the twin are needed
  either way.
- Where the goal's run is not the twin's but comes from it, the run it
  split off spanned the numbers of one of ``_SPLITS``, each a tile but one
  at most (the joker, which stands for the number no tile of the colour on
  the table has, if there is one): the tiles there that neither run holds
  at the end must come too (``Bound._joker_passing``). The joker moves along
  a run's end with no action of its own, so it may stand for one of them
  and for a copy at the end with one pair. Where it may come from another
  run, the numbers no tile of the colour has on the way must lie far enough
  apart for the joker to stand for each in turn.

An earlier bound also worked out, as a least fixed point, what each tile
waits for before it can move. It was stronger on some tables, but it cost
ten times as much to work out, and the search was faster on every case of
``bench/puzzles`` and of a hill-climb against it without it (see
``docs/benchmark-log.md``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from solver.puzzle_rows import JOKER_CODE, Limits, RowTable, code, colour_of, number_of

#: No way at all (larger than any number of actions searched).
INFINITE = 1 << 20

#: The goal's windows, as numbers from the goal's: the run before the goal's PUT spans three numbers above it, three
#: below it, or two on each side of its twin (which the goal's PUT splits off).
_WINDOWS = ((1, 3), (-3, -1), (-2, 2))
#: With a joker on the table, the run before the goal's PUT may also span the goal's number (the joker standing for
#: it, the run's tiles on both sides of it or on one).
_JOKER_WINDOWS = ((-1, 1), (0, 2), (-2, 0))
#: The numbers, from the goal's, that a run must span to be split into a half holding the twin and another half
#: (each three tiles or more): a PUT of a second copy of the number beside the goal's, or two beyond it, splits
#: runs spanning these; any other split, a run spanning more.
_SPLITS = ((-1, 3), (0, 4), (-3, 1), (-4, 0))


class Bound:
    """``bound(shape)``: at least how many actions (the final PUT included) a table still needs; ``INFINITE`` if none.

    A shape is a table's rows as interned ints (see ``RowTable``), in any order (tables in the same order share
    what is remembered of them: the search's are sorted).
    """

    def __init__(self, table: RowTable, goal: int, limits: Limits, tiles: Collection[int]) -> None:
        """``tiles``: every tile on the table (the same in every table the search meets: tiles only move)."""
        self.table, self.goal, self.limits = table, goal, limits
        self.jokers = sum(1 for t in tiles if t == JOKER_CODE)
        self.present = frozenset(tiles)
        #: the numbers no tile of the goal's colour on the table has (only the joker can stand for them)
        self.absent = frozenset(m for m in range(1, limits.numbers + 1) if code(m, colour_of(goal)) not in self.present)
        self._numbers: dict[int, frozenset[int]] = {}
        self._takeable: dict[int, frozenset[int]] = {}
        self._ends: dict[int, tuple[int, int]] = {}
        self._facts: dict[int, _RowFacts] = {}
        self._counts: dict[tuple[int, ...], int] = {}  # by the kinds of the rows the count reads (see ``_count``)
        self._after: dict[int, int] = {}  # ``after``'s answers, by the signs of the rows the count reads
        self._read: list[bool] = []  # by row: whether the count reads it (see ``_RowFacts``)
        self._kinds: list[int] = []  # by row: the number of its facts (rows with the same facts share one)
        self._kind_of: dict[_RowFacts, int] = {}
        self._takers: set[int] = set()  # the rows that take the goal

    def _meet(self) -> list[bool]:
        """What ``_read`` and ``_takers`` say of the rows met since last asked, worked out."""
        read = self._read
        for k in range(len(read), len(self.table.rows)):
            if self.table.put(k, self.goal) is not None:
                self._takers.add(k)
            facts = self.facts(k)
            read.append(facts is not _NOTHING)
            self._kinds.append(self._kind_of.setdefault(facts, len(self._kind_of)))
        return read

    def _count(self, rows: Sequence[int]) -> int:
        """``_counted`` of the rows the count reads of a table, remembered by their facts (``_Seen`` reads nothing
        else of them), so tables whose rows differ but say the same to the count are counted once."""
        kinds = self._kinds
        key = tuple(sorted([kinds[k] for k in rows]))
        found = self._counts.get(key)
        if found is None:
            found = self._counts[key] = self._counted(rows)
        return found

    def finishes(self, shape: Iterable[int]) -> bool:
        """Whether some row of the table takes the goal now (only then is the bound 1)."""
        if len(self._read) < len(self.table.rows):
            self._meet()
        return not self._takers.isdisjoint(shape)

    def __call__(self, shape: Sequence[int]) -> int:
        """The bound of the table ``shape`` (``finishes`` and ``counted`` in one: the search asks this of every
        table it meets)."""
        read = self._read
        if len(read) < len(self.table.rows):
            read = self._meet()
        if not self._takers.isdisjoint(shape):
            return 1
        # no row takes the goal yet: one step at least, then the goal's PUT
        if self.goal == JOKER_CODE or self.jokers > 1:
            return 2
        found = self._count([k for k in shape if read[k]])
        return found if found > 2 else 2

    def reads(self, shape: Iterable[int]) -> int:
        """The sum of the signs (see ``RowTable``) of the rows of table ``shape`` that the count reads, for
        ``after``."""
        read = self._read
        if len(read) < len(self.table.rows):
            read = self._meet()
        signs = self.table.signs
        return sum([signs[k] for k in shape if read[k]])

    def after(self, reads: int, shape: Sequence[int], i: int, j: int, added: Sequence[int]) -> int:
        """The bound of the table a step leaves: table ``shape`` (sorted; no row of it takes the goal; ``reads`` of
        it) with its rows at places ``i`` and ``j`` (-1: none) replaced by ``added``.

        The search asks this of every table it meets, so it is worked out from what the step changes: the table
        takes the goal when an added row does, and the count is remembered by the signs of the rows it reads, as
        tables are (two sets of rows share a sum about as seldom as two tables share a signature).
        """
        read = self._read
        if len(read) < len(self.table.rows):
            read = self._meet()
        takers = self._takers
        for k in added:
            if k in takers:
                return 1
        if self.goal == JOKER_CODE or self.jokers > 1:
            return 2
        signs = self.table.signs
        if read[shape[i]]:
            reads -= signs[shape[i]]
        if j >= 0 and read[shape[j]]:
            reads -= signs[shape[j]]
        for k in added:
            if read[k]:
                reads += signs[k]
        found = self._after.get(reads)
        if found is None:
            rows = [k for x, k in enumerate(shape) if x != i and x != j and read[k]]
            counted = self._count([*rows, *(k for k in added if read[k])])
            found = self._after[reads] = counted if counted > 2 else 2
        return found

    def counted(self, rows: Sequence[int]) -> int:
        """What the actions a table that does not take the goal yet needs add up to at least (0: nothing said).

        The goal goes into a run of its colour (see the module's docstring). That run descends from a run of the
        colour on the table now, by PUTs, TAKEs, splits and COMBINEs, each run on the way overlapping or touching
        the next, so every number between that run and the goal's window was, at some time, a tile of a run of the
        colour. A number no run of the colour holds now needs a PUT of such a tile into such a run (a pair: two
        actions; one per number). If every row holding that tile is a group that cannot let it go now, the group
        must first gain a tile: another pair, whose PUT goes into that group (a row of that number: one per
        number, and apart from the PUTs into runs). Numbers some run of the colour holds now are counted as
        nothing (a COMBINE may bring them). The goal's own number only its twin can be, as the twin never moves.

        With a joker on the table, the joker may stand for such a number instead, whenever a run of the colour
        spans it (the number's tile then never lies in such a run). It stands for one number at a time, and it is
        stuck in a gap (tiles on both sides) until a tile leaves its run: to stand for another number it is put
        into a run of the colour again (a PUT of the joker), or its run loses a tile, by a TAKE or by the PUT of a
        second copy that splits it (never the PUT that first brings a number, nor the first PUT into a group). So
        each number the joker stands for takes a pair apart from the PUTs that bring the other numbers, but one if
        the joker lies in such a run now; and as both its neighbours were tiles of the run when it stood for a
        number, no two of its numbers lie side by side (see ``_with_joker``). Where the goal's run lies all above
        the run it comes from (or all below), it passes the numbers between: the last time the joker stops standing
        for one of them, the goal's run goes on above it (as it must not cross it again), so the two numbers above
        it are tiles then, never numbers the joker stands for; its numbers there lie three apart or more (see
        ``_passing_with_joker``). The run before the goal's PUT may
        hold the joker too, and then spans three numbers beside or around the goal's (the joker standing for the
        goal's number when the run's tiles lie on both sides of it). A group of the goal's number without its twin
        (full, so the joker one of its tiles) may take the goal after one pair.

        A copy held in a group of three whose fourth tile lies on no row leaves it only once the joker is put into
        the group: no way at all without a joker; with one, see ``_prices``. Where the joker cannot be taken now
        from a group of three (a run of three of another colour), standing for numbers costs a pair (an action)
        more, once: nothing but a PUT into that group lets it go (a PUT or a COMBINE on that run), and such a PUT
        is none of those counted above (a second tile leaving a group needs a second PUT into it). For the same
        reason, where the joker lies in a group of four with a tile of the goal's colour, that tile costs a pair
        more once the joker stands for numbers (``_prices``).

        With two jokers or more, rows of one tile and two jokers may turn from groups into runs, and nothing is
        said.
        """
        if self.goal == JOKER_CODE or self.jokers > 1:
            return 0
        # the count reads only some rows (see ``_RowFacts``): tables that differ in others have the same count
        read = self._read  # (met by ``finishes`` first)
        if len(read) < len(self.table.rows):
            read = self._meet()
        return self._count([k for k in rows if read[k]])

    def _counted(self, rows: Sequence[int]) -> int:
        seen = _Seen(self, rows)
        if not seen.runs:
            return 3 if seen.open_group else INFINITE
        n, numbers = number_of(self.goal), self.limits.numbers
        costs = [0 if m in seen.held else min(seen.spare.get(m, (INFINITE,))) for m in range(numbers + 1)]
        if n not in seen.held:
            costs[n] = INFINITE
        prices = self._prices(seen, costs) if self.jokers else None
        if _NO_FOURTH in costs:
            costs = [INFINITE if c == _NO_FOURTH else c for c in costs]
        windows = (*_WINDOWS, *_JOKER_WINDOWS) if self.jokers else _WINDOWS
        best = INFINITE
        split = -1  # what ``_twin_split`` says, once asked
        for below, above in windows:
            window = (n + below, n + above)
            if window[0] < 1 or window[1] > numbers:
                continue
            if prices is not None:
                between = min(_joker_span(prices, low, high, window, seen) for low, high in seen.runs)
            else:
                spans = {(min(low, window[0]), max(high, window[1])) for low, high in seen.runs}
                between = min(sum(costs[low : high + 1]) for low, high in spans)
            if not window[0] <= n <= window[1]:
                beside = self._beside_twin(seen, window, costs, prices)
            elif (below, above) in _JOKER_WINDOWS:
                beside = self._beside_twin(seen, window, costs, prices, joker_at_n=True)
                if beside:  # (0: the twin lies in no run)
                    split = self._twin_split(seen) if split < 0 else split
                    beside = min(beside, split)
            else:  # the goal's PUT splits the twin's run
                beside = 0
            best = min(best, max(between, beside))
        if seen.open_group:
            best = min(best, 2)
        return INFINITE if best >= INFINITE else 1 + best

    def _prices(self, seen: _Seen, costs: list[int]) -> _Prices:
        """What each number costs with a joker on the table, by where the joker is at the end (see ``_Prices``).

        A copy in a group of three whose fourth tile is on no row (``_NO_FOURTH``) leaves it only once the joker is
        put into the group, and the joker stays there unless another copy of that tile comes in instead: where the
        joker ends in a run, that copy counts as no way at all (another copy costs what it costs: the way through
        the joker brings one too); where it may end in the group, a pair into the group and one out.

        Where the joker lies in a group of four with a copy the count may bring at 2 (``_Seen.shared``), the joker
        and that copy leave it both only after a pair into the group (a second tile leaving a group needs a second
        PUT into it): once the joker is used that copy costs 4 (or another copy what it costs), and where the
        joker ends in a run and no row holds the tile the group lacks, no way at all (as above)."""
        held = [INFINITE if c == _NO_FOURTH else c for c in costs]
        kept = [4 if c == _NO_FOURTH else c for c in costs]
        used, used_kept, ending = held, kept, held
        g = seen.shared
        if g and g not in seen.held and g != number_of(self.goal):
            used, used_kept, ending = list(held), list(kept), list(held)
            used[g] = used_kept[g] = _bumped(seen.spare[g])
            ending[g] = _bumped(seen.spare[g], alone=seen.alone)
        return _Prices(held, kept, used, used_kept, ending)

    def _beside_twin(
        self,
        seen: _Seen,
        window: tuple[int, int],
        costs: Sequence[int],
        prices: _Prices | None,
        joker_at_n: bool = False,
    ) -> int:
        """When the goal's twin lies in a run of its colour, what that run and the goal's (another run, as it holds
        ``window`` and not the twin) need at the end: tiles of the colour, each copy no run of the colour holds
        now brought by a pair of its own (and a pair into its group first if that group cannot let it go now);
        0 if the twin lies in no run. The twin never moves, so its row stays a run of three or more around it.

        The numbers the goal's run passed on its way from a run on the table now (``_passed``) that those two runs
        do not hold at the end each cost what bringing them costs too: their tiles are others.

        With a joker on the table, the joker may be one of those tiles at the end: then that copy costs nothing,
        and the joker a pair of its own unless it lies in a run of the colour now. With ``joker_at_n``, the joker
        stands for the goal's number in the goal's run (one of the ways a window of ``_JOKER_WINDOWS`` is made;
        ``_twin_split`` is the other), which holds tiles of the window's other numbers, and is not the twin's run
        (that run holds the twin there). On the way it may also have stood for numbers the goal's run passed, with
        the same pair (``_joker_passing``)."""
        n = number_of(self.goal)
        in_runs, spare = seen.in_runs, seen.spare
        if not in_runs.get(n):
            return 0
        no_fourth = 4 if self.jokers else INFINITE  # (the joker may be a group's fourth tile)
        spans = self._passed(seen, window)
        # what a passed number costs: a copy only the joker can let go, a pair into its group and one out
        passing = costs if prices is None else prices.kept
        best = INFINITE
        for low in (n - 2, n - 1, n):
            if low < 1 or low + 2 > self.limits.numbers:
                continue
            need = [*(m for m in range(window[0], window[1] + 1) if m != n), *range(low, low + 3)]
            copies_cost: list[int] = []  # what each copy needed costs
            copies_used: list[int] = []  # the same once the joker has left its group (see ``_prices``)
            for m in set(need):
                extra = need.count(m) - in_runs.get(m, 0)
                if extra > 0:
                    copies = [(no_fourth if c == _NO_FOURTH else c) for c in spare.get(m, [])]
                    copies_cost += sorted(copies)[:extra] + [INFINITE] * (extra - len(copies))
                    # the joker in a run at the end (see ``_prices``)
                    copies = [(INFINITE if c == _NO_FOURTH else c) for c in spare.get(m, [])]
                    if m == seen.shared:
                        copies.remove(2)
                        copies.append(INFINITE if seen.alone else 4)
                    copies_used += sorted(copies)[:extra] + [INFINITE] * (extra - len(copies))
            kept = set(need)
            passed = [[passing[m] for m in span if m not in kept] for span, _, _ in spans]
            # the joker standing for no number of the colour: every copy and every passed number a tile
            total = INFINITE
            if INFINITE not in copies_cost and not joker_at_n:
                total = sum(copies_cost) + min((sum(p) for p in passed), default=INFINITE)
            if self.jokers:
                # the joker at the end: at ``n`` (``joker_at_n``), or standing for the dearest copy
                used = sum(copies_used) - (0 if joker_at_n else max(copies_used, default=0))
                left = [self._joker_passing(span, split, one_way, kept, passing) for span, split, one_way in spans]
                used += min(left, default=INFINITE)
                total = min(total, used if seen.placed else used + 2 + seen.stuck)
            best = min(best, total)
        return best

    def _joker_passing(
        self, span: range, split: range | None, one_way: bool, kept: Collection[int], passing: Sequence[int]
    ) -> int:
        """What the numbers the goal's run passed (those of ``span`` not ``kept``: see ``_passed``) cost at least with
        the joker used.

        The joker may stand for several of them with its one pair: it moves along a run's end as tiles come in at
        the other, with no action of its own. So from a run other than the twin's, only the numbers no tile of the
        colour on the table has are looked at: the joker stands for each of them at some time, so no two lie side
        by side, nor three apart or less where the goal's run passes them one way (``_passing_with_joker``): else
        no way. From the twin's run, only the run that split into the twin's half and the goal's run's first row
        counts: it spanned ``split``, the joker one of its tiles at most, so all but one of the numbers there are
        tiles (and the joker stands for the one no tile of the colour on the table has, if there is one: two such,
        no way)."""
        if split is None:
            absent = [m for m in span if m in self.absent]
            apart = 3 if one_way else 2
            return INFINITE if any(b - a < apart for a, b in pairwise(absent)) else 0
        absent = [m for m in split if m in self.absent]
        if len(absent) > 1:
            return INFINITE
        passed = [passing[m] for m in split if m not in kept]
        if absent:
            return sum(passed) - (passing[absent[0]] if absent[0] not in kept else 0)
        return sum(passed) - max(passed, default=0)

    def _twin_split(self, seen: _Seen) -> int:
        """With a joker on the table and the twin in a run, the other way a window of ``_JOKER_WINDOWS`` is made:
        the goal's PUT splits the twin's run, the joker one of its tiles (the goal a second copy of the twin's
        number, each half three tiles or more): the run holds, beside the twin and the joker, one of the two
        numbers below the goal's and the two above, or the two below and one of the two above. Each of those three
        no run of the colour holds now costs what its cheapest copy costs (the joker used: see ``_prices``),
        and the joker a pair unless it lies in a run of the colour now."""
        n, numbers = number_of(self.goal), self.limits.numbers
        triples = [(m, n + 1, n + 2) for m in (n - 2, n - 1)] + [(n - 2, n - 1, m) for m in (n + 1, n + 2)]
        best = INFINITE
        for triple in triples:
            if triple[0] < 1 or triple[-1] > numbers:
                continue
            total = 0
            for m in triple:
                if m not in seen.held:
                    copies = [(INFINITE if c == _NO_FOURTH else c) for c in seen.spare.get(m, [INFINITE])]
                    total += _bumped(copies, seen.alone) if m == seen.shared else min(copies)
            best = min(best, total)
        return best + (0 if seen.placed else 2 + seen.stuck)

    def _passed(self, seen: _Seen, window: tuple[int, int]) -> list[tuple[range, range | None, bool]]:
        """The numbers the goal's run (holding ``window``, not the twin) passed on its way from each run of the
        colour on the table now: those between that run and the window; from the twin's run, the numbers of the run
        its way split from the twin's, at least one of ``_SPLITS`` around the goal's number (the twin's half and the
        other each three tiles or more, a PUT of a second copy or a TAKE between them), and those on to the window.
        Each with that split's numbers (None: from another run), and whether the window lies all above that other
        run or all below it."""
        n, numbers = number_of(self.goal), self.limits.numbers
        spans: list[tuple[range, range | None, bool]] = []
        for low, high in seen.runs:
            if (low, high) != seen.twin_run:
                one_way = high < window[0] or low > window[1]
                spans.append((range(min(low, window[0]), max(high, window[1]) + 1), None, one_way))
                continue
            for below, above in _SPLITS:
                if n + below >= 1 and n + above <= numbers:
                    span = range(min(n + below, window[0]), max(n + above, window[1]) + 1)
                    spans.append((span, range(n + below, n + above + 1), False))
        return spans

    def facts(self, k: int) -> _RowFacts:
        """What ``_Seen`` reads of row ``k`` (see ``_RowFacts``), worked out once per row."""
        found = self._facts.get(k)
        if found is None:
            table, goal = self.table, self.goal
            row = table.rows[k]
            if table.colour[k] == colour_of(goal):
                found = (self.ends(k), self.numbers(k), JOKER_CODE in row, (), goal in row, 0, 0)
            else:
                copies = tuple(
                    (number_of(t), 2 if t in self.takeable(k) else self._stuck_copy(k))
                    for t in row
                    if t != JOKER_CODE and colour_of(t) == colour_of(goal)
                )
                full = table.number[k] == number_of(goal) and goal not in row
                stuck = shared = 0
                if JOKER_CODE in row and JOKER_CODE not in self.takeable(k) and len(row) == self.limits.smallest:
                    stuck = 2 if table.number[k] >= 0 else 1
                elif JOKER_CODE in row and table.number[k] >= 0 and copies:
                    shared = table.number[k]  # a group of four: the joker and its copy cannot both leave it
                    if not self._fourth_on_table(k):
                        shared = -shared  # (nor can the copy, but with the joker back in, to stay there)
                found = (None, frozenset(), full, copies, goal in row, stuck, shared)
                if not (full or copies or stuck):
                    found = _NOTHING
            self._facts[k] = found
        return found

    def _fourth_on_table(self, k: int) -> bool:
        """Whether some row holds a tile of group ``k``'s number in a colour the group lacks (jokers aside)."""
        row, number = self.table.rows[k], self.table.number[k]
        colours = [code(number, c) for c in range(self.limits.colours)]
        return any(t in self.present for t in colours if t not in row)

    def _stuck_copy(self, k: int) -> int:
        """What bringing a tile of the goal's colour out of group ``k`` costs when the group cannot let it go now: a
        pair into the group first (4 in all), or ``_NO_FOURTH`` when the group (three tiles, no joker) lacks one
        colour and neither copy of that tile is on the table: then only the joker can be its fourth tile."""
        row = self.table.rows[k]
        if JOKER_CODE in row or len(row) != self.limits.colours - 1:
            return 4
        return 4 if self._fourth_on_table(k) else _NO_FOURTH

    def ends(self, k: int) -> tuple[int, int]:
        """Run ``k``'s lowest and highest numbers (its jokers aside)."""
        found = self._ends.get(k)
        if found is None:
            numbers = self.numbers(k)
            found = self._ends[k] = (min(numbers), max(numbers))
        return found

    def numbers(self, k: int) -> frozenset[int]:
        found = self._numbers.get(k)
        if found is None:
            found = self._numbers[k] = frozenset(number_of(t) for t in self.table.rows[k] if t != JOKER_CODE)
        return found

    def takeable(self, k: int) -> frozenset[int]:
        found = self._takeable.get(k)
        if found is None:
            found = self._takeable[k] = frozenset(t for t, _ in self.table.takes(k))
        return found


#: What ``_Seen`` reads of one row: for a run of the goal's colour, its lowest and highest numbers, the numbers it
#: holds and whether the joker is one of its tiles; for any other row, whether it is a full group of the goal's
#: number without its twin, and the numbers of its tiles of the goal's colour with what bringing each costs; then
#: whether the row holds the twin; then what letting the joker go from the row costs first (2: a pair into its
#: group of three; 1: an action on its run of three of another colour; 0: nothing, or no joker); last, for a group
#: of four holding the joker and a tile of the goal's colour, that tile's number (0: none).
_RowFacts = tuple[tuple[int, int] | None, frozenset[int], bool, tuple[tuple[int, int], ...], bool, int, int]


@dataclass(frozen=True, slots=True)
class _Prices:
    """What each number costs with a joker on the table (see ``Bound._prices``): with the joker left where it is,
    where the goal's run passes the numbers (``held``) and otherwise (``kept``); with the joker used, the same
    (``used``, ``used_kept``); and with the joker ending in a run (``ending``)."""

    held: list[int]
    kept: list[int]
    used: list[int]
    used_kept: list[int]
    ending: list[int]


#: The facts of a row the count does not read.
_NOTHING: _RowFacts = (None, frozenset(), False, (), False, 0, 0)

#: The cost of a copy held in a group of three whose fourth tile is on no row: no way at all without a joker, and
#: with one, the joker may be that fourth tile (a pair, as for any fourth tile) or stand for the number (see
#: ``Bound._prices``).
_NO_FOURTH = 5


class _Seen:
    """What ``Bound.counted`` reads of a table, in one pass over its rows: the runs of the goal's colour (their
    lowest and highest numbers) and the numbers they hold; how many copies of each number of that colour they hold,
    and what bringing each copy that lies outside them costs (a pair, and one more into its group if the group
    cannot let it go now), cheapest first; whether the joker lies in such a run; whether a full group of the goal's
    number lacks its twin; the lowest and highest numbers of the run holding the twin, if one does."""

    def __init__(self, bound: Bound, rows: Sequence[int]) -> None:
        self.runs: list[tuple[int, int]] = []
        self.held: set[int] = set()
        self.in_runs: dict[int, int] = {}
        self.spare: dict[int, list[int]] = {}
        self.placed = self.open_group = False
        self.stuck = 0  # what letting the joker go costs first
        self.shared = 0  # the number of a tile of the goal's colour in the joker's group of four
        self.alone = False  # whether no row holds a tile that group lacks: then only the joker lets that tile go
        self.twin_run: tuple[int, int] | None = None
        facts = bound.facts
        for k in rows:
            ends, numbers, flag, copies, twin, stuck, shared = facts(k)
            self.stuck = max(self.stuck, stuck)
            if shared:
                self.shared, self.alone = abs(shared), shared < 0
            if ends is not None:
                self.runs.append(ends)
                if twin:
                    self.twin_run = ends
                self.held |= numbers
                self.placed = self.placed or flag
                for m in numbers:
                    self.in_runs[m] = self.in_runs.get(m, 0) + 1
                continue
            self.open_group = self.open_group or flag
            for m, cost in copies:
                self.spare.setdefault(m, []).append(cost)
        for found in self.spare.values():
            found.sort()


def _joker_span(prices: _Prices, low: int, high: int, window: tuple[int, int], seen: _Seen) -> int:
    """What the numbers from the run ``low``-``high`` to the goal's window cost with a joker on the table: the
    joker left where it is (every number brought), or used. Where the window lies all above the run or all below
    it, the goal's run passes the numbers between (``_passing_with_joker``), and a copy only the joker can let go
    (``_NO_FOURTH``) at ``q`` counts as no way at all: that comes too late for any number the joker stands for from
    ``q - 2`` up (it stops standing for it only once the two numbers above it are tiles, ``q`` among them), so
    standing for ``q`` instead costs less and leaves its other numbers as free. Otherwise (``_with_joker``), the
    joker standing for a number of the window ends in the goal's run, and elsewhere it may end anywhere."""
    first, last = min(low, window[0]), max(high, window[1])
    if high < window[0] or low > window[1]:
        left = sum(prices.held[first : last + 1])
        return min(left, _passing_with_joker(prices.used[first : last + 1], seen.placed, seen.stuck))
    left = sum(prices.kept[first : last + 1])
    at, to = window[0] - first, window[1] - first
    outside = _with_joker(prices.used_kept[first : last + 1], at, to, seen.placed, seen.stuck, in_window=False)
    inside = _with_joker(prices.ending[first : last + 1], at, to, seen.placed, seen.stuck)
    return min(left, outside, inside)


def _bumped(copies: Sequence[int], alone: bool = False) -> int:
    """The cheapest of ``copies`` (the costs of a number's copies, one of them 2: the copy in the joker's group of
    four) once that copy costs 4, or no way at all with ``alone`` (see ``_prices``)."""
    others = list(copies)
    others.remove(2)
    return min([INFINITE if alone else 4, *others])


def _with_joker(
    costs: Sequence[int], first: int, last: int, placed: bool, stuck: int = 0, in_window: bool = True
) -> int:
    """What bringing a stretch of numbers costs (``costs``, number by number; 0: held) when the joker may stand for
    some: each number it stands for costs a pair instead, one of them nothing if the joker lies in a run of the
    colour now (``placed``); no two of them side by side, and one at most from ``first`` to ``last`` (the places in
    the stretch of the goal's window: the run before the goal's PUT holds the joker once; see ``Bound.counted``).

    The joker is best put where bringing the tile costs most: the most it saves is worked out number by number
    (the heaviest set of a path's nodes no two of them neighbours), with and without a number of the window
    (without, only, when not ``in_window``)."""
    total = 0
    # the most saved up to this number and up to the one before it, without a number of the window and with one
    saved = before = 0
    saved_in = before_in = -INFINITE
    for i, cost in enumerate(costs):
        if not cost:
            before, before_in = saved, saved_in
            continue
        total += cost
        gain = cost - 2
        if first <= i <= last:
            saved_in, before_in = max(saved_in, before + gain), saved_in
            before = saved
        else:
            saved, before = max(saved, before + gain), saved
            saved_in, before_in = max(saved_in, before_in + gain), saved_in
    if not total:
        return 0
    return total - max(0, (max(saved, saved_in) if in_window else saved) - stuck) - (2 if placed else 0)


def _passing_with_joker(costs: Sequence[int], placed: bool, stuck: int = 0) -> int:
    """``_with_joker`` where the goal's run passes the numbers of ``costs`` one way: no two numbers the joker stands
    for closer than three apart. The joker stops standing for a number ``m`` below the goal's run (say) by its own
    TAKE, splitting its run (three tiles on each side), by a TAKE, a flip or a split that leaves it at an end of a
    run going on from ``m + 1`` (two tiles at least), or by the PUT of a second copy of ``m + 1`` or above that
    splits the run above it: ``m + 1`` and ``m + 2`` are tiles then. (The window needs no rule of its own: two
    numbers of it lie closer.)"""
    total = 0
    saved = before = earlier = 0  # the most saved up to this number, the one before it, and the one before that
    for cost in costs:
        total += cost
        best = earlier + cost - 2 if cost else saved
        saved, before, earlier = (best if best > saved else saved), saved, before
    if not total:
        return 0
    return total - max(0, saved - stuck) - (2 if placed else 0)
