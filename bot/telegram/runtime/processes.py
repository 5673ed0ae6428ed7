"""Solver processes fed straight from the event loop: a pipe to each, no helper threads.

``concurrent.futures.ProcessPoolExecutor`` hands work to its processes through
two helper threads and takes results back through one. In a burst the event
loop holds the GIL nearly all the time, so each hand-over waited for the
interpreter's switch interval: the first solve of a burst started 5-30 ms after
it was submitted, and every result reached the loop about 4 ms after it was
ready. Here the loop writes the pickled call into an idle process's pipe
itself and reads the result when the pipe turns readable.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

#: How long ``close`` waits for a process to finish its work and leave, in seconds.
CLOSE_WAIT = 5.0


class SolverProcesses:
    """``count`` processes, each running ``initializer`` once, then one call at a time from its pipe.

    When a process dies (out of memory, a crash in native code), its call and
    every later one fail with ``BrokenProcessPool``, as with the standard
    pool, and the caller starts a new pool.
    """

    def __init__(self, count: int, context: BaseContext, initializer: Callable[[], None]) -> None:
        self._workers = [_Worker.start(context, initializer) for _ in range(count)]
        self._idle: deque[_Worker] = deque(self._workers)
        self._queue: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
        self.broken = False

    @property
    def count(self) -> int:
        return len(self._workers)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in the next free process; its exception, if it raises, is raised here."""
        if self.broken:
            raise BrokenProcessPool("a solver process died; this pool takes no more work")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._queue.append((pickle.dumps((work, args), pickle.HIGHEST_PROTOCOL), done))
        self._hand_out(loop)
        return await done

    def _hand_out(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._idle and self._queue and not self.broken:
            call, done = self._queue.popleft()
            if done.cancelled():
                continue
            worker = self._idle.popleft()
            try:
                worker.connection.send_bytes(call)  # a few KiB into an empty pipe: it does not block
            except OSError:
                self._break(done)
                return
            worker.waiting = done
            loop.add_reader(worker.connection.fileno(), self._answered, worker, loop)

    def _answered(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        loop.remove_reader(worker.connection.fileno())
        done, worker.waiting = worker.waiting, None
        try:
            ok, value = pickle.loads(worker.connection.recv_bytes())
        except (EOFError, OSError):
            self._break(done)
            return
        self._idle.append(worker)
        if done is not None and not done.done():  # given up, or failed already when another process died
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)
        self._hand_out(loop)

    def _break(self, done: asyncio.Future[Any] | None) -> None:
        """A process died: its call and all waiting ones fail, as ``ProcessPoolExecutor``'s do."""
        log.error("a solver process died")
        if done is not None and not done.done():
            done.set_exception(BrokenProcessPool("a solver process died"))
        self._break_off("a solver process died")

    def _break_off(self, why: str) -> None:
        """Take no more work; every call queued or under way fails with ``BrokenProcessPool``."""
        self.broken = True
        failed = [*(d for _, d in self._queue), *(w.waiting for w in self._workers)]
        self._queue.clear()
        for d in failed:
            if d is not None and not d.done():
                d.set_exception(BrokenProcessPool(why))

    async def close(self) -> None:
        """Let every process finish its call and leave (end of its pipe), then reap it.

        Calls still under way fail; the event loop stops watching the pipes before they are closed (a
        later pipe may get the same number).
        """
        self._break_off("the solver processes were closed")
        loop = asyncio.get_running_loop()
        for worker in self._workers:
            loop.remove_reader(worker.connection.fileno())
            worker.connection.close()
        await asyncio.to_thread(_reap, self._workers)


@dataclass
class _Worker:
    process: Any  # multiprocessing's Process of the context
    connection: Connection
    waiting: asyncio.Future[Any] | None = field(default=None)

    @staticmethod
    def start(context: BaseContext, initializer: Callable[[], None]) -> _Worker:
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(target=_serve, args=(theirs, initializer), daemon=True)  # type: ignore[attr-defined]
        process.start()
        theirs.close()
        return _Worker(process, ours)


def _reap(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.process.join(CLOSE_WAIT)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()


def _serve(connection: Connection, initializer: Callable[[], None]) -> None:
    """A solver process: set up, then answer one call at a time until the bot closes the pipe."""
    initializer()
    while True:
        try:
            work, args = pickle.loads(connection.recv_bytes())
        except EOFError:
            return
        try:
            result: tuple[bool, Any] = (True, work(*args))
        except BaseException as error:
            result = (False, error)
        try:
            answer = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an unpicklable result or exception: say so instead
            answer = pickle.dumps((False, RuntimeError(f"the solver's result could not be sent: {error!r}")))
        try:
            connection.send_bytes(answer)
        except OSError:  # the bot closed the pipe meanwhile (it stopped, or gave this pool up)
            return
