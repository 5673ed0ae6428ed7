"""The coach's words in the chat (issue 24): its buttons and the short lines around the engine's sentences
(``bot.coach`` says the hints, the outs, the grades and the review as ``Text``; these frame them)."""

from __future__ import annotations

from solver.text import N_

HINT_BUTTON = N_("💡 Hint")
MORE_HINT_BUTTON = N_("💡 More (hint {level} of 4)")
SHOW_PLAY_BUTTON = N_("👀 Show the play")
UNSEEN_BUTTON = N_("🔍 Unseen tiles")
HOW_BUTTON = N_("🎯 How did I do?")
#: under a play's post in the group: the answer goes to the player alone
HOW_PRIVATELY = N_("🎯 How did I do? (in private)")
HOW_SENT = N_("I sent it to you in private.")
HOW_NOT_YOURS = N_("only {name} can ask how this play went")
HOW_NO_CHAT = N_("I cannot write to you in private yet: open a chat with me (tap My rack), then tap again")
REVIEW_BUTTON = N_("📝 Review")
#: under a group game's last post: each player's review, sent to them alone
REVIEW_PRIVATELY = N_("📝 My review (in private)")
SIMPLER_BUTTON = N_("🧒 A simpler play")

HINT_HEAD = N_("Hint {level} of 4: {text}")
HINT_STALE = N_("the table or your rack has changed since this hint; /hint again")
HOLD_BACK = N_("Hold back: {advice}")
NO_SIMPLER = N_("No simpler play: the best play is the simplest I can find.")
SIMPLER_STALE = N_("the table or your rack has changed since this answer; /solve again")
NO_TURNS = N_("I have no play of yours in this game to look at: I grade plays recorded while I knew your rack.")
REVIEW_HEAD = N_("Your game in review:")
TURN_GONE = N_("I no longer have that play: it was taken back, or it is from an earlier game.")
