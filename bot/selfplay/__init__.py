"""Self-play: complete games between policies through the game core and the solver, and the hold-back advice.

``advice`` is the coach's hold-back advice (a pure function of what a player sees, explained in one sentence);
``policies`` are the players the simulator seats (the solver as it is, "greedy", and the advice,
"holdback"); ``deal`` shuffles the real deck and seats the policies round a deal (mirrored); ``game`` plays one
game through ``bot.game`` (every step checked against the core's invariants) and replays a recorded one;
``measure`` plays many and sums them up (win rates with their Wilson intervals, mean scores); ``opening``
counts the hands that can open on the first turn.
"""
