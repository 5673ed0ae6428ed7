"""The fixed texts: the greeting, the help, and the example a new user can tap.

Each is marked for the catalogues (``N_``) and translated where it is sent (``language._``).
"""

from __future__ import annotations

from solver.text import N_

EXAMPLE_RACK = "3R 4R 5R 7B J 11K"
EXAMPLE_TABLE = "6R 7R 8R | 7K 7O 7R"

START = N_(
    "Hi! I find the best Rummikub play and show it as a picture.\n"
    "Send your tiles like this (or tap the example):\n"
    "rack: {rack}\n"
    "table: {table}"
)

START_GROUP = N_(
    "Hi! I keep this group's Rummikub table and help each player find their best play.\n"
    "/new starts a game, /join takes a seat, and your rack stays private in our chat."
)

HELP = N_("""How to write tiles
• A tile: number and colour, any order: 3R, r3, red 3, 🟥3. Colours: R red, B blue, K black, O orange (Y yellow = O).
  Colour words in German, Dutch, Spanish, French, Russian and Hebrew work too: 3 rot, rood 3, 3 rojo…
• A joker: J (or joker, *).
• A run: 3-6R or 3R-6R (3R 4R 5R 6R). A group: 7RBK (7R 7B 7K).
• Sets on the table are separated by | ; / or new lines, or written in brackets: (3R 4R 5R) (7B 7K 7O).
• /rack or /draw alone opens a keyboard to tap your tiles.

Your game
/rack 3R 4R 5R J - your rack (only in our private chat)
/draw 7B - add tiles you drew
/table 6R 7R 8R | 7K 7O 7R - the table as it is
/play 9R 10R 11R - record your play; 1R 2R 3R 4R grows 1R 2R 3R; /play 10B puts 10B where it fits
/solve - the best play now, as a picture
/status - the table and your rack
/undo - take back your last change
/games - the games you play, to switch between
/fit 3R - fewest moves to get one tile onto the table
/meld - your initial meld is made
/pass - next player's turn
/new meld=25 jokers=1 - a new game, optionally other rules
/rules - this game's rules
/language - the language I speak with you
/end - end the game, with the points left on each rack

Or just send lines starting with rack: and table: and I solve at once.
Or send a photo of your rack or of the table: I read the tiles, and you tap what they are.

In a group: /new, then everyone /join. Tap "My rack" to set your rack privately and
solve there; tap "I played this" and the group sees the new table, never your rack.
A photo of the table with /table as its caption shows the sets I read; a player taps to set them.
A group's table keeps every tile on it; to correct a mistake write /table fix and the whole table.
A play on someone else's turn, or a first play below the meld, is asked about before it is recorded.""")

WON = N_("Your rack is empty: you won! /end closes the game.")
STALE_RACK = N_(
    "Your rack as I have it no longer fits the deck with the group's table (some of its tiles must be on the "
    "table now): send your rack again, like rack: {example}"
)
STALE_BUTTON = N_("This button is from an earlier question or game; nothing was done")
UNKNOWN_COMMAND = N_("I don't know {command}. /help lists what I can do.")
NOT_UNDERSTOOD = N_("Send me tiles like 3R 4R J, or lines starting with rack: and table:. /help explains.")
TOO_LARGE = N_(
    "That position is too large: solving it needs more than the {limit} MiB of memory I may use for one answer. "
    "Try it with fewer tiles."
)
TOO_LONG = N_(
    "That message is too long ({length} characters); I read at most {limit}. Send the rack and the table apart."
)
PRIVATE_ONLY = N_("Racks are private: tap the button to set yours in our chat.")
SLOW_DOWN = N_(
    "Slow down, please: that was a lot of messages at once, so I am skipping the rest for half a minute. "
    "Send what you need again in a moment."
)

GREET_GROUP = N_(
    "Hi! I keep this group's Rummikub table and help each player find their best play, with your rack kept "
    "private in our chat.\nTap New game to start (or /new meld=25 for other rules); then everyone taps Join."
)
NEW_GAME_BUTTON = N_("🎲 New game")
GAME_ALREADY = N_("This group already has a game: tap Join to play, or /new to start another")
NOT_TEXT = N_(
    "I can't read stickers, voice notes or videos. Type your tiles (like 3R 4R J), send /rack to tap them on "
    "a keyboard, or send a photo of your rack or the table."
)
#: Before the answer to an edited message, so the reply says what it answers
EDITED = N_("✏️ Your edited message, read again: ")
EDIT_NOT_RERUN = N_("An edited {command} is not run again, so nothing changed. Send it as a new message.")
EDIT_DRAW = N_(
    "An edited /draw is not drawn again, so your rack is unchanged. If the draw was wrong, send your whole "
    "rack: /rack 3R 4R 5R J"
)
EDIT_NOT_TEXT = N_("I read again only edited text; send the photo again to have it read.")
