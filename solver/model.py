"""A small integer program on SCIP: integer columns, ranged rows, maximise.

Kept apart from the game so the SCIP settings, chosen by measurement (see
BENCHMARKS.md), live in one place. Each thread keeps one SCIP instance with
its plugins and settings loaded, and only the problem is made anew per solve
(creating SCIP costs more than most solves). The model is solved with
``optimizeNogil`` so a caller's event loop and other threads keep running.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

# pyscipopt loads numpy, whose OpenBLAS starts a spinning thread per core; the solver does no
# linear algebra in numpy, and on a small machine those threads steal the cores SCIP needs.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from pyscipopt import Model
from pyscipopt.scip import PY_SCIP_PARAMSETTING as SCIP_PARAMSETTING
from pyscipopt.scip import Expr, ExprCons

from solver.bounds import SCIP_MEMORY_MB

#: SCIP settings chosen by measurement on the benchmark positions (BENCHMARKS.md). These
#: models are solved at the root node: presolving, root propagation, the sub-SCIP of
#: rapid learning and the primal heuristics cost more time than they save (the table as it
#: lies is always handed over as a start solution, and the LP finds the optimum); plain
#: Gomory cuts close the gap, the other separators and strong CG cuts only add work.
SCIP_PARAMS: dict[str, float | int | bool | str] = {
    "randomization/randomseedshift": 0,
    "parallel/maxnthreads": 1,
    "presolving/maxrounds": 0,
    "propagating/maxroundsroot": 0,
    "separating/rapidlearning/freq": -1,
    "separating/maxroundsroot": 3,
    "separating/aggregation/freq": -1,
    "separating/zerohalf/freq": -1,
    "separating/mcf/freq": -1,
    "separating/gomory/trystrongcg": False,
    "separating/gomory/genbothgomscg": False,
    # SCIP 10 runs strong CG cuts as a separator of its own, and the linear constraints separate knapsack
    # covers: both only add work here (6 % fewer instructions in SCIP over the 60 benchmark positions).
    "separating/strongcg/freq": -1,
    "constraints/linear/sepafreq": -1,
    "misc/usesymmetry": 0,
    # SCIP stops at this much memory of its own (the answer is then not proven best), see solver/bounds.py
    "limits/memory": SCIP_MEMORY_MB,
    "display/verblevel": 0,
    # SCIP's own SIGINT handler is process-wide; with solves in several threads it can be left installed,
    # and then Ctrl-C no longer stops the bot. Interrupts are the application's business.
    "misc/catchctrlc": False,
}


@dataclass(slots=True)
class Column:
    """An integer variable: its coefficients by row, objective weight and upper bound."""

    rows: dict[int, int]
    objective: float
    upper: int | None


@dataclass(slots=True)
class Program:
    """Rows (each ``lower <= sum <= upper``, None for no bound) and columns; maximised."""

    rows: list[tuple[float | None, float | None]] = field(default_factory=list)
    columns: list[Column] = field(default_factory=list)
    start: list[int] | None = None

    def row(self, lower: float | None, upper: float | None) -> int:
        self.rows.append((lower, upper))
        return len(self.rows) - 1

    def column(self, rows: dict[int, int], objective: float, upper: int | None) -> int:
        self.columns.append(Column(rows, objective, upper))
        return len(self.columns) - 1


@dataclass(frozen=True, slots=True)
class Outcome:
    counts: list[int]
    optimal: bool
    feasible: bool


_local = threading.local()


def _scip() -> Model:
    """This thread's SCIP, settings applied once; its previous problem freed."""
    model: Model | None = getattr(_local, "model", None)
    if model is None:
        model = Model()
        model.hideOutput()
        model.setHeuristics(SCIP_PARAMSETTING.OFF)
        for name, value in SCIP_PARAMS.items():
            model.setParam(name, value)
        _local.model = model
    else:
        model.freeProb()
        model.createProbBasic("play")
    return model


def solve_program(program: Program, time_limit: float) -> Outcome:
    """Maximise; a start solution (if given) is handed to SCIP first."""
    used = [False] * len(program.rows)
    for c in program.columns:
        for r in c.rows:
            used[r] = True
    # a row no column touches is settled here: it holds if its bounds admit 0, and SCIP need not see it
    for (lower, upper), touched in zip(program.rows, used, strict=True):
        if not touched and ((lower is not None and lower > 0) or (upper is not None and upper < 0)):
            return Outcome([0] * len(program.columns), optimal=True, feasible=False)
    model = _scip()
    model.setParam("limits/time", time_limit)
    model.setMaximize()
    # (the positional, named form of addVar and addCoefLinear are the fastest calls pyscipopt has: measured)
    add_var, add_coef = model.addVar, model.addCoefLinear
    xs = [add_var("x", "I", 0, c.upper, c.objective) for c in program.columns]
    rows = {
        r: model.addCons(ExprCons(Expr(), lhs=lower, rhs=upper))
        for r, ((lower, upper), touched) in enumerate(zip(program.rows, used, strict=True))
        if touched
    }
    for x, c in zip(xs, program.columns, strict=True):
        for r, a in c.rows.items():
            add_coef(rows[r], x, a)
    if program.start is not None:
        sol = model.createSol()  # all zero to begin with
        for x, v in zip(xs, program.start, strict=True):
            if v:
                model.setSolVal(sol, x, v)
        model.addSol(sol, free=True)
    model.optimizeNogil()
    status = model.getStatus()
    if model.getNSols() == 0:
        return Outcome([0] * len(xs), optimal=status == "infeasible", feasible=False)
    best = model.getBestSol()
    return Outcome([round(model.getSolVal(best, x)) for x in xs], optimal=status == "optimal", feasible=True)
