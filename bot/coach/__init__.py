"""The coach at the table (issue 24): graded hints, the tiles still unseen and the outs, how a play compares with
the best, and a simpler play. Pure functions over the solver's answers and the game core's state; every sentence
is a ``solver.text.Text`` (a marked template and its values), said in the reader's language by the chat.

- ``hints``: the levels of a hint, from one solved answer (``hint``, ``hints``);
- ``unseen``: the tiles a player has not seen, and which of them would let them play (``unseen_of``, ``outs``);
- ``grade``: a recorded play against the best one open to the same rack and table (``grade_play``), and a
  game's review (``review``);
- ``simpler``: the best play of at most three moves under a longer one (``simpler``).

It may import ``solver`` and ``bot.game`` only (``tests/test_rooms.py``).
"""

from bot.coach.errors import CoachError

__all__ = ["CoachError"]
